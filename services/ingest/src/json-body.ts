import { ApiError, fieldName } from './errors';

export interface JsonBodyLimits {
  /** Deepest nesting of objects and arrays accepted. */
  maxDepth: number;
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses a request body and rejects what JSON.parse accepts but Warden must not store: nesting
 * deeper than the limit, prototype-pollution keys, NUL characters and lone UTF-16 surrogates.
 * The walk is iterative so a hostile depth cannot overflow the stack.
 */
export function parseJsonBody(text: string, limits: JsonBodyLimits): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError('INVALID_REQUEST', `The request body is not valid JSON: ${(err as Error).message}.`);
  }
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
  return value;
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
