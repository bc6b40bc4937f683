import type { ClickHouseClient } from '@clickhouse/client';
import { selectRows } from '../clickhouse/client';
import { sqlIdentifier, sqlString } from '../clickhouse/escape';
import type { InteractionRow } from '../clickhouse/rows';
import { scopeSql, sqlLimit, type AccountRange } from './scope';

/*
 * Drill-downs over raw `interactions`. Until a merge, a re-inserted interaction is two rows; each
 * query first keeps one row per interaction (`LIMIT 1 BY interaction_id`), which is cheaper than
 * FINAL on 18.16 and exact.
 */

export interface ToolFailures {
  tool: string;
  calls: number;
  failures: number;
  /** failures / calls, 4 decimals */
  failureRate: number;
}

/**
 * Calls and failures per tool name. Rows written before migration 0002 carry no per-call flags and
 * are left out (their tool_failures still count in the overview).
 */
export async function toolCallFailures(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & { agentId?: string },
): Promise<ToolFailures[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{ tool: string; calls: number; failures: number; failure_rate: number }>(
    client,
    `SELECT tool, count() AS calls, sum(failed) AS failures, round(failures / calls, 4) AS failure_rate
     FROM (
       SELECT interaction_id, tool_names, tool_failed
       FROM ${s.db}.interactions
       WHERE ${s.account} AND ${s.received} AND tool_call_count > 0
         AND length(tool_failed) = length(tool_names)
       LIMIT 1 BY interaction_id)
     ARRAY JOIN tool_names AS tool, tool_failed AS failed
     GROUP BY tool ORDER BY failures DESC, tool`,
  );
  return rows.map((r) => ({
    tool: r.tool,
    calls: Number(r.calls),
    failures: Number(r.failures),
    failureRate: Number(r.failure_rate),
  }));
}

export interface LatencyPercentiles {
  agentId: string;
  interactions: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
}

/** Exact response-time percentiles per agent, over interactions that reported a response time. */
export async function latencyPercentiles(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<LatencyPercentiles[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{ agent_id: string; interactions: number; p: number[] }>(
    client,
    `SELECT agent_id, count() AS interactions, quantilesExact(0.5, 0.9, 0.95, 0.99)(response_time_ms) AS p
     FROM (
       SELECT agent_id, interaction_id, response_time_ms
       FROM ${s.db}.interactions
       WHERE ${s.account} AND ${s.received} AND response_time_ms > 0
       LIMIT 1 BY interaction_id)
     GROUP BY agent_id ORDER BY agent_id`,
  );
  return rows.map((r) => ({
    agentId: r.agent_id,
    interactions: Number(r.interactions),
    p50: Number(r.p[0] ?? 0),
    p90: Number(r.p[1] ?? 0),
    p95: Number(r.p[2] ?? 0),
    p99: Number(r.p[3] ?? 0),
  }));
}

export interface EventCount {
  eventType: string;
  platform: string;
  events: number;
}

/** Lifecycle events per type and platform (each event id once). */
export async function eventCounts(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange,
): Promise<EventCount[]> {
  const s = scopeSql(database, scope);
  const rows = await selectRows<{ event_type: string; platform: string; events: number }>(
    client,
    `SELECT event_type, platform, uniqExact(event_id) AS events
     FROM ${s.db}.events WHERE ${s.account} AND ${s.received}
     GROUP BY event_type, platform ORDER BY events DESC, event_type, platform`,
  );
  return rows.map((r) => ({ eventType: r.event_type, platform: r.platform, events: Number(r.events) }));
}

/** One stored interaction as the API shows it; JSON columns parsed back. */
export interface InteractionDetail {
  interactionId: string;
  agentId: string;
  receivedMs: number;
  endpoint: string;
  platform: string;
  userId: string;
  sessionId: string;
  conversationId: string;
  prompt: string;
  response: string;
  model: string;
  tokensUsed: number;
  responseTimeMs: number;
  toolCalls: unknown;
  metadata: unknown;
}

const parsedJson = (text: string): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * The interaction with this id in this account, or undefined: the account is part of the key, so an
 * id of another account is simply not found. Retried inserts may leave copies: the newest wins.
 */
export async function interactionById(
  client: ClickHouseClient,
  database: string,
  params: { accountId: string; interactionId: string },
): Promise<InteractionDetail | undefined> {
  const db = sqlIdentifier(database);
  const [row] = await selectRows<
    Pick<
      InteractionRow,
      | 'interaction_id'
      | 'agent_id'
      | 'received_ms'
      | 'endpoint'
      | 'platform'
      | 'user_id'
      | 'session_id'
      | 'conversation_id'
      | 'prompt'
      | 'response'
      | 'model'
      | 'tokens_used'
      | 'response_time_ms'
      | 'tool_calls'
      | 'metadata'
    >
  >(
    client,
    `SELECT interaction_id, agent_id, received_ms, endpoint, platform, user_id, session_id, conversation_id,
       prompt, response, model, tokens_used, response_time_ms, tool_calls, metadata
     FROM ${db}.interactions
     WHERE account_id = ${sqlString(params.accountId)} AND interaction_id = ${sqlString(params.interactionId)}
     ORDER BY received_ms DESC LIMIT 1`,
  );
  if (!row) return undefined;
  return {
    interactionId: row.interaction_id,
    agentId: row.agent_id,
    receivedMs: Number(row.received_ms),
    endpoint: row.endpoint,
    platform: row.platform,
    userId: row.user_id,
    sessionId: row.session_id,
    conversationId: row.conversation_id,
    prompt: row.prompt,
    response: row.response,
    model: row.model,
    tokensUsed: Number(row.tokens_used),
    responseTimeMs: Number(row.response_time_ms),
    toolCalls: parsedJson(row.tool_calls),
    metadata: parsedJson(row.metadata),
  };
}

/** Where a page of interactions ends: the last row's sort key, opaque to clients. */
export interface InteractionCursor {
  receivedMs: number;
  interactionId: string;
}

export interface InteractionListFilters {
  agentId?: string;
  userId?: string;
  sessionId?: string;
  conversationId?: string;
}

/** One interaction of a list: what identifies and measures it (the detail route has the texts). */
export type InteractionListItem = Omit<InteractionDetail, 'prompt' | 'response' | 'toolCalls' | 'metadata'>;

const INTERACTION_FILTERS: Record<keyof InteractionListFilters, string> = {
  agentId: 'agent_id',
  userId: 'user_id',
  sessionId: 'session_id',
  conversationId: 'conversation_id',
};

/**
 * Interactions newest first (receive time, then id), `limit` at a time after `cursor`: keyset
 * pagination as `detectionsPage`, each interaction once however often its insert was retried.
 */
export async function interactionsPage(
  client: ClickHouseClient,
  database: string,
  scope: AccountRange & InteractionListFilters & { cursor?: InteractionCursor; limit?: number },
): Promise<{ items: InteractionListItem[]; next?: InteractionCursor }> {
  const s = scopeSql(database, scope);
  const limit = sqlLimit(scope.limit, 50);
  const where = [s.account, s.received];
  for (const [name, column] of Object.entries(INTERACTION_FILTERS) as [
    keyof InteractionListFilters,
    string,
  ][]) {
    const value = scope[name];
    if (value !== undefined) where.push(`${column} = ${sqlString(value)}`);
  }
  if (scope.cursor) {
    const ms = Math.floor(scope.cursor.receivedMs);
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new Error('cursor: receivedMs must be a non-negative integer');
    const i = sqlString(scope.cursor.interactionId);
    where.push(`(received_ms < ${ms} OR (received_ms = ${ms} AND interaction_id < ${i}))`);
  }
  const rows = await selectRows<
    Pick<
      InteractionRow,
      | 'interaction_id'
      | 'agent_id'
      | 'received_ms'
      | 'endpoint'
      | 'platform'
      | 'user_id'
      | 'session_id'
      | 'conversation_id'
      | 'model'
      | 'tokens_used'
      | 'response_time_ms'
    >
  >(
    client,
    `SELECT interaction_id, agent_id, received_ms, endpoint, platform, user_id, session_id,
       conversation_id, model, tokens_used, response_time_ms
     FROM ${s.db}.interactions
     WHERE ${where.join(' AND ')}
     ORDER BY received_ms DESC, interaction_id DESC
     LIMIT 1 BY interaction_id
     LIMIT ${limit + 1}`,
  );
  const items = rows.slice(0, limit).map((r) => ({
    interactionId: r.interaction_id,
    agentId: r.agent_id,
    receivedMs: Number(r.received_ms),
    endpoint: r.endpoint,
    platform: r.platform,
    userId: r.user_id,
    sessionId: r.session_id,
    conversationId: r.conversation_id,
    model: r.model,
    tokensUsed: Number(r.tokens_used),
    responseTimeMs: Number(r.response_time_ms),
  }));
  const last = items.at(-1);
  return rows.length > limit && last
    ? { items, next: { receivedMs: last.receivedMs, interactionId: last.interactionId } }
    : { items };
}
