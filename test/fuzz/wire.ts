import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import type { FuzzRequest } from './requests';

/** Sends fuzz cases to a listening server over real sockets, so Node's HTTP parser sees every byte. */

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type Outcome =
  | { kind: 'answered'; answers: Answer[]; ms: number }
  /** The connection ended without an answer (after `detail`). */
  | { kind: 'no-answer'; detail: string; ms: number };

export interface Target {
  host: string;
  port: number;
}

/** Keep-alive connections for well-formed requests, as a client library would use. */
export const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

export function send(target: Target, req: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  return req.raw ? sendRaw(target, req.raw, timeoutMs) : sendHttp(target, req, timeoutMs);
}

function sendHttp(target: Target, req: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const headers: Record<string, string | number> = { ...req.headers };
    // Framing is always explicit: Node's client would send a GET/DELETE/OPTIONS body unframed.
    if (req.body !== undefined) {
      if (req.chunked) headers['transfer-encoding'] = 'chunked';
      else headers['content-length'] = req.body.length;
    }
    const client = request(
      { ...target, method: req.method, path: req.path, headers, agent: keepAlive },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          settle({
            kind: 'answered',
            answers: [{ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }],
            ms: ms(),
          }),
        );
        res.on('error', (err) => settle({ kind: 'no-answer', detail: `response: ${err.message}`, ms: ms() }));
      },
    );
    // A server may answer (413, 415) and close before the whole body is written: only the answer counts.
    client.on('error', (err) => settle({ kind: 'no-answer', detail: `request: ${err.message}`, ms: ms() }));
    const timer = setTimeout(() => {
      settle({ kind: 'no-answer', detail: `no answer within ${timeoutMs} ms`, ms: ms() });
      client.destroy();
    }, timeoutMs);
    if (req.body !== undefined && req.chunked) {
      const half = Math.floor(req.body.length / 2);
      client.write(req.body.subarray(0, half));
      client.end(req.body.subarray(half));
    } else {
      client.end(req.body);
    }
  });
}

/** Writes the bytes on a new connection and reads until the server closes it. */
function sendRaw(target: Target, bytes: Buffer, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(target.port, target.host);
    const finish = (detail: string) => {
      clearTimeout(timer);
      socket.destroy();
      const answers = parseAnswers(Buffer.concat(chunks));
      resolve(
        answers.length > 0
          ? { kind: 'answered', answers, ms: ms() }
          : { kind: 'no-answer', detail, ms: ms() },
      );
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish('closed by the server'));
    socket.on('error', (err) => finish(`socket: ${err.message}`));
  });
}

/** HTTP/1.1 answers in a byte stream, one after another (Content-Length, chunked, or to the end). */
export function parseAnswers(data: Buffer): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const [statusLine, ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine ?? '')?.[1]);
    if (!status) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyStart = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', bodyStart);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(bodyStart, lineEnd).toString('latin1'), 16);
        bodyStart = lineEnd + 2;
        if (!(size > 0)) {
          bodyStart += 2;
          break;
        }
        parts.push(data.subarray(bodyStart, bodyStart + size));
        bodyStart += size + 2;
      }
      body = Buffer.concat(parts);
      at = bodyStart;
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = data.subarray(bodyStart, bodyStart + length);
      at = bodyStart + length;
    } else {
      body = data.subarray(bodyStart);
      at = data.length;
    }
    answers.push({ status, headers, body });
  }
  return answers;
}
