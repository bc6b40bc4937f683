import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureExecutable, formatTable } from '@warden/cli';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

let clockTicks: number | undefined;
const ticksToMs = (ticks: number) => {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  return (ticks * 1000) / clockTicks;
};

/** A process by pid, or one of its threads as [pid, tid] (a process's main thread has tid = pid). */
export type CpuOf = number | readonly [pid: number, tid: number] | undefined;

/**
 * CPU time (user + system) a process or thread has used so far, in ms, from /proc; undefined where
 * that is not readable (not Linux, no pid, process gone). On a shared machine whose speed swings from
 * run to run, CPU per request is the steadier measure of what a server costs.
 */
export function cpuMs(of: CpuOf): number | undefined {
  if (!of) return undefined;
  const path = typeof of === 'number' ? `/proc/${of}/stat` : `/proc/${of[0]}/task/${of[1]}/stat`;
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return ticksToMs(Number(fields[11]) + Number(fields[12]));
  } catch {
    return undefined;
  }
}

/**
 * Busy and total time of all cores so far, in ms, from /proc/stat's first line: user, nice, system,
 * irq and softirq are busy; idle and iowait are not; steal (taken by the hypervisor) and the guest
 * fields (already inside user and nice) are left out of both.
 */
function machineMs(): { busy: number; total: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user! + nice! + system! + irq! + softirq!;
    return { busy: ticksToMs(busy), total: ticksToMs(busy + idle! + iowait!) };
  } catch {
    return undefined;
  }
}

export interface MeasuredLoad extends LoadResult {
  /** CPU µs per request of each named process or thread during the run. */
  cpuPerRequest: Record<string, number>;
  /** Share of all cores' time that was busy during the run (0-1), with whatever else ran. */
  machineBusy?: number;
}

/** Runs `load` and adds, per named process or thread, its CPU µs per request during the run. */
export async function withCpu(
  sources: Record<string, CpuOf>,
  load: () => Promise<LoadResult>,
): Promise<MeasuredLoad> {
  const before = Object.fromEntries(Object.entries(sources).map(([name, of]) => [name, cpuMs(of)]));
  const machineBefore = machineMs();
  const result = await load();
  const machineAfter = machineMs();
  const cpuPerRequest: Record<string, number> = {};
  for (const [name, of] of Object.entries(sources)) {
    const start = before[name];
    const end = cpuMs(of);
    if (start !== undefined && end !== undefined && result.requests > 0)
      cpuPerRequest[name] = ((end - start) * 1000) / result.requests;
  }
  const machineBusy =
    machineBefore && machineAfter && machineAfter.total > machineBefore.total
      ? (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
      : undefined;
  return { ...result, cpuPerRequest, ...(machineBusy !== undefined ? { machineBusy } : {}) };
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

/**
 * Closed loop driven by wrk, a C load generator: on two cores a Node client saturates its own core
 * before a plain Fastify route does, which would cap the baseline and flatter any ratio against it.
 * wrk cycles through `distinct` bodies from `target.body` (ids and content vary) from one thread.
 * Installs Debian's wrk when missing and allowed (root, WARDEN_NO_INSTALL unset).
 */
export async function closedLoop(
  target: Target,
  concurrency: number,
  seconds: number,
  distinct = 1000,
): Promise<LoadResult> {
  const wrk = ensureExecutable('wrk (HTTP load generator)', ['wrk'], 'wrk', (line) =>
    process.stderr.write(`${line}\n`),
  );
  const dir = mkdtempSync(join(tmpdir(), 'warden-wrk-'));
  const script = join(dir, 'post.lua');
  // A JSON string literal is a valid Lua string here: the texts are JSON documents or header values,
  // with no control characters that JSON.stringify would write as \u escapes.
  const lua = (text: string) => JSON.stringify(text);
  const bodies = Array.from({ length: distinct }, () => lua(target.body()));
  const headers = { 'content-type': 'application/json', ...target.headers };
  writeFileSync(
    script,
    [
      `local bodies = {${bodies.join(',\n')}}`,
      `local headers = {${Object.entries(headers)
        .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
        .join(', ')}}`,
      'local i = 0',
      'request = function()',
      '  i = i % #bodies + 1',
      '  return wrk.format("POST", nil, headers, bodies[i])',
      'end',
      'done = function(summary, latency, requests)',
      '  io.write(string.format("WARDEN %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
      '    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,',
      '    summary.errors.status, latency:percentile(50), latency:percentile(99)))',
      'end',
    ].join('\n'),
  );
  try {
    const { stdout } = await promisify(execFile)(wrk, [
      '-t1',
      `-c${concurrency}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      target.url,
    ]);
    const line = stdout.split('\n').find((l) => l.startsWith('WARDEN '));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const [requests, durationUs, socketErrors, statusErrors, p50Us, p99Us] = line
      .split(' ')
      .slice(1)
      .map(Number) as [number, number, number, number, number, number];
    const secondsRun = durationUs / 1e6;
    return {
      requests,
      errors: socketErrors + statusErrors,
      seconds: secondsRun,
      perSecond: requests / secondsRun,
      p50: p50Us / 1000,
      p99: p99Us / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Open loop: requests start on a fixed schedule whatever the latency (no coordinated omission). */
export async function fixedRate(target: Target, perSecond: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
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
  return summarize(latencies, errors, (performance.now() - start) / 1000);
}

/** Median wall time (ms) of `runs` calls of `fn`, after one untimed call (for its warm-up). */
export function medianTime(fn: () => unknown, runs: number): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0
    ? 0
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** One column per key of the first row, numbers formatted for reading. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const headers = Object.keys(rows[0]!);
  const cells = rows.map((r) =>
    headers.map((h) => (typeof r[h] === 'number' ? fmt(r[h] as number) : String(r[h]))),
  );
  console.log(formatTable(headers, cells, { underline: true }));
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en');
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(2);
}
