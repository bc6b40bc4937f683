import { hash, verify } from '@node-rs/argon2';

/** The shortest password accepted (NIST SP 800-63B asks for at least 8; people sign in to security data here). */
export const MIN_PASSWORD_LENGTH = 12;
/** argon2 hashes whatever it is given; a bound keeps one sign-in from costing unbounded memory. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return undefined;
}

/**
 * argon2id through @node-rs/argon2 (maintained, native, no build step), with its defaults: 19 MiB,
 * 2 passes, 1 lane — OWASP's recommended minimum. The PHC string carries the parameters, so they can
 * be raised later without invalidating stored hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'));
}

/** False for a wrong password and for a hash that is not argon2 (never throws on bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password.normalize('NFC'));
  } catch {
    return false;
  }
}
