import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<number, number>;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarize(
  latencies: number[],
  statuses: Record<number, number>,
  errors: number,
  seconds: number,
): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    statuses,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export interface Target {
  url: string;
  headers: Record<string, string>;
  /** A fresh body per request (so ids and content vary). */
  body: () => string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(target: Target): Promise<number> {
  return postJson(target.url, target.headers, target.body()).then((r) => r.status);
}

/** One POST over the shared keep-alive agent (cheaper per request than fetch on Node 20). */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Closed loop: `concurrency` clients each send as fast as answers come back. */
export async function closedLoop(target: Target, concurrency: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const status = await post(target);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 300) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarize(latencies, statuses, errors, (performance.now() - start) / 1000);
}

/** Open loop: requests start on a fixed schedule whatever the latency (no coordinated omission). */
export async function fixedRate(target: Target, perSecond: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const total = Math.round(perSecond * seconds);
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // Late sends count from when they were due (no coordinated omission); early ones from the send.
    const t0 = Math.min(due, performance.now());
    inflight.push(
      post(target).then(
        (status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 300) errors++;
          latencies.push(performance.now() - t0);
        },
        () => {
          errors++;
          latencies.push(performance.now() - t0);
        },
      ),
    );
  }
  await Promise.all(inflight);
  return summarize(latencies, statuses, errors, (performance.now() - start) / 1000);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0
    ? 0
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const headers = Object.keys(rows[0]!);
  const cells = rows.map((r) =>
    headers.map((h) => (typeof r[h] === 'number' ? fmt(r[h] as number) : String(r[h]))),
  );
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en');
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(2);
}
