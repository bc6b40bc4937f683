import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { bodyText, parseJsonBody } from './json-body';

const limits = { maxDepth: 4 };
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const refusal = (text: string) => {
  try {
    parseJsonBody(text, limits);
    return undefined;
  } catch (err) {
    return (err as ApiError).toBody().error;
  }
};

describe('parseJsonBody', () => {
  it('accepts the nesting limit and refuses one level more', () => {
    expect(refusal(`{"a":${nested(3)}}`)).toBeUndefined();
    expect(refusal(`{"a":${nested(4)}}`)).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('still finds what is hidden behind escapes or spelled inside strings', () => {
    // Forbidden key, NUL and lone surrogate written as \u escapes: the text has no plain spelling.
    expect(refusal('{"\\u005f_proto__":{"x":1}}')?.details?.field).toBe('__proto__');
    expect(refusal('{"p":"a\\u0000b"}')?.details?.field).toBe('p');
    expect(refusal('{"p":"\\ud800"}')?.details?.field).toBe('p');
    // A lone surrogate in the text itself (a JS caller, not UTF-8 off the wire).
    expect(refusal('{"p":"\ud800"}')?.details?.field).toBe('p');
    // Brackets inside strings count too: more of them only costs the full walk, never a refusal.
    expect(refusal(`{"p":"${nested(10)}"}`)).toBeUndefined();
  });

  it('lets the words pass as values and refuses them as keys', () => {
    expect(refusal('{"p":"the constructor of the prototype is __proto__"}')).toBeUndefined();
    expect(refusal('{"m":{"constructor":1}}')?.details?.field).toBe('m.constructor');
    expect(refusal('{"m":[{"prototype":1}]}')?.details?.field).toBe('m[0].prototype');
  });

  it('remembers the text an object was parsed from', () => {
    const text = '{"agentId": "a",\n "n": 1}';
    const value = parseJsonBody(text, limits);
    expect(bodyText(value)).toBe(text);
    expect(bodyText({ agentId: 'a', n: 1 })).toBeUndefined();
    expect(bodyText(parseJsonBody('"s"', limits))).toBeUndefined();
  });
});
