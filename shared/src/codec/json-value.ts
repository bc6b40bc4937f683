import type { Static, TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';

/** A decoded message value, or why it can never be processed (the reason its dead letter carries). */
export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Fields named in a poison reason: enough to act on, short enough for a header. */
const REASON_FIELDS = 4;

/** Parses a message value as a JSON object; the reasons say what is wrong with the bytes. */
export function parseJsonObject(value: Buffer | null): Decoded<Record<string, unknown>> {
  if (!value || value.length === 0) return { ok: false, reason: 'empty message value' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (err) {
    return { ok: false, reason: `value is not JSON: ${(err as Error).message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, reason: 'value is not a JSON object' };
  return { ok: true, value: parsed as Record<string, unknown> };
}

/** Checks a parsed value against its compiled schema; the reason names the first fields that do not match. */
export function checkValue<T extends TSchema>(
  value: unknown,
  check: TypeCheck<T>,
  what: string,
): Decoded<Static<T>> {
  if (check.Check(value)) return { ok: true, value };
  const problems = new Map<string, string>();
  for (const error of check.Errors(value)) {
    if (!problems.has(error.path)) problems.set(error.path, error.message.toLowerCase());
    if (problems.size === REASON_FIELDS) break;
  }
  const fields = [...problems].map(([path, problem]) => `${path || '(value)'} ${problem}`);
  return { ok: false, reason: `not ${what}: ${fields.join('; ')}` };
}
