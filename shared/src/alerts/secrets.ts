import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, stackDir } from '../config';

type Env = Record<string, string | undefined>;

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

function parseKey(raw: string, origin: string): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new ConfigError(
      origin,
      `is not a 32-byte key (got ${key.length} bytes)`,
      'Generate one with `openssl rand -base64 32` and keep it: the webhook secrets are encrypted with it.',
    );
  }
  return key;
}

/**
 * The server key webhook secrets are encrypted with: WARDEN_SECRET_KEY (32 bytes, base64 or hex).
 * In production (NODE_ENV=production) it must be set; elsewhere a key is generated once for the
 * local stack in `.stack/secret.key` (mode 0600), so `warden start` works without setup.
 */
export function loadSecretKey(env: Env = process.env): Buffer {
  const raw = env.WARDEN_SECRET_KEY?.trim();
  if (raw) return parseKey(raw, 'WARDEN_SECRET_KEY');
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'WARDEN_SECRET_KEY',
      'is not set',
      'Set it to 32 random bytes in base64 (`openssl rand -base64 32`), the same for the API and the alerter; webhook secrets are encrypted with it.',
    );
  }
  const dir = stackDir(env);
  const file = resolve(dir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written whole under a name of its own, then linked into place. A link never replaces a file,
    // so services starting at once keep the first one's key, and none reads a key file still being
    // written: created with `wx` in place, it was empty for a moment, and a second service read 0 bytes.
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    writeFileSync(draft, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600 });
    chmodSync(draft, 0o600);
    try {
      linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return parseKey(readFileSync(file, 'utf8'), file);
}

/** AES-256-GCM: `v1:` + base64(iv | tag | ciphertext); `context` (the endpoint id) is bound as AAD. */
export function encryptSecret(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function decryptSecret(key: Buffer, sealed: string, context: string): string {
  const [format, data] = sealed.split(':');
  if (format !== FORMAT || !data) throw new Error(`an encrypted secret of an unknown format (${format})`);
  const raw = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new Error(
      'a webhook secret does not decrypt with this WARDEN_SECRET_KEY: the API and the alerter must share the key the secret was stored with',
    );
  }
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
