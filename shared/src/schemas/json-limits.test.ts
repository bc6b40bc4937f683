import { describe, expect, it } from 'vitest';
import { checkNesting, JsonLimitError, parseLimitedJson } from './json-limits';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const problem = (run: () => unknown) => {
  try {
    run();
    return undefined;
  } catch (err) {
    return err instanceof JsonLimitError ? err.problem : (err as Error).name;
  }
};

describe('checkNesting', () => {
  it('accepts the limit and refuses one level more, at any place in the text', () => {
    expect(problem(() => checkNesting(nested(4), 4))).toBeUndefined();
    expect(problem(() => checkNesting(nested(5), 4))).toBe('depth');
    const wide = `[${Array.from({ length: 50 }, () => '{"a":[1]}').join(',')}]`;
    expect(problem(() => checkNesting(wide, 3))).toBeUndefined();
    expect(problem(() => checkNesting(`[${wide.slice(1, -1)},${nested(3)}]`, 3))).toBe('depth');
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    const inString = (s: string) => `{"p":${JSON.stringify(s)},"q":${nested(3)}}`;
    for (const s of ['[[[[[[[[', '\\"[[[[[[', '\\\\"[[[[[[[', 'a\\', '"{{{{{{{{{']) {
      expect(problem(() => checkNesting(inString(s), 4))).toBeUndefined();
    }
    // An escaped backslash closes the string: the brackets after it count.
    expect(problem(() => checkNesting(`["\\\\",${nested(4)}]`, 4))).toBe('depth');
    expect(problem(() => checkNesting(`["\\\\\\"",${nested(4)}]`, 4))).toBe('depth');
  });

  it('leaves text that is not JSON to JSON.parse', () => {
    expect(problem(() => checkNesting(`["${nested(40)}`, 4))).toBeUndefined();
    expect(problem(() => parseLimitedJson(`["${nested(40)}`, { maxDepth: 4 }))).toBe('SyntaxError');
  });

  it('refuses millions of levels in well under a millisecond per MiB', () => {
    const text = nested(2_500_000);
    const started = performance.now();
    expect(problem(() => parseLimitedJson(text, { maxDepth: 32 }))).toBe('depth');
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('parseLimitedJson', () => {
  it('refuses prototype keys, NUL and lone surrogates with a pointer to them', () => {
    const refusal = (text: string) => {
      try {
        parseLimitedJson(text, { maxDepth: 8 });
        return undefined;
      } catch (err) {
        const e = err as JsonLimitError;
        return { problem: e.problem, pointer: e.pointer };
      }
    };
    expect(refusal('{"a":[{"__proto__":1}]}')).toEqual({ problem: 'key', pointer: '/a/0/__proto__' });
    expect(refusal('{"a/b":"x\\u0000"}')).toEqual({ problem: 'nul', pointer: '/a~1b' });
    expect(refusal('["\\udc00"]')).toEqual({ problem: 'surrogate', pointer: '/0' });
    expect(refusal('{"p":"the constructor of the prototype"}')).toBeUndefined();
  });
});
