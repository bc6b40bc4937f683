import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  generateApiKey,
  hashKey,
  isWellFormedKey,
  keyChecksum,
  presentedKeyFromHeaders,
  toBase62,
} from './format';
import { parseGracePeriod, parseScopes } from './store';

describe('API key format', () => {
  it('generates wdn_live_ + 32 base62 + 6-char checksum that verifies offline', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^wdn_live_[0-9A-Za-z]{38}$/);
    expect(key).toHaveLength(API_KEY_LENGTH);
    expect(isWellFormedKey(key)).toBe(true);
    expect(key.slice(-6)).toBe(keyChecksum(key.slice(9, 41)));
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('rejects a key with one character changed (checksum)', () => {
    const key = generateApiKey();
    const i = 20;
    const swapped = key[i] === 'a' ? 'b' : 'a';
    expect(isWellFormedKey(key.slice(0, i) + swapped + key.slice(i + 1))).toBe(false);
  });

  it('rejects wrong prefix, length, alphabet and non-strings', () => {
    const key = generateApiKey();
    expect(isWellFormedKey(key.replace('wdn_live_', 'wdn_test_'))).toBe(false);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}0`)).toBe(false);
    expect(isWellFormedKey(key.slice(0, 15) + '-' + key.slice(16))).toBe(false);
    expect(isWellFormedKey(undefined)).toBe(false);
    expect(isWellFormedKey(42)).toBe(false);
  });

  it('checksum is base62 of CRC32 of the body, zero-padded to 6', () => {
    // CRC32("123456789") = 0xCBF43926, the standard check value.
    expect(keyChecksum('123456789')).toBe(toBase62(0xcbf43926, 6));
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
    expect(toBase62(62, 6)).toBe('000010');
    expect(toBase62(0xffffffff, 6)).toHaveLength(6);
  });

  it('hashes with SHA-256 hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('presentedKeyFromHeaders', () => {
  it('reads Bearer and x-api-key', () => {
    expect(presentedKeyFromHeaders({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedKeyFromHeaders({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(presentedKeyFromHeaders({ 'x-api-key': ' abc ' })).toBe('abc');
    expect(presentedKeyFromHeaders({})).toBeUndefined();
  });

  it('passes a non-Bearer Authorization through so it fails as malformed, not missing', () => {
    expect(presentedKeyFromHeaders({ authorization: 'Basic Zm9v' })).toBe('Basic Zm9v');
  });
});

describe('CLI argument parsing', () => {
  it('parses grace periods and scopes, with errors that say what to write', () => {
    expect(parseGracePeriod('24h')).toBe(86_400_000);
    expect(parseGracePeriod('90m')).toBe(5_400_000);
    expect(parseGracePeriod('1.5s')).toBe(1500);
    expect(parseGracePeriod('250')).toBe(250);
    expect(parseGracePeriod('1500ms')).toBe(1500);
    expect(parseGracePeriod(' 30s ')).toBe(30_000);
    expect(parseGracePeriod('7d')).toBe(604_800_000);
    expect(() => parseGracePeriod('tomorrow')).toThrow(/e\.g\. 30m/);
    expect(() => parseGracePeriod('-5m')).toThrow(/e\.g\. 30m/);
    expect(() => parseGracePeriod('')).toThrow(/e\.g\. 30m/);
    expect(parseScopes('ingest, analytics:read,ingest')).toEqual(['ingest', 'analytics:read']);
    expect(() => parseScopes('ingest,superuser')).toThrow(/Use any of/);
  });
});
