import { defaultJsonLimits, parseLimitedJson } from '../schemas/json-limits';

/** A JSON object as a platform sent it: nothing about its fields is trusted yet. */
export type JsonObject = Record<string, unknown>;

/**
 * Keys never copied out of a payload: a naive merge downstream (`Object.assign`, lodash-style deep merge)
 * would turn `__proto__` into prototype pollution, and `constructor`/`prototype` are never telemetry.
 */
const prototypeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** Deeper than any real payload; past it values are shared rather than copied so the stack stays safe. */
const maxCopyDepth = 256;

export function isJsonObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Deep copy without prototype keys, so normalising never mutates (or aliases) the caller's body. */
export function copyPayloadValue(value: unknown, depth = 0): unknown {
  if (depth > maxCopyDepth) return value;
  if (Array.isArray(value)) return value.map((item) => copyPayloadValue(item, depth + 1));
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (!prototypeKeys.has(key)) copy[key] = copyPayloadValue(value[key], depth + 1);
  }
  return copy;
}

/**
 * Platforms stringify structured values (tool inputs, observations, follow-up prompts). Only object and
 * array JSON is parsed, within the limits a request body has (nesting, prototype keys, NUL, lone
 * surrogates: see parseLimitedJson): a tool answering "42" or "true" answered text, and malformed or
 * hostile JSON stays the string as sent, which is always storable.
 */
export function parseEmbeddedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return parseLimitedJson(trimmed, defaultJsonLimits);
  } catch {
    return value;
  }
}

/** JSON text of a value, or undefined when it cannot be serialised (absurd nesting). */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** An identifier as text: platforms send ids as numbers (n8n `$execution.id`) or strings. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A platform's text field (question, answer, chat input) as a string; objects are not text. */
export function plainText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
    return String(value);
  return undefined;
}

/** An agent's reply as text: structured output (n8n output parser, Flowise `json`) is kept as JSON text. */
export function replyText(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null) return jsonText(value);
  return plainText(value);
}

/** Finite number from a number or numeric string (usage figures), else undefined. */
export function finiteNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** Above this a timestamp is already in milliseconds: as seconds it would be past the year 5000. */
const secondsLimit = 1e11;

/** ISO 8601 UTC from unix seconds (Dify `created_at`), unix milliseconds or a parseable date string. */
export function isoTime(value: unknown): string | undefined {
  const numeric = finiteNumber(value);
  let ms: number;
  if (numeric !== undefined) ms = Math.abs(numeric) > secondsLimit ? numeric : numeric * 1000;
  else if (typeof value === 'string') ms = Date.parse(value);
  else return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Moves `from` into `to` when `to` is absent and the value converts; a value that does not stays put. */
export function moveField(
  draft: JsonObject,
  from: string,
  to: string,
  convert: (value: unknown) => unknown,
): void {
  if (draft[to] !== undefined) return;
  const converted = convert(draft[from]);
  if (converted === undefined) return;
  draft[to] = converted;
  if (from !== to) delete draft[from];
}
