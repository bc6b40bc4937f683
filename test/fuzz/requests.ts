import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { generateApiKey } from '@warden/shared/keys/format';
import {
  agentPool,
  batchText,
  bigBody,
  platformPayload,
  jsonText,
  recordText,
  spliceAt,
  text,
  type Json,
} from './bodies';
import { malformedRequest } from './malformed-http';

/**
 * Generated requests for the ingest fuzz suite: what a hostile or buggy client can send to the public
 * API: the bodies of bodies.ts as bytes (sometimes with a BOM, truncated or with invalid UTF-8),
 * compressed or not, with generated content types, credentials and idempotency keys, on every route
 * and on paths that are not routes; a few cases are malformed HTTP (malformed-http.ts).
 */

/** The credentials a case may present; the suite maps each to a key and the account it belongs to. */
export type Credential = 'main' | 'free' | 'revoked' | 'analytics' | 'unknown' | 'garbage' | 'none';

export interface FuzzRequest {
  /** What the case is (`ingest/record`, `dify/agent_thought`, `raw/header-overflow`…), for the summary. */
  kind: string;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The body before its Content-Encoding was applied: what the client chose to say. */
  plain?: Buffer;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
  /** Bytes written as they are on a connection of their own (malformed HTTP), instead of the above. */
  raw?: Buffer;
  /**
   * The server may close the connection without an answer: only for CONNECT, which Node's HTTP server
   * hands to a `connect` listener instead of a route, and closes when there is none (ingest has none).
   */
  mayClose?: boolean;
  credential: Credential;
}

export interface FuzzKeys {
  main: string;
  free: string;
  revoked: string;
  analytics: string;
}

/** Agent ids most cases use, so the accounts' agent limits are not the only answer a long run gets. */

// ─── wire: body bytes, routes, headers ──────────────────────────────────────────────────────────

/** Body text becomes bytes, sometimes with a BOM, trailing garbage, truncation or invalid UTF-8 inside. */
const bodyBytes = (body: string) =>
  fc
    .oneof(
      { weight: 12, arbitrary: fc.constant('as-is') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('bom', 'trailing', 'truncated', 'invalid-utf8', 'whitespace', 'empty'),
      },
    )
    .map((how): Buffer => {
      const bytes = Buffer.from(body, 'utf8');
      switch (how) {
        case 'bom':
          return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
        case 'trailing':
          return Buffer.concat([bytes, Buffer.from('}garbage')]);
        case 'truncated':
          return bytes.subarray(0, Math.floor(bytes.length / 2));
        case 'invalid-utf8': {
          // Inside the first string value, so JSON structure stays intact and only the encoding is wrong.
          const at = bytes.indexOf(0x22) + 1;
          return at > 0
            ? Buffer.concat([
                bytes.subarray(0, at),
                Buffer.from([0xff, 0xed, 0xa0, 0x80, 0xc0, 0xaf]),
                bytes.subarray(at),
              ])
            : bytes;
        }
        case 'whitespace':
          return Buffer.concat([Buffer.from(' \n\t'), bytes, Buffer.from('\r\n ')]);
        case 'empty':
          return Buffer.alloc(0);
        default:
          return bytes;
      }
    });

const knownRoutes = [
  '/api/v1/telemetry/ingest',
  '/api/v1/telemetry/batch',
  ...['flowise', 'n8n', 'dify', 'custom'].map((p) => `/api/v1/integrations/${p}/telemetry`),
];

/** Paths that are not routes, or are routes spelled oddly. */
const strangePath = fc.oneof(
  fc.constantFrom(
    '/api/v1/integrations/zapier/telemetry',
    '/api/v1/integrations/Flowise/telemetry',
    '/api/v1/integrations//telemetry',
    '/api/v1/integrations/%66lowise/telemetry',
    '/api/v1/integrations/__proto__/telemetry',
    '/api/v1/integrations/constructor/telemetry',
    '/api/v1/telemetry',
    '/api/v1/telemetry/ingest/',
    '/api/v1/telemetry/ingest/extra',
    '/api/v2/telemetry/ingest',
    '/API/V1/TELEMETRY/INGEST',
    '//api/v1/telemetry/ingest',
    '/api/v1/./telemetry/ingest',
    '/api/v1/telemetry/../telemetry/ingest',
    '/api/v1/telemetry/ingest%00',
    '/api/v1/%zz',
    '/api/v1/integrations/%ZZ/telemetry',
    '/api/v1/integrations/%c0%af/telemetry',
    '/',
    '/docs',
    '*',
  ),
  fc.integer({ min: 90, max: 3000 }).map((n) => `/api/v1/integrations/${'p'.repeat(n)}/telemetry`),
  fc.stringMatching(/^\/[A-Za-z0-9._~%/-]{0,60}$/),
);

/** Query strings: the documented `?agentId=`, hostile values, repeats, unknown keys. */
const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom(...agentPool).map((a) => `?agentId=${encodeURIComponent(a)}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '?agentId=',
      '?agentId=a%00b',
      '?agentId=a%0d%0aSet-Cookie:%20x=1',
      '?agentId=%ud800',
      '?agentId=%ed%a0%80',
      '?agentId=a&agentId=b',
      '?agentId[]=a',
      '?agentId[x]=a',
      '?__proto__[agentId]=x',
      '?constructor=1',
      '?agentId=' + 'a'.repeat(300),
      '?' + 'x=1&'.repeat(2000),
      '?%zz=1',
      '?agentId=%E2%80%AE',
    ),
  },
  {
    weight: 1,
    arbitrary: text.map(
      (t) => `?agentId=${encodeURIComponent(t.isWellFormed() ? t : 'x')}&other=${encodeURIComponent('y')}`,
    ),
  },
);

const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

const contentType = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json; charset=utf-16le',
      'application/json; charset=iso-8859-1',
      'application/json; charset=',
      'application/json; boundary=x',
      'application/json, text/plain',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/jsonx',
      'application/vnd.api+json',
      'application/*',
      '*/*',
      '',
    ),
  },
  { weight: 1, arbitrary: headerValue },
);

/** How the body is encoded on the wire: mostly not at all. */
const encoding = fc.oneof(
  { weight: 20, arbitrary: fc.constant<Encoding>({ header: undefined, apply: 'none' }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Encoding>(
      { header: 'gzip', apply: 'gzip' },
      { header: 'deflate', apply: 'deflate' },
      { header: 'gzip', apply: 'none' },
      { header: 'deflate', apply: 'none' },
      { header: 'gzip', apply: 'gzip-truncated' },
      { header: 'gzip', apply: 'bomb' },
      { header: 'deflate', apply: 'bomb' },
      { header: 'br', apply: 'none' },
      { header: 'identity', apply: 'none' },
      { header: 'gzip, gzip', apply: 'gzip' },
      { header: 'GZIP', apply: 'gzip' },
      { header: 'compress', apply: 'none' },
      { header: 'x-custom', apply: 'none' },
      { header: 'gzip', apply: 'deflate' },
    ),
  },
);

interface Encoding {
  header: string | undefined;
  apply: 'none' | 'gzip' | 'deflate' | 'gzip-truncated' | 'bomb';
}

let bombs: { gzip: Buffer; deflate: Buffer } | undefined;
/** A record whose prompt is 64 MiB of one letter: about 64 KiB compressed. Built once. */
function zipBombs(): { gzip: Buffer; deflate: Buffer } {
  if (!bombs) {
    const plain = Buffer.concat([
      Buffer.from('{"agentId":"qa","response":"r","prompt":"'),
      Buffer.alloc(64 * 1024 * 1024, 'a'),
      Buffer.from('"}'),
    ]);
    bombs = { gzip: gzipSync(plain, { level: 9 }), deflate: deflateSync(plain, { level: 9 }) };
  }
  return bombs;
}

function encode(body: Buffer, apply: Encoding['apply'], header: string | undefined): Buffer {
  switch (apply) {
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
    case 'gzip-truncated': {
      const z = gzipSync(body);
      return z.subarray(0, Math.max(1, z.length - 8));
    }
    case 'bomb':
      return header?.startsWith('deflate') ? zipBombs().deflate : zipBombs().gzip;
    default:
      return body;
  }
}

/** Each credential's share of the cases; the keys themselves are made by the suite. */
const credential = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Credential>('main') },
  { weight: 5, arbitrary: fc.constant<Credential>('free') },
  { weight: 2, arbitrary: fc.constant<Credential>('revoked') },
  { weight: 1, arbitrary: fc.constant<Credential>('analytics') },
  { weight: 2, arbitrary: fc.constant<Credential>('unknown') },
  { weight: 2, arbitrary: fc.constant<Credential>('garbage') },
  { weight: 2, arbitrary: fc.constant<Credential>('none') },
);

/** The authentication headers a credential is presented with. */
function authHeaders(
  cred: Credential,
  keys: FuzzKeys,
  style: number,
  garbage: string,
): Record<string, string> {
  const key =
    cred === 'unknown' ? generateApiKey() : cred === 'garbage' || cred === 'none' ? undefined : keys[cred];
  if (cred === 'none') return style % 3 === 0 ? { authorization: '' } : {};
  if (key === undefined) {
    const forms: Array<Record<string, string>> = [
      { authorization: `Bearer ${garbage}` },
      { authorization: garbage },
      { 'x-api-key': garbage },
      { authorization: `Basic ${Buffer.from(`user:${garbage}`).toString('base64')}` },
      { authorization: `Bearer wdn_live_${'A'.repeat(38)}` },
      { authorization: `Bearer ${keys.main.slice(0, -1)}${keys.main.endsWith('A') ? 'B' : 'A'}` },
      { authorization: `Bearer ${keys.main}`, 'x-api-key': keys.revoked },
      { authorization: `Bearer  ${keys.main} ` },
    ];
    return forms[style % forms.length]!;
  }
  const forms: Array<Record<string, string>> = [
    { authorization: `Bearer ${key}` },
    { authorization: `Bearer ${key}` },
    { 'x-api-key': key },
    { authorization: `bearer ${key}` },
  ];
  return forms[style % forms.length]!;
}

const idempotencyKey = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('idem-1', 'idem-2', 'idem-3', 'retry-42') },
  { weight: 1, arbitrary: headerValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'x'.repeat(300),
      'x'.repeat(4000),
      '\u00e9t\u00e9',
      '../../etc/passwd',
    ),
  },
);

const method = fc.oneof(
  { weight: 30, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
);

interface Payload {
  kind: string;
  path: string;
  body: string | Buffer | undefined;
}

/** What goes to which route: records to ingest, batches to batch, platform payloads to each platform. */
const payload: fc.Arbitrary<Payload> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(recordText, query)
      .map(([body, q]) => ({ kind: 'ingest', path: `/api/v1/telemetry/ingest${q}`, body })),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(batchText, query)
      .map(([body, q]) => ({ kind: 'batch', path: `/api/v1/telemetry/batch${q}`, body })),
  },
  {
    weight: 8,
    arbitrary: fc.tuple(platformPayload, query, fc.boolean()).chain(([p, q, splice]) =>
      (splice
        ? jsonText(spliceAt(p.body as Record<string, Json>, 'metadata.x'))
        : fc.constant(JSON.stringify(p.body))
      ).map((body) => ({
        kind: `${p.platform}/${p.kind}`,
        path: `/api/v1/integrations/${p.platform}/telemetry${q}`,
        body,
      })),
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...knownRoutes), fc.jsonValue({ maxDepth: 4 }))
      .map(([path, v]) => ({ kind: 'random-json', path, body: JSON.stringify(v) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...knownRoutes), fc.uint8Array({ maxLength: 200 }))
      .map(([path, b]) => ({ kind: 'random-bytes', path, body: Buffer.from(b) })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(strangePath, recordText)
      .map(([path, body]) => ({ kind: 'strange-path', path, body })),
  },
  { weight: 1, arbitrary: bigBody.map(({ route, body }) => ({ kind: 'big', path: route, body })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...knownRoutes).map((path) => ({ kind: 'no-body', path, body: undefined })),
  },
);

/** Requests over a well-formed HTTP/1.1 connection (Node's client). */
function httpRequest(keys: FuzzKeys): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      payload,
      method,
      contentType,
      encoding,
      credential,
      authStyle: fc.nat(),
      garbage: headerValue,
      idempotencyKey,
      chunked: fc.oneof(
        { weight: 6, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      extra: fc.dictionary(
        fc.constantFrom(
          'x-forwarded-for',
          'accept',
          'accept-encoding',
          'user-agent',
          'x-request-id',
          'cookie',
          'origin',
        ),
        headerValue,
        { maxKeys: 2 },
      ),
      bytes: fc.nat(),
    })
    .chain((c) =>
      (typeof c.payload.body === 'string' ? bodyBytes(c.payload.body) : fc.constant(c.payload.body)).map(
        (plain): FuzzRequest => {
          const headers: Record<string, string> = {
            ...c.extra,
            ...authHeaders(c.credential, keys, c.authStyle, c.garbage),
          };
          if (plain !== undefined && c.contentType !== '') headers['content-type'] = c.contentType;
          if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
          let body = plain;
          if (plain !== undefined && c.encoding.header !== undefined) {
            headers['content-encoding'] = c.encoding.header;
            body = encode(plain, c.encoding.apply, c.encoding.header);
          }
          const kind = c.encoding.header
            ? `${c.payload.kind}+${c.encoding.header}:${c.encoding.apply}`
            : c.payload.kind;
          return {
            kind,
            method: c.method,
            path: c.payload.path,
            headers,
            ...(body !== undefined ? { body } : {}),
            ...(plain !== undefined && body !== plain ? { plain } : {}),
            ...(c.chunked ? { chunked: true } : {}),
            credential: c.credential,
          };
        },
      ),
    );
}

/** Every case the suite sends: mostly well-formed HTTP carrying generated content, some malformed HTTP. */
export function fuzzRequests(keys: FuzzKeys): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 30, arbitrary: httpRequest(keys) },
    { weight: 1, arbitrary: malformedRequest(keys) },
  );
}
