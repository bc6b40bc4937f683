/**
 * What Warden accepts of JSON beyond what JSON.parse does: nesting no deeper than a limit, no
 * prototype-pollution keys, no NUL characters and no lone UTF-16 surrogates. Request bodies (ingest)
 * and JSON embedded in a platform's strings (platforms/) are both read by `parseLimitedJson`.
 */

export interface JsonLimits {
  /** Deepest nesting of objects and arrays accepted. */
  maxDepth: number;
}

export const defaultJsonLimits: JsonLimits = { maxDepth: 32 };

export type JsonLimitProblem = 'depth' | 'key' | 'nul' | 'surrogate';

/** Why JSON text was refused, and where: a JSON pointer (empty for the whole text). */
export class JsonLimitError extends Error {
  constructor(
    readonly problem: JsonLimitProblem,
    readonly pointer: string,
    /** The refused key, for `key`. */
    readonly key?: string,
  ) {
    super(`JSON refused (${problem}) at "${pointer}"`);
    this.name = 'JsonLimitError';
  }
}

/**
 * Parses JSON text within the limits: nesting is checked on the text before JSON.parse runs (so a
 * hostile depth costs a scan, not the parse of millions of arrays), keys and strings after it.
 * Throws JSON.parse's SyntaxError for text that is not JSON, JsonLimitError for JSON beyond the limits.
 */
export function parseLimitedJson(text: string, limits: JsonLimits): unknown {
  checkNesting(text, limits.maxDepth);
  const value: unknown = JSON.parse(text);
  if (!plainlySafe(text)) checkJsonValue(value);
  return value;
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Refuses text whose objects and arrays nest deeper than `maxDepth`. Text with at most `maxDepth`
 * brackets cannot nest deeper (counted with indexOf, which is what most single records take); other
 * text is scanned once, skipping strings with indexOf, so brackets inside strings do not count.
 * Only JSON's own syntax is followed: text that is not JSON is left for JSON.parse to refuse.
 */
export function checkNesting(text: string, maxDepth: number): void {
  let brackets = 0;
  for (let i = text.indexOf('{'); i >= 0 && brackets <= maxDepth; i = text.indexOf('{', i + 1)) brackets++;
  for (let i = text.indexOf('['); i >= 0 && brackets <= maxDepth; i = text.indexOf('[', i + 1)) brackets++;
  if (brackets <= maxDepth) return;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) throw new JsonLimitError('depth', '');
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
}

/** Index of the quote closing the string opened at `open`, or -1 when it is never closed. */
function stringEnd(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    // A quote after an odd run of backslashes is escaped. Each run is counted once, by the quote
    // that ends it, so the scan stays linear.
    let k = q - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
  }
  return -1;
}

/**
 * A NUL or a lone surrogate can reach a parsed string only through a `\u` escape (JSON forbids raw
 * control characters in strings) or a lone surrogate in the text itself, and a forbidden key only
 * where its name is spelled out: text that has none of these needs no walk of its parsed value.
 */
export function plainlySafe(text: string): boolean {
  return !(
    text.includes('\\u') ||
    text.includes('__proto__') ||
    text.includes('constructor') ||
    text.includes('prototype') ||
    !text.isWellFormed()
  );
}

interface Node {
  value: unknown;
  key: string | number | undefined;
  parent: Node | undefined;
}

/**
 * The keys and strings of a parsed value: no forbidden key, no NUL, no lone surrogate. Skipped for
 * plainly safe text (ingest's fast-paths.test.ts holds the skip to this walk). Iterative, so a deep
 * value cannot overflow the stack.
 */
export function checkJsonValue(value: unknown): void {
  // Paths are built only for an error: each stack entry points at its parent (hot path, no strings).
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      checkString(v, node);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], key: i, parent: node });
      continue;
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const child: Node = { value: (v as Record<string, unknown>)[key], key, parent: node };
      if (forbiddenKeys.has(key)) throw new JsonLimitError('key', pointer(child), key);
      checkString(key, child);
      stack.push(child);
    }
  }
}

function checkString(s: string, node: Node): void {
  if (s.includes('\u0000')) throw new JsonLimitError('nul', pointer(node));
  if (!s.isWellFormed()) throw new JsonLimitError('surrogate', pointer(node));
}

/** JSON pointer of a node, walking up its parents. */
function pointer(node: Node): string {
  const parts: string[] = [];
  for (let n: Node | undefined = node; n && n.key !== undefined; n = n.parent) {
    parts.push(String(n.key).replace(/~/g, '~0').replace(/\//g, '~1'));
  }
  return parts.length === 0 ? '' : `/${parts.reverse().join('/')}`;
}
