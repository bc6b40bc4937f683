import fc from 'fast-check';
import type { Credential, FuzzKeys, FuzzRequest } from './requests';

/** Malformed HTTP/1.1, written as bytes: what Node's client refuses to send but an attacker can. */
export function malformedRequest(keys: FuzzKeys): fc.Arbitrary<FuzzRequest> {
  const auth = `Authorization: Bearer ${keys.main}\r\n`;
  const json = '{"agentId":"qa","prompt":"p","response":"r"}';
  const head = (lines: string) => `POST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\n${auth}${lines}`;
  const cases: Array<[string, string | Buffer]> = [
    [
      'header-overflow',
      head(
        `X-Big: ${'a'.repeat(20_000)}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
      ),
    ],
    [
      'many-headers',
      head(
        `${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\nConnection: close\r\n\r\n`,
      ),
    ],
    [
      'url-overflow',
      `POST /api/v1/telemetry/ingest?${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    ],
    [
      'long-param',
      `POST /api/v1/integrations/${'p'.repeat(5000)}/telemetry HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{}`,
    ],
    ['bad-request-line', 'GARBAGE\r\n\r\n'],
    ['bad-version', `POST /api/v1/telemetry/ingest HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n`],
    ['space-in-url', `POST /api/v1/telemetry/ingest x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
    ['bad-header-name', head(`Bad Header: x\r\nConnection: close\r\n\r\n`)],
    ['nul-in-header', head(`X-A: a\u0000b\r\nConnection: close\r\n\r\n`)],
    ['bare-lf', `POST /api/v1/telemetry/ingest HTTP/1.1\nHost: x\nConnection: close\n\n`],
    [
      'negative-length',
      head(`Content-Type: application/json\r\nContent-Length: -1\r\nConnection: close\r\n\r\n${json}`),
    ],
    [
      'text-length',
      head(`Content-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n${json}`),
    ],
    [
      'two-lengths',
      head(
        `Content-Type: application/json\r\nContent-Length: ${json.length}\r\nContent-Length: 3\r\nConnection: close\r\n\r\n${json}`,
      ),
    ],
    [
      'length-and-chunked',
      head(
        `Content-Type: application/json\r\nContent-Length: ${json.length}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
      ),
    ],
    [
      'bad-chunk-size',
      head(
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n${json}\r\n0\r\n\r\n`,
      ),
    ],
    [
      'huge-chunk-size',
      head(
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nffffffffffffffff\r\n${json}\r\n0\r\n\r\n`,
      ),
    ],
    [
      'unknown-transfer-encoding',
      head(`Content-Type: application/json\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n${json}`),
    ],
    [
      'huge-length',
      head(
        `Content-Type: application/json\r\nContent-Length: 99999999999999999999\r\nConnection: close\r\n\r\n${json}`,
      ),
    ],
    [
      'over-limit-length',
      head(
        `Content-Type: application/json\r\nContent-Length: ${6 * 1024 * 1024}\r\nConnection: close\r\n\r\n${json}`,
      ),
    ],
    [
      'http10',
      `POST /api/v1/telemetry/ingest HTTP/1.0\r\n${auth}Content-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
    ],
    [
      'absolute-form',
      `POST http://evil.example/api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
    ],
    [
      'non-ascii-path',
      Buffer.concat([
        Buffer.from(
          'POST /api/v1/telemetry/ingest\u00ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
          'latin1',
        ),
      ]),
    ],
    [
      'obs-fold',
      head(
        `Content-Type: application/json\r\nX-Fold: a\r\n b\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
      ),
    ],
    [
      'pipelined',
      head(`Content-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`) +
        `POST /api/v1/telemetry/batch HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ],
    ['method-garbage', `P\u00d6ST /api/v1/telemetry/ingest HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
    ['connect', `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\nConnection: close\r\n\r\n`],
    ['upgrade', head(`Upgrade: websocket\r\nConnection: Upgrade, close\r\nContent-Length: 0\r\n\r\n`)],
  ];
  return fc.constantFrom(...cases).map(([kind, bytes]) => ({
    kind: `raw/${kind}`,
    method: 'RAW',
    path: '',
    headers: {},
    raw: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1'),
    credential: 'main' as Credential,
    ...(kind === 'connect' ? { mayClose: true } : {}),
  }));
}
