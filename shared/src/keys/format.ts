import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * The API key format: `wdn_live_<32 base62 body><6 base62 checksum>`. The checksum is CRC32 of the
 * body in base62, so secret scanners (and our own hot path) reject typos and look-alikes offline,
 * without a lookup. The body carries 32 × log2(62) ≈ 190 bits of randomness.
 */

export const API_KEY_PREFIX = 'wdn_live_';
export const API_KEY_BODY_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_BODY_LENGTH + API_KEY_CHECKSUM_LENGTH;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}([0-9A-Za-z]{${API_KEY_BODY_LENGTH}})([0-9A-Za-z]{${API_KEY_CHECKSUM_LENGTH}})$`,
);

/** Unbiased random base62: bytes ≥ 248 (= 4 × 62) are discarded instead of folded by modulo. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Fixed-width base62 of a non-negative integer, left-padded with '0'. 62^6 > 2^32, so CRC32 fits in 6. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

export function keyChecksum(body: string): string {
  return toBase62(crc32(body) >>> 0, API_KEY_CHECKSUM_LENGTH);
}

/** A fresh key. Show it once; store only `hashKey(key)`. */
export function generateApiKey(): string {
  const body = randomBase62(API_KEY_BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${keyChecksum(body)}`;
}

/** Prefix, length, alphabet and checksum: everything that can be checked without a lookup. */
export function isWellFormedKey(candidate: unknown): candidate is string {
  if (typeof candidate !== 'string' || candidate.length !== API_KEY_LENGTH) return false;
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return false;
  const [, body = '', checksum] = match;
  return keyChecksum(body) === checksum;
}

/** SHA-256 hex: keys carry 190 random bits, so a fast unsalted hash is enough (no password stretching). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Last four characters, safe to show in listings so people can tell their keys apart. */
export function keyHint(key: string): string {
  return `${API_KEY_PREFIX}…${key.slice(-4)}`;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The key a request presents: `Authorization: Bearer <key>` or `x-api-key: <key>` (the spec allows
 * both). Returns undefined when neither header carries one.
 */
export function presentedKeyFromHeaders(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const authorization = first(headers.authorization)?.trim();
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (bearer) return bearer[1];
  }
  const apiKey = first(headers['x-api-key'])?.trim();
  return apiKey || (authorization ? authorization : undefined);
}
