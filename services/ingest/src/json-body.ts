import { ApiError, fieldName } from './errors';

export interface JsonBodyLimits {
  /** Deepest nesting of objects and arrays accepted. */
  maxDepth: number;
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** The text each parsed body object was parsed from (see bodyText). */
const texts = new WeakMap<object, string>();

/**
 * The JSON text a body object was parsed from, while nothing changed it: ingest stores a record
 * that is the whole body as that text instead of serialising it again.
 */
export function bodyText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}

/**
 * A NUL or a lone surrogate can reach a parsed string only through a `\u` escape (JSON forbids raw
 * control characters in strings) or a lone surrogate in the text itself, a forbidden key only where
 * its name is spelled out, and nesting needs one bracket per level: text that has none of these
 * needs no walk.
 */
export function plainlySafe(text: string, maxDepth: number): boolean {
  if (
    text.includes('\\u') ||
    text.includes('__proto__') ||
    text.includes('constructor') ||
    text.includes('prototype') ||
    !text.isWellFormed()
  )
    return false;
  let brackets = 0;
  for (let i = text.indexOf('{'); i >= 0 && brackets <= maxDepth; i = text.indexOf('{', i + 1)) brackets++;
  for (let i = text.indexOf('['); i >= 0 && brackets <= maxDepth; i = text.indexOf('[', i + 1)) brackets++;
  return brackets <= maxDepth;
}

/**
 * Parses a request body and rejects what JSON.parse accepts but Warden must not store: nesting
 * deeper than the limit, prototype-pollution keys, NUL characters and lone UTF-16 surrogates.
 */
export function parseJsonBody(text: string, limits: JsonBodyLimits): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError('INVALID_REQUEST', `The request body is not valid JSON: ${(err as Error).message}.`);
  }
  if (typeof value === 'object' && value !== null) texts.set(value, text);
  if (!plainlySafe(text, limits.maxDepth)) checkJsonValue(value, limits);
  return value;
}

/**
 * The full check of a parsed body, skipped for plainly safe text (fast-paths.test.ts proves the skip
 * changes no verdict). The walk is iterative so a hostile depth cannot overflow the stack.
 */
export function checkJsonValue(value: unknown, limits: JsonBodyLimits): void {
  // Paths are built only for an error: each stack entry points at its parent (hot path, no strings).
  const stack: Node[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      checkString(v, node);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (node.depth >= limits.maxDepth) {
      const field = fieldName(pointer(node)) || '(body)';
      throw new ApiError('INVALID_REQUEST', `The request body nests deeper than ${limits.maxDepth} levels.`, {
        field,
        expected: `at most ${limits.maxDepth} levels of nesting`,
        received: 'deeper nesting',
      });
    }
    const depth = node.depth + 1;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], key: i, parent: node, depth });
      continue;
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const child: Node = { value: (v as Record<string, unknown>)[key], key, parent: node, depth };
      if (forbiddenKeys.has(key)) {
        const field = fieldName(pointer(child));
        throw new ApiError('INVALID_REQUEST', `The key "${key}" is not allowed (at ${field}).`, {
          field,
          expected: 'an ordinary key',
          received: key,
        });
      }
      checkString(key, child);
      stack.push(child);
    }
  }
}

interface Node {
  value: unknown;
  key: string | number | undefined;
  parent: Node | undefined;
  depth: number;
}

/** JSON pointer of a node, walking up its parents. */
function pointer(node: Node): string {
  const parts: string[] = [];
  for (let n: Node | undefined = node; n && n.key !== undefined; n = n.parent) {
    parts.push(String(n.key).replace(/~/g, '~0').replace(/\//g, '~1'));
  }
  return parts.length === 0 ? '' : `/${parts.reverse().join('/')}`;
}

function checkString(s: string, node: Node): void {
  if (s.includes('\u0000')) {
    const field = fieldName(pointer(node)) || '(body)';
    throw new ApiError('INVALID_REQUEST', `Field ${field} contains a NUL character.`, {
      field,
      expected: 'string without NUL characters',
      received: 'string with NUL',
    });
  }
  if (!s.isWellFormed()) {
    const field = fieldName(pointer(node)) || '(body)';
    throw new ApiError('INVALID_REQUEST', `Field ${field} contains a lone UTF-16 surrogate.`, {
      field,
      expected: 'well-formed Unicode string',
      received: 'string with a lone surrogate',
    });
  }
}
