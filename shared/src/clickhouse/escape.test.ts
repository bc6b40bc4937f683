import { describe, expect, it } from 'vitest';
import { sqlIdentifier, sqlString } from './escape';

describe('sqlString', () => {
  it('quotes and escapes backslash before quote', () => {
    expect(sqlString('plain')).toBe("'plain'");
    expect(sqlString("it's")).toBe("'it\\'s'");
    expect(sqlString('a\\b')).toBe("'a\\\\b'");
    // a trailing backslash must not escape the closing quote
    expect(sqlString("x\\' OR 1=1 --")).toBe("'x\\\\\\' OR 1=1 --'");
    expect(sqlString('')).toBe("''");
  });

  it('keeps multi-byte text as is and refuses NUL', () => {
    expect(sqlString('naïve 日本 🙂')).toBe("'naïve 日本 🙂'");
    expect(() => sqlString('a\0b')).toThrow(/NUL/);
  });
});

describe('sqlIdentifier', () => {
  it('accepts plain names and refuses anything else', () => {
    expect(sqlIdentifier('warden_test_1')).toBe('warden_test_1');
    for (const bad of ['', '1abc', 'a.b', 'a;drop', 'a b', '`a`']) expect(() => sqlIdentifier(bad)).toThrow();
  });
});
