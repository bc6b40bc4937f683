import { describe, expect, it } from 'vitest';
import { IdempotencyKeyError, validateIdempotencyKey } from './store';

describe('validateIdempotencyKey', () => {
  it('accepts printable ASCII up to 255 characters', () => {
    expect(validateIdempotencyKey('0190a6c2-7b7e-7c3a-9f5e-1c2d3e4f5a6b')).toBeTruthy();
    expect(validateIdempotencyKey('order 42 / retry ~!')).toBeTruthy();
    expect(validateIdempotencyKey('x'.repeat(255))).toBeTruthy();
  });

  it('rejects empty, blank, too long, control and non-ASCII keys', () => {
    for (const bad of ['', '   ', 'x'.repeat(256), 'a\nb', 'a\tb', 'clé', 'a\u0000']) {
      expect(() => validateIdempotencyKey(bad)).toThrow(IdempotencyKeyError);
    }
  });
});
