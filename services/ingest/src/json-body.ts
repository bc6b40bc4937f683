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
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      checkString(node, path);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limits.maxDepth) {
      throw new ApiError('INVALID_REQUEST', `The request body nests deeper than ${limits.maxDepth} levels.`, {
        field: fieldName(path) || '(body)',
        expected: `at most ${limits.maxDepth} levels of nesting`,
        received: 'deeper nesting',
      });
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++)
        stack.push({ value: node[i], path: `${path}/${i}`, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(node)) {
      const child = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (forbiddenKeys.has(key)) {
        throw new ApiError('INVALID_REQUEST', `The key "${key}" is not allowed (at ${fieldName(child)}).`, {
          field: fieldName(child),
          expected: 'an ordinary key',
          received: key,
        });
      }
      checkString(key, child);
      stack.push({ value: (node as Record<string, unknown>)[key], path: child, depth: depth + 1 });
    }
  }
  return value;
}

function checkString(s: string, path: string): void {
  if (s.includes('\u0000')) {
    throw new ApiError('INVALID_REQUEST', `Field ${fieldName(path) || '(body)'} contains a NUL character.`, {
      field: fieldName(path) || '(body)',
      expected: 'string without NUL characters',
      received: 'string with NUL',
    });
  }
  if (!s.isWellFormed()) {
    throw new ApiError(
      'INVALID_REQUEST',
      `Field ${fieldName(path) || '(body)'} contains a lone UTF-16 surrogate.`,
      {
        field: fieldName(path) || '(body)',
        expected: 'well-formed Unicode string',
        received: 'string with a lone surrogate',
      },
    );
  }
}
