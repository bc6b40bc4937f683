import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';

/** Address ranges a webhook may not reach unless private targets are allowed (ipaddr.js range names). */
const PUBLIC_RANGES = new Set(['unicast']);

/** Why `address` is refused as a webhook target, or undefined when it is a public unicast address. */
export function refusedAddress(address: string): string | undefined {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return PUBLIC_RANGES.has(range) ? undefined : range;
}

export class RefusedTargetError extends Error {
  constructor(host: string, address: string, range: string) {
    super(
      `${host} resolves to ${address} (${range}): webhooks are not sent to private, loopback or link-local addresses. ` +
        'Use a public URL, or set WARDEN_WEBHOOK_ALLOW_PRIVATE=1 on the alerter for development.',
    );
    this.name = 'RefusedTargetError';
  }
}

/**
 * A DNS lookup that refuses private targets: the address checked is the one the connection uses,
 * so a name that resolves (or re-resolves) to an internal address is never reached.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      if (!allowPrivate) {
        for (const a of addresses) {
          const range = refusedAddress(a.address);
          if (range) return callback(new RefusedTargetError(hostname, a.address, range), '', 4);
        }
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Checks a URL a user registers: http(s), and (unless allowed) a literal address that is not private. */
export function checkTargetUrl(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL; use e.g. https://hooks.example.com/warden';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https (or http)';
  if (url.username || url.password) return 'must not carry credentials; the signature authenticates Warden';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    return 'points at loopback; webhooks are not sent to private, loopback or link-local addresses';
  if (!allowPrivate && ipaddr.isValid(host)) {
    const range = refusedAddress(host);
    if (range)
      return `points at a ${range} address; webhooks are not sent to private, loopback or link-local addresses`;
  }
  return undefined;
}

export interface SignedRequest {
  id: string;
  body: string;
  /** The current secret and, during a rotation's grace period, the previous one. */
  secrets: string[];
  now?: Date;
}

/** The Standard Webhooks headers: webhook-id, webhook-timestamp, and one `v1,` signature per secret. */
export function signedHeaders(req: SignedRequest): Record<string, string> {
  const at = req.now ?? new Date();
  return {
    'content-type': 'application/json',
    'user-agent': 'Warden-Webhooks/1',
    'webhook-id': req.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': req.secrets.map((s) => new Webhook(s).sign(req.id, at, req.body)).join(' '),
  };
}

export interface PostResult {
  statusCode: number | null;
  headers: http.IncomingHttpHeaders;
  excerpt: string;
  latencyMs: number;
  error: string | null;
}

const EXCERPT_BYTES = 512;

/**
 * Connections are kept open between deliveries to the same endpoint (a burst of alerts is one TCP
 * and TLS handshake, not one per alert) and closed after 4 s idle, before the common 5 s server
 * keep-alive timeouts. The guarded lookup runs on every new connection, so a kept connection was
 * checked when it was opened.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, timeout: 4000 }),
  https: new https.Agent({ keepAlive: true, timeout: 4000 }),
};

/**
 * POSTs once: no redirect followed (a 3xx is a failure), at most `timeoutMs` for the whole
 * exchange, the answer read up to an excerpt for the delivery log.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((done) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      done({ statusCode: null, headers: {}, excerpt: '', latencyMs: 0, error: `not a URL: ${url}` });
      return;
    }
    const tls = target.protocol === 'https:';
    const req = (tls ? https : http).request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(opts.allowPrivate),
      signal: AbortSignal.timeout(opts.timeoutMs),
      agent: tls ? agents.https : agents.http,
    });
    req.on('error', (err) => {
      const message =
        err.name === 'AbortError' || err.name === 'TimeoutError'
          ? `no answer within ${opts.timeoutMs} ms`
          : err.message;
      done({ statusCode: null, headers: {}, excerpt: '', latencyMs: elapsed(), error: message });
    });
    req.on('response', (res) => {
      let excerpt = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (excerpt.length < EXCERPT_BYTES) excerpt += chunk.slice(0, EXCERPT_BYTES - excerpt.length);
      });
      const finish = () =>
        done({
          statusCode: res.statusCode ?? null,
          headers: res.headers,
          excerpt,
          latencyMs: elapsed(),
          error: null,
        });
      res.on('end', finish);
      res.on('error', finish);
    });
    req.end(body);
  });
}
