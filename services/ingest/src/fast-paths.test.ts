import fc from 'fast-check';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { InteractionRecord } from '@warden/shared/schemas/interaction';
import { admitRecord, checkedRecord } from './admit';
import { ApiError, type ErrorBody } from './errors';
import {
  checkJsonValue,
  JsonLimitError,
  plainlySafe,
  type JsonLimits,
} from '@warden/shared/schemas/json-limits';
import { jsonLimitRefusal, parseJsonBody } from './json-body';
import { recordCheck, typeBoxValidatorCompiler } from './validation';

/**
 * Ingest's hand-written fast paths, each held to the full check it stands in for: the same bodies
 * are accepted, and refused with the same error.
 */

type Verdict = 'accepted' | ErrorBody['error'];
function verdict(run: () => unknown): Verdict {
  try {
    run();
    return 'accepted';
  } catch (err) {
    if (err instanceof ApiError) return err.toBody().error;
    throw err;
  }
}

/** How a string is written in the JSON text: as JSON.stringify does, all as `\u` escapes, or with lone surrogates raw. */
type Spelling = 'plain' | 'escaped' | 'raw';
class Str {
  constructor(
    readonly value: string,
    readonly spelling: Spelling,
  ) {}
}
/** An object as written: keys in order, repeats and `__proto__` included. */
class Entries {
  constructor(readonly entries: Array<[Str, Node]>) {}
}
type Node = Str | number | boolean | null | Node[] | Entries;

function quote({ value, spelling }: Str): string {
  if (spelling === 'escaped') {
    let out = '"';
    for (let i = 0; i < value.length; i++) out += `\\u${value.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return `${out}"`;
  }
  const json = JSON.stringify(value);
  if (spelling === 'plain') return json;
  // A lone surrogate written as itself, as a JavaScript caller can (UTF-8 off the wire cannot).
  return json.replace(/\\(?:u(d[89a-f][0-9a-f]{2})|.)/g, (escape: string, hex?: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : escape,
  );
}

function write(node: Node, space: string): string {
  if (node instanceof Str) return quote(node);
  if (node instanceof Entries)
    return `{${node.entries.map(([k, v]) => `${quote(k)}:${space}${write(v, space)}`).join(`,${space}`)}}`;
  if (Array.isArray(node)) return `[${node.map((n) => write(n, space)).join(`,${space}`)}]`;
  return JSON.stringify(node);
}

const tricky = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d\ude00',
  '[[[[[[',
  '{{{{',
  '\\',
  '"',
  '\\"[[[{',
  '\\\\"]]',
  '"}]',
  'the constructor of the prototype',
  '',
);
const spelled = (value: fc.Arbitrary<string>) =>
  fc
    .record({ value, spelling: fc.constantFrom<Spelling>('plain', 'plain', 'plain', 'escaped', 'raw') })
    .map(({ value, spelling }) => new Str(value, spelling));
const oddStr = spelled(
  fc.oneof(
    tricky,
    fc.tuple(fc.string({ maxLength: 3 }), tricky, fc.string({ maxLength: 3 })).map((parts) => parts.join('')),
  ),
);
const str = fc.oneof(
  spelled(fc.string({ maxLength: 8 })),
  spelled(fc.string({ maxLength: 4, unit: 'binary' })),
  oddStr,
);
const key = fc.oneof(
  str,
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'a').map((k) => new Str(k, 'plain')),
);

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map((entries) => new Entries(entries)),
  ),
}));

const plain = (s: string) => new Str(s, 'plain');

/**
 * A tree nested `levels` deep (what the depth limit is about), or a flat record with one odd string
 * as a key or value (so that one NUL, surrogate or forbidden word is often all that is wrong).
 */
/** Objects and arrays on the deepest path of a body as written: repeated keys count, as JSON.parse reads them. */
function nesting(node: Node): number {
  if (node instanceof Entries) return 1 + Math.max(0, ...node.entries.map(([, v]) => nesting(v)));
  if (Array.isArray(node)) return 1 + Math.max(0, ...node.map(nesting));
  return 0;
}

const written = (tree: Node, space: string) => ({ text: write(tree, space), nesting: nesting(tree) });

const body = fc.oneof(
  fc
    .record({ tree: node, levels: fc.nat(9), space: fc.constantFrom('', ' ', '\n  ') })
    .map(({ tree, levels, space }) => {
      let wrapped: Node = tree;
      for (let i = 0; i < levels; i++) wrapped = i % 2 ? [wrapped] : new Entries([[plain('k'), wrapped]]);
      return written(wrapped, space);
    }),
  fc
    .record({ odd: oddStr, asKey: fc.boolean() })
    .map(({ odd, asKey }) =>
      written(
        new Entries([
          [plain('agentId'), plain('a')],
          asKey ? [odd, 1] : [plain('prompt'), odd],
          [plain('response'), plain('r')],
        ]),
        '',
      ),
    ),
);

/** The full check the fast paths stand in for: the nesting of the body as written, then the walk of its value. */
function fullCheck({ text, nesting }: { text: string; nesting: number }, limits: JsonLimits): void {
  const value: unknown = JSON.parse(text);
  try {
    if (nesting > limits.maxDepth) throw new JsonLimitError('depth', '');
    checkJsonValue(value);
  } catch (err) {
    throw err instanceof JsonLimitError ? jsonLimitRefusal(err, limits) : err;
  }
}

describe('the nesting scan and the plainly-safe skip of parseJsonBody', () => {
  it('give the verdict of the full check of the parsed value for every body', () => {
    let skipped = 0;
    let refused = 0;
    let tooDeep = 0;
    const runs = 1000;
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 8 }), (sent, maxDepth) => {
        const limits = { maxDepth };
        const fast = verdict(() => parseJsonBody(sent.text, limits));
        expect(fast).toEqual(verdict(() => fullCheck(sent, limits)));
        if (plainlySafe(sent.text)) skipped++;
        if (fast !== 'accepted') refused++;
        if (fast !== 'accepted' && fast.details?.expected?.includes('levels of nesting')) tooDeep++;
      }),
      { numRuns: runs },
    );
    // Both sides of the skip, refusals and refusals for depth were exercised.
    expect(skipped).toBeGreaterThan(runs / 10);
    expect(skipped).toBeLessThan(runs - runs / 10);
    expect(refused).toBeGreaterThan(runs / 10);
    expect(tooDeep).toBeGreaterThan(runs / 20);
  });
});

const anyJson = fc.jsonValue({ maxDepth: 2 });
/** Mostly a value of the field's type, sometimes any JSON at all. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: anyJson });

const nearRecord = fc.record(
  {
    agentId: mostly(fc.string({ minLength: 1, maxLength: 260 })),
    prompt: mostly(fc.string()),
    response: mostly(fc.string()),
    metadata: mostly(
      fc.record(
        {
          temperature: mostly(fc.double({ noNaN: true, noDefaultInfinity: true })),
          max_tokens: mostly(fc.integer({ min: -1, max: 9 })),
          sessionId: mostly(fc.string()),
          custom: anyJson,
        },
        { requiredKeys: [] },
      ),
    ),
    toolCalls: mostly(
      fc.array(
        fc.record(
          {
            name: mostly(fc.string({ minLength: 1 })),
            input: anyJson,
            execution_time_ms: mostly(fc.integer({ min: -1, max: 9 })),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 3 },
      ),
    ),
    sessionId: mostly(fc.string({ minLength: 1, maxLength: 260 })),
    chatflowId: mostly(fc.string({ minLength: 1 })),
    extra: anyJson,
  },
  { requiredKeys: ['agentId', 'prompt', 'response'] },
);
/** Now and then one required field is missing. */
const nearRecordMissing = fc
  .tuple(
    nearRecord,
    fc.oneof(
      fc.constant(undefined),
      fc.constant(undefined),
      fc.constantFrom('agentId', 'prompt', 'response'),
    ),
  )
  .map(([raw, missing]) => {
    if (missing) delete (raw as Record<string, unknown>)[missing];
    return raw;
  });

describe('the record check', () => {
  const bodyValidator = typeBoxValidatorCompiler({
    schema: InteractionRecord,
    method: 'POST',
    url: '/api/v1/telemetry/ingest',
    httpPart: 'body',
  });

  it('agrees with TypeBox on InteractionRecord, and the batch names fields under its item', () => {
    let refused = 0;
    const runs = 400;
    fc.assert(
      fc.property(nearRecordMissing, fc.nat(999), (raw, index) => {
        // TypeBox's interpreter is the reference for the compiled check both routes use.
        const valid = Value.Check(InteractionRecord, raw);
        expect(recordCheck.Check(raw)).toBe(valid);
        const single = bodyValidator(raw);
        const prefix = `interactions[${index}]`;
        const item = verdict(() => checkedRecord(raw, prefix));
        if (valid) {
          expect(single).toBe(true);
          expect(item).toBe('accepted');
          return;
        }
        refused++;
        const error = (single as { error: ApiError }).error.toBody().error;
        const field = error.details!.field!;
        expect(item).toEqual({
          ...error,
          message: error.message.replace(field, `${prefix}.${field}`),
          details: { ...error.details, field: `${prefix}.${field}` },
        });
      }),
      { numRuns: runs },
    );
    expect(refused).toBeGreaterThan(runs / 10);
    expect(refused).toBeLessThan(runs - runs / 10);
  });
});

const record = fc.record(
  {
    agentId: fc.string({ minLength: 1, maxLength: 20 }),
    prompt: fc.string({ maxLength: 200, unit: fc.constantFrom('a', 'é', '€', '😀', '"', '\\', '\n') }),
    response: fc.string({ maxLength: 40 }),
    metadata: fc.record(
      { sessionId: fc.string({ maxLength: 8 }), tokens_used: fc.nat(), custom: anyJson },
      { requiredKeys: [] },
    ),
    interactionId: fc.oneof(fc.constantFrom('client-1', 'has spaces'), fc.string({ maxLength: 4 })),
  },
  { requiredKeys: ['agentId', 'prompt', 'response'] },
);

/** The stored message as JSON, without what differs on every call (the generated id, the time). */
const storedVerdict = (run: () => ReturnType<typeof admitRecord>) => {
  let admitted: ReturnType<typeof admitRecord> | undefined;
  const v = verdict(() => (admitted = run()));
  if (!admitted) return v;
  const { key, headers, value } = admitted.message;
  const generated = (id: string) => (/^[0-9a-f-]{36}$/.test(id) ? '(generated)' : id);
  const { receivedAt: _receivedAt, interactionId, ...rest } = JSON.parse(value) as Record<string, string>;
  return {
    key: key.replace(admitted.interactionId, generated(admitted.interactionId)),
    headers: { ...headers, 'interaction-id': generated(interactionId!), 'received-at': '(now)' },
    value: { ...rest, interactionId: generated(interactionId!) },
  };
};

describe('the record as sent and the size check of admitRecord', () => {
  const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };
  const space = fc.constantFrom(undefined, 1, '\t');
  const unlimited = 1 << 30;

  it('stores a whole-body record as its text: the same message as serialising it', () => {
    let asSent = 0;
    const runs = 300;
    fc.assert(
      fc.property(record, space, (sent, indent) => {
        const text = JSON.stringify(sent, null, indent);
        const raw = JSON.parse(text) as InteractionRecord;
        const fast = storedVerdict(() => admitRecord(raw, source, { maxRecordBytes: unlimited, text }));
        expect(fast).toEqual(storedVerdict(() => admitRecord(raw, source, { maxRecordBytes: unlimited })));
        if (typeof fast === 'object' && 'value' in fast && text.includes('\n')) asSent++;
      }),
      { numRuns: runs },
    );
    expect(asSent).toBeGreaterThan(runs / 10);
  });

  it('refuses exactly the records whose message is over the limit, with or without the text', () => {
    let tooLarge = 0;
    let counted = 0;
    let uncounted = 0;
    const runs = 400;
    // Limits around the message's size (counted), and above three times its length (not counted).
    const ratio = fc.oneof(
      fc.double({ min: 0.3, max: 1.2, noNaN: true }),
      fc.double({ min: 2.5, max: 4, noNaN: true }),
    );
    fc.assert(
      fc.property(record, space, fc.boolean(), ratio, (sent, indent, withText, r) => {
        const text = JSON.stringify(sent, null, indent);
        const raw = JSON.parse(text) as InteractionRecord;
        const opts = { fieldPrefix: 'interactions[3]', ...(withText ? { text } : {}) };
        let value: string;
        try {
          value = admitRecord(raw, source, { ...opts, maxRecordBytes: unlimited }).message.value;
        } catch {
          return; // a refused client id: no message to measure
        }
        const bytes = Buffer.byteLength(value);
        const maxRecordBytes = Math.round(bytes * r);
        const v = verdict(() => admitRecord(raw, source, { ...opts, maxRecordBytes }));
        if (bytes > maxRecordBytes) {
          tooLarge++;
          expect(v).toMatchObject({
            code: 'PAYLOAD_TOO_LARGE',
            details: { field: 'interactions[3]', received: `${bytes} bytes` },
          });
        } else expect(v).toBe('accepted');
        if (value.length * 3 > maxRecordBytes) counted++;
        else uncounted++;
      }),
      { numRuns: runs },
    );
    expect(tooLarge).toBeGreaterThan(runs / 20);
    expect(counted).toBeGreaterThan(runs / 20);
    expect(uncounted).toBeGreaterThan(runs / 20);
  });
});
