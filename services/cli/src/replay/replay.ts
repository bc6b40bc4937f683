import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { analyzeEnvelope, type AnalyzeOptions } from '@warden/shared/detectors/analyze';
import { selectRows } from '@warden/shared/clickhouse/client';
import { sqlIdentifier } from '@warden/shared/clickhouse/escape';
import { rangeMs, timeFilter } from '@warden/shared/clickhouse/range';
import {
  deleteStaleDetections,
  interactionsInRange,
  rebuildRollups,
  type InteractionPage,
} from '@warden/shared/clickhouse/replay';
import { analysisRow, detectionRows, envelopeFromRow } from '@warden/shared/clickhouse/rows';
import { loadStackConfig } from '@warden/shared/config';
import { detectorVersion } from '@warden/shared/detectors/index';

export interface ReplayOptions {
  client: ClickHouseClient;
  database: string;
  /** CLICKHOUSE_CLUSTER: deletes and rollup rebuilds run on the replicated tables ON CLUSTER. */
  cluster?: string;
  from: string;
  to: string;
  dryRun?: boolean;
  pageSize?: number;
  analyze?: AnalyzeOptions;
  /** Where the resumable cursor is kept (default .stack/replay/). */
  stateDir?: string;
  progress?: (p: ReplayProgress) => void;
  /** Return true to stop after the current page; the next run with the same range resumes. */
  interrupted?: () => boolean;
}

export interface ReplayProgress {
  done: number;
  total: number;
  findings: number;
  ratePerSecond: number;
  etaSeconds: number;
}

export interface ReplayResult {
  detectorVersion: string;
  interactions: number;
  findings: number;
  staleDeleted: number;
  resumed: boolean;
  completed: boolean;
  dryRun: boolean;
}

interface ReplayState {
  database: string;
  from: string;
  to: string;
  detectorVersion: string;
  startedMs: number;
  done: number;
  findings: number;
  after: InteractionPage['next'];
}

function stateFile(dir: string, database: string, from: string, to: string): string {
  const id = createHash('sha256').update(`${database}\u0000${from}\u0000${to}`).digest('hex').slice(0, 16);
  return resolve(dir, `${id}.json`);
}

/**
 * Re-analyses the interactions received in [from, to) with the current detectors, writes the new
 * analyses and findings next to the old ones, then deletes the findings the new run no longer
 * produces and rebuilds the hourly rollups of that range. Runs beside the live pipeline: rows are
 * keyed by ids and "current" means the newest analysis. Interrupted runs resume from the cursor.
 */
export async function replayRange(opts: ReplayOptions): Promise<ReplayResult> {
  const { client } = opts;
  const db = sqlIdentifier(opts.database);
  const { fromMs, toMs } = rangeMs({ from: opts.from, to: opts.to });
  if (!(toMs > fromMs)) throw new Error(`--to (${opts.to}) must be later than --from (${opts.from})`);
  const dir = opts.stateDir ?? resolve(loadStackConfig().dir, 'replay');
  const file = stateFile(dir, db, opts.from, opts.to);
  const saved =
    !opts.dryRun && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ReplayState) : undefined;
  const state: ReplayState =
    saved && saved.detectorVersion === detectorVersion
      ? saved
      : {
          database: db,
          from: opts.from,
          to: opts.to,
          detectorVersion,
          startedMs: Date.now(),
          done: 0,
          findings: 0,
          after: null,
        };
  const resumed = state === saved;

  const [count] = await selectRows<{ n: number }>(
    client,
    `SELECT uniqExact(account_id, interaction_id) AS n FROM ${db}.interactions WHERE ${timeFilter('received_at', fromMs, toMs)}`,
  );
  const total = Number(count?.n ?? 0);
  const began = Date.now();
  const doneAtStart = state.done;
  let completed = false;
  const save = () => {
    if (opts.dryRun) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(state, null, 2));
  };

  for (;;) {
    if (opts.interrupted?.()) break;
    const page = await interactionsInRange(client, db, {
      from: opts.from,
      to: opts.to,
      limit: opts.pageSize ?? 2000,
      ...(state.after ? { after: state.after } : {}),
    });
    // Every analysis of this run carries the same clock reading, later than the replay start, so
    // "newest analysis wins" picks this run over anything older.
    const analyzedAt = new Date(Math.max(Date.now(), state.startedMs + 1));
    const analyses = page.rows.map((row) =>
      analyzeEnvelope(envelopeFromRow(row), { ...opts.analyze, now: () => analyzedAt }),
    );
    const findings = analyses.reduce((n, a) => n + a.findings.length, 0);
    if (!opts.dryRun && analyses.length > 0) {
      await client.insert({
        table: `${db}.analyses`,
        values: analyses.map(analysisRow),
        format: 'JSONEachRow',
      });
      const rows = analyses.flatMap(detectionRows);
      if (rows.length > 0)
        await client.insert({ table: `${db}.detections`, values: rows, format: 'JSONEachRow' });
    }
    state.done += page.rows.length;
    state.findings += findings;
    state.after = page.next;
    save();
    const elapsed = Math.max(0.001, (Date.now() - began) / 1000);
    const rate = (state.done - doneAtStart) / elapsed;
    opts.progress?.({
      done: state.done,
      total,
      findings: state.findings,
      ratePerSecond: rate,
      etaSeconds: rate > 0 ? Math.max(0, total - state.done) / rate : 0,
    });
    if (!page.next) {
      completed = true;
      break;
    }
  }

  let staleDeleted = 0;
  if (completed && !opts.dryRun) {
    staleDeleted = await deleteStaleDetections(client, db, {
      from: opts.from,
      to: opts.to,
      replayStartedMs: state.startedMs,
      cluster: opts.cluster,
    });
    await rebuildRollups(client, db, { from: opts.from, to: opts.to, cluster: opts.cluster });
    rmSync(file, { force: true });
  }
  return {
    detectorVersion,
    interactions: state.done,
    findings: state.findings,
    staleDeleted,
    resumed,
    completed,
    dryRun: opts.dryRun ?? false,
  };
}
