import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from './client';
import { sqlIdentifier, sqlString } from './escape';
import { storedTable } from './cluster';
import { deleteWhere, type MutationOptions } from './mutations';
import { hourRangeMs, rangeMs, sqlDateTime, timeFilter, type TimeRange } from './range';
import {
  agentHourlySelect,
  currentDetectionsCondition,
  detectionHourlySelect,
  rollupVersionsSelect,
} from './rollups';
import { ROLLUP_TABLES } from './tables';
import type { InteractionRow } from './rows';

export interface StaleDetectionsOptions extends TimeRange, MutationOptions {
  /** When the replay started (epoch ms): rows analysed before it are candidates. */
  replayStartedMs: number;
}

/**
 * The ClickHouse side of `warden replay`, after the replayed analyses are in: deletes the findings
 * of interactions received in [from, to) that were written before the replay started AND whose
 * interaction has since been analysed again (an `analyses` row at or after replayStartedMs).
 * Interactions the replay has not reached keep their findings. Returns how many rows it deleted.
 *
 * Queries that select "current" findings (newest analysis per interaction) are already right
 * before this runs; the delete makes `detections FINAL` and the raw table right as well.
 */
export async function deleteStaleDetections(
  client: ClickHouseClient,
  database: string,
  opts: StaleDetectionsOptions,
): Promise<number> {
  const db = sqlIdentifier(database);
  const { fromMs, toMs } = rangeMs(opts);
  if (!Number.isFinite(opts.replayStartedMs)) throw new Error('replayStartedMs must be epoch milliseconds');
  const range = timeFilter('received_at', fromMs, toMs);
  const started = String(Math.floor(opts.replayStartedMs));
  // The stored table: a mutation runs on each shard, where an interaction's analyses are too.
  const analyses = storedTable({ db, cluster: opts.cluster }, 'analyses');
  const where = `${range} AND analyzed_ms < ${started}
    AND (account_id, interaction_id) IN (
      SELECT account_id, interaction_id FROM ${analyses}
      WHERE ${range} AND analyzed_ms >= ${started})`;
  const [row] = await selectRows<{ n: number }>(
    client,
    `SELECT count() AS n FROM ${db}.detections WHERE ${where}`,
  );
  const stale = Number(row?.n ?? 0);
  if (stale > 0) await deleteWhere(client, db, 'detections', where, opts);
  return stale;
}

export interface RebuildResult {
  /** The hours rebuilt: [fromHour, toHour) as ISO strings. */
  fromHour: string;
  toHour: string;
}

/**
 * Re-derives the hourly rollups of every hour [from, to) touches: deletes their rows, then inserts
 * the aggregate of the raw tables' current rows (`interactions FINAL`; the newest analysis's
 * findings). Fixes stale findings after a replay and token sums inflated by re-inserted blocks.
 *
 * Safe while live inserts continue for the set-style columns (interactions, findings): a live block
 * that lands between the delete and the re-insert is in both, and a set union counts it once. The
 * plain sums (tokens, tool calls, tool errors) of such a block can be counted twice; rebuild ranges
 * that are not receiving live traffic, or run it again for those hours.
 */
export async function rebuildRollups(
  client: ClickHouseClient,
  database: string,
  range: TimeRange & MutationOptions,
): Promise<RebuildResult> {
  const db = sqlIdentifier(database);
  const hours = hourRangeMs(range);
  const hourFilter = `hour >= ${sqlDateTime(hours.fromMs)} AND hour < ${sqlDateTime(hours.toMs)}`;
  const received = timeFilter('received_at', hours.fromMs, hours.toMs);
  await deleteWhere(client, db, 'agent_hourly', hourFilter, range);
  await deleteWhere(client, db, 'detection_hourly', hourFilter, range);
  await client.command({
    query: `INSERT INTO ${db}.agent_hourly ${agentHourlySelect(`${db}.interactions FINAL`, received)}`,
  });
  await client.command({
    query: `INSERT INTO ${db}.detection_hourly ${detectionHourlySelect(
      `${db}.detections`,
      `${received} AND ${currentDetectionsCondition(db, hours)}`,
    )}`,
  });
  // Every hour of the range gets a new version, so the overview's cached summaries of it are
  // recomputed, including hours the rebuild left empty (migration 7).
  const touched = ['rollup_versions', ...ROLLUP_TABLES]
    .map((t) => `SELECT account_id, hour FROM ${db}.${t} WHERE ${hourFilter}`)
    .join(' UNION ALL ');
  await client.command({
    query: `INSERT INTO ${db}.rollup_versions ${rollupVersionsSelect(`(${touched})`, '1', 'hour')}`,
  });
  return { fromHour: new Date(hours.fromMs).toISOString(), toHour: new Date(hours.toMs).toISOString() };
}

export interface InteractionPageOptions extends TimeRange {
  accountId?: string;
  /** Keyset cursor: the last row of the previous page. */
  after?: { interactionId: string; accountId: string };
  limit: number;
}

export interface InteractionPage {
  rows: InteractionRow[];
  /** Pass as `after` for the next page; null on the last page. */
  next: { interactionId: string; accountId: string } | null;
}

const INTERACTION_COLUMNS = [
  'account_id',
  'interaction_id',
  'agent_id',
  'received_at',
  'received_ms',
  'event_time',
  'endpoint',
  'platform',
  'user_id',
  'session_id',
  'conversation_id',
  'chatflow_id',
  'chat_id',
  'app_id',
  'workflow_id',
  'execution_id',
  'node_id',
  'prompt',
  'response',
  'model',
  'model_provider',
  'environment',
  'tokens_used',
  'response_time_ms',
  'tool_call_count',
  'tool_names',
  'tool_failures',
  'tool_failed',
  'tool_ms',
  'tool_calls',
  'metadata',
  'extra',
  'schema_version',
] as const satisfies readonly (keyof InteractionRow)[];

/**
 * Pages through the interactions received in [from, to), one row per interaction, ordered by
 * (interaction_id, account_id) — UUIDv7 ids make that roughly time order. Keyset pagination: each
 * page starts strictly after the cursor, so pages neither skip nor repeat while rows are inserted.
 */
export async function interactionsInRange(
  client: ClickHouseClient,
  database: string,
  opts: InteractionPageOptions,
): Promise<InteractionPage> {
  const db = sqlIdentifier(database);
  const { fromMs, toMs } = rangeMs(opts);
  const limit = Math.floor(opts.limit);
  if (!(limit >= 1 && limit <= 100_000)) throw new Error('limit must be between 1 and 100000');
  const where = [timeFilter('received_at', fromMs, toMs)];
  if (opts.accountId !== undefined) where.push(`account_id = ${sqlString(opts.accountId)}`);
  if (opts.after) {
    const id = sqlString(opts.after.interactionId);
    where.push(
      `(interaction_id > ${id} OR (interaction_id = ${id} AND account_id > ${sqlString(opts.after.accountId)}))`,
    );
  }
  const rows = await selectRows<InteractionRow>(
    client,
    `SELECT ${INTERACTION_COLUMNS.join(', ')}
     FROM ${db}.interactions
     WHERE ${where.join(' AND ')}
     ORDER BY interaction_id, account_id, received_ms DESC
     LIMIT 1 BY interaction_id, account_id
     LIMIT ${limit}`,
  );
  const last = rows.at(-1);
  return {
    rows,
    next:
      rows.length === limit && last
        ? { interactionId: last.interaction_id, accountId: last.account_id }
        : null,
  };
}
