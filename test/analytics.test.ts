import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as analytics from '@warden/shared/analytics/index';
import { createClickhouse, selectRows, type ClickHouseClient } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import { migrations } from '@warden/shared/clickhouse/migrations/index';
import { detectDialect } from '@warden/shared/clickhouse/dialect';
import { deleteStaleDetections, interactionsInRange, rebuildRollups } from '@warden/shared/clickhouse/replay';
import { dropExpiredPartitions } from '@warden/shared/clickhouse/retention';
import {
  analysisRow,
  clickhouseDateTime,
  detectionRows,
  envelopeFromRow,
  eventRow,
  findingId,
  interactionRow,
} from '@warden/shared/clickhouse/rows';
import { SEVERITIES, type Finding, type Severity } from '@warden/shared/schemas/detection';
import {
  ACCOUNT,
  ACME,
  DAY_FROM,
  DAY_TO,
  EVENTS,
  IN_RANGE,
  OTHERS,
  REPLAY_FROM,
  REPLAY_STARTED_MS,
  REPLAY_TO,
  analysisOf,
  envelopeOf,
  findingsFor,
  interactionId,
  replayed,
  type SeedInteraction,
} from './support/analytics-seed';

const url = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
const db = `warden_test_analytics_${randomBytes(4).toString('hex')}`;
let client: ClickHouseClient;

// ---- the truth, computed from the seed definitions in plain TypeScript --------------------------

const inRange = ACME.filter((s) => s.i < IN_RANGE);
const current = (s: SeedInteraction): Finding[] => findingsFor(s.i, replayed(s) ? '2.0.0' : '1.0.0');
const currentFindings = inRange.flatMap((s) => current(s).map((f) => ({ s, f, id: findingId(s.id, f) })));
const failed = (t: SeedInteraction['tools'][number]) => t.success === false || (t.error ?? '') !== '';
const hourOf = (ms: number) => clickhouseDateTime(Math.floor(ms / 3_600_000) * 3_600_000);
const secondOf = (ms: number) => clickhouseDateTime(ms);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const uniq = <T>(xs: T[]) => new Set(xs).size;
const INJECTION = new Set(['prompt_injection', 'jailbreak']);

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
}
const maxSeverity = (xs: Severity[]): Severity =>
  xs.reduce((a, b) => (SEVERITIES.indexOf(b) > SEVERITIES.indexOf(a) ? b : a), 'low' as Severity);
const quantileExact = (values: number[], level: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(Math.floor(level * sorted.length), sorted.length - 1)] ?? 0;
};

/** The API's names for a query's columns: `failure_rate` → `failureRate`. */
const camelKeys = (row: object) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );

const truth = {
  interactions: inRange.length,
  tokens: sum(inRange.map((s) => s.tokens)),
  toolCalls: sum(inRange.map((s) => s.tools.length)),
  toolErrors: sum(inRange.map((s) => s.tools.filter(failed).length)),
  interactionsWithToolErrors: inRange.filter((s) => s.tools.some(failed)).length,
  findings: currentFindings.length,
  flaggedInteractions: uniq(currentFindings.map((c) => c.s.id)),
};

const bySeverity = () =>
  SEVERITIES.flatMap((severity) => {
    const rows = currentFindings.filter((c) => c.f.severity === severity);
    return rows.length
      ? [{ severity, findings: rows.length, interactions: uniq(rows.map((c) => c.s.id)) }]
      : [];
  });

const hourly = () =>
  [...groupBy(inRange, (s) => hourOf(s.receivedMs))].map(([hour, xs]) => ({
    hour,
    interactions: xs.length,
    tokens: sum(xs.map((s) => s.tokens)),
  }));

const topAgents = () =>
  [...groupBy(currentFindings, (c) => c.s.agent.id)]
    .map(([agent_id, xs]) => ({
      agent_id,
      findings: xs.length,
      interactions: uniq(xs.map((c) => c.s.id)),
      critical: xs.filter((c) => c.f.severity === 'critical').length,
    }))
    .sort((a, b) => b.findings - a.findings || a.agent_id.localeCompare(b.agent_id));

type CountedFinding = (typeof currentFindings)[number];
/** Findings and flagged interactions per pair of columns, ordered by the pair, as the queries group them. */
const findingsByPair = <A extends string, B extends string>(
  findings: CountedFinding[],
  [a, keyA]: [A, (c: CountedFinding) => string],
  [b, keyB]: [B, (c: CountedFinding) => string],
) =>
  [...groupBy(findings, (c) => `${keyA(c)}|${keyB(c)}`)]
    .map(([key, xs]) => {
      const [valueA, valueB] = key.split('|');
      return {
        [a]: valueA,
        [b]: valueB,
        findings: xs.length,
        interactions: uniq(xs.map((c) => c.s.id)),
      } as Record<A | B, string> & { findings: number; interactions: number };
    })
    .sort((x, y) => `${x[a]}|${x[b]}`.localeCompare(`${y[a]}|${y[b]}`));

const piiLeaks = () =>
  findingsByPair(
    currentFindings.filter((c) => c.f.threatType === 'pii_leak'),
    ['bucket', (c) => hourOf(c.s.receivedMs)],
    ['entity_type', (c) => c.f.entityType ?? ''],
  );

const injectionBy = (key: 'userId' | 'sessionId') =>
  [
    ...groupBy(
      currentFindings.filter((c) => INJECTION.has(c.f.threatType)),
      (c) => c.s[key],
    ),
  ]
    .map(([k, xs]) => ({
      key: k,
      attempts: uniq(xs.map((c) => c.s.id)),
      findings: xs.length,
      max_severity: maxSeverity(xs.map((c) => c.f.severity)),
      first_seen: secondOf(Math.min(...xs.map((c) => c.s.receivedMs))),
      last_seen: secondOf(Math.max(...xs.map((c) => c.s.receivedMs))),
    }))
    .sort((a, b) => b.attempts - a.attempts || a.key.localeCompare(b.key));

const toolFailures = () =>
  [
    ...groupBy(
      inRange.flatMap((s) => s.tools),
      (t) => t.name,
    ),
  ]
    .map(([tool, calls]) => ({
      tool,
      calls: calls.length,
      failures: calls.filter(failed).length,
      failure_rate: Math.round((calls.filter(failed).length / calls.length) * 10_000) / 10_000,
    }))
    .sort((a, b) => b.failures - a.failures || a.tool.localeCompare(b.tool));

const latency = () =>
  [
    ...groupBy(
      inRange.filter((s) => s.responseMs > 0),
      (s) => s.agent.id,
    ),
  ]
    .map(([agent_id, xs]) => {
      const v = xs.map((s) => s.responseMs);
      return {
        agent_id,
        interactions: xs.length,
        p50: quantileExact(v, 0.5),
        p90: quantileExact(v, 0.9),
        p95: quantileExact(v, 0.95),
        p99: quantileExact(v, 0.99),
      };
    })
    .sort((a, b) => a.agent_id.localeCompare(b.agent_id));

const tokensByModel = () =>
  [...groupBy(inRange, (s) => s.agent.model)]
    .map(([model, xs]) => ({ model, interactions: xs.length, tokens: sum(xs.map((s) => s.tokens)) }))
    .sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model));

const byPlatform = () =>
  findingsByPair(
    currentFindings,
    ['platform', (c) => c.s.agent.platform],
    ['threat_type', (c) => c.f.threatType],
  );

const agentSeen = () => {
  const sightings = [
    ...ACME.map((s) => ({ agent: s.agent.id, ms: s.receivedMs, platform: s.agent.platform })),
    ...EVENTS.filter((e) => e.accountId === ACCOUNT).map((e) => ({
      agent: e.event.agentId,
      ms: Date.parse(e.receivedAt),
      platform: e.source.platform,
    })),
  ];
  return [...groupBy(sightings, (x) => x.agent)]
    .map(([agent, xs]) => ({
      agent,
      first: Math.min(...xs.map((x) => x.ms)),
      last: Math.max(...xs.map((x) => x.ms)),
      platforms: [...new Set(xs.map((x) => x.platform))].sort(),
    }))
    .sort((a, b) => a.agent.localeCompare(b.agent));
};

const acmeEvents = () =>
  [
    ...groupBy(
      EVENTS.filter((e) => e.accountId === ACCOUNT && e.receivedAt >= DAY_FROM && e.receivedAt < DAY_TO),
      (e) => `${e.event.eventType}|${e.source.platform}`,
    ),
  ]
    .map(([key, xs]) => ({ event_type: key.split('|')[0], platform: key.split('|')[1], events: xs.length }))
    .sort(
      (a, b) =>
        b.events - a.events || `${a.event_type}|${a.platform}`.localeCompare(`${b.event_type}|${b.platform}`),
    );

const versions = () =>
  [...groupBy(inRange, (s) => (replayed(s) ? '2.0.0' : '1.0.0'))]
    .map(([detector_version, xs]) => ({
      detector_version,
      interactions: xs.length,
      findings: sum(xs.map((s) => current(s).length)),
    }))
    .sort((a, b) => a.detector_version.localeCompare(b.detector_version));

const FINDINGS_OF = 23;
const findingsOf23 = () => {
  const s = ACME[FINDINGS_OF];
  if (!s) throw new Error('seed 23 missing');
  return current(s)
    .map((f) => ({ f, id: findingId(s.id, f) }))
    .sort((a, b) => a.f.field.localeCompare(b.f.field) || a.f.start - b.f.start || a.f.end - b.f.end);
};

// ---- the cookbook, read from the docs ----------------------------------------------------------

function cookbook(): Map<string, string> {
  const doc = readFileSync(new URL('../docs/analytics.md', import.meta.url), 'utf8');
  const blocks = new Map<string, string>();
  for (const m of doc.matchAll(/```sql\n([\s\S]*?)```/g)) {
    const sql = m[1] ?? '';
    const name = /^-- cookbook: ([a-z0-9-]+)/.exec(sql)?.[1];
    if (!name) throw new Error(`sql block without "-- cookbook: name": ${sql.slice(0, 60)}`);
    blocks.set(name, sql.replace(/\bwarden\./g, `${db}.`));
  }
  return blocks;
}

const range = { accountId: ACCOUNT, from: DAY_FROM, to: DAY_TO };

async function insert(table: string, values: object[]): Promise<void> {
  if (values.length > 0) await client.insert({ table: `${db}.${table}`, values, format: 'JSONEachRow' });
}

async function insertAnalyses(list: ReturnType<typeof analysisOf>[]): Promise<void> {
  // The sink's order: findings first, then the analysis that makes them current.
  await insert('detections', list.flatMap(detectionRows));
  await insert('analyses', list.map(analysisRow));
}

beforeAll(async () => {
  client = createClickhouse({ url });
  await migrate(client, { database: db });
});

afterAll(async () => {
  await client?.command({ query: `DROP DATABASE IF EXISTS ${db}` });
  await client?.close();
});

describe('ClickHouse analytics on 18.16-compatible schema', () => {
  it('migrations are idempotent: a second migrate applies nothing, every statement reruns cleanly', async () => {
    const again = await migrate(client, { database: db });
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(migrations.length);
    const dialect = await detectDialect(client);
    const ctx = {
      db,
      dialect,
      retentionDays: 90,
      columnsOf: async (table: string) =>
        new Set(
          (
            await selectRows<{ name: string }>(
              client,
              `SELECT name FROM system.columns WHERE database = '${db}' AND table = '${table}'`,
            )
          ).map((r) => r.name),
        ),
    };
    for (const m of migrations)
      for (const sql of await m.statements(ctx)) await client.command({ query: sql });
  });

  it('seeds with retried inserts: ids count once, token sums run high until rebuildRollups', async () => {
    const envelopes = [...ACME, ...OTHERS].map(envelopeOf);
    await insert('interactions', envelopes.map(interactionRow));
    await insert('interactions', ACME.slice(0, 20).map(envelopeOf).map(interactionRow)); // sink retry
    await insert('events', EVENTS.map(eventRow));
    await insert('events', EVENTS.map(eventRow)); // sink retry
    const seeded = [...ACME, ...OTHERS];
    await insertAnalyses(seeded.map((s) => analysisOf(s, '1.0.0', s.receivedMs + 2000)));
    await insertAnalyses(ACME.slice(0, 20).map((s) => analysisOf(s, '1.0.0', s.receivedMs + 2000))); // sink retry
    // detector retry: the same interactions analysed again later, same findings
    await insertAnalyses(ACME.slice(40, 50).map((s) => analysisOf(s, '1.0.0', s.receivedMs + 5000)));

    const before = await analytics.overview(client, db, range);
    const v1Findings = sum(inRange.map((s) => findingsFor(s.i, '1.0.0').length));
    expect(before.interactions).toBe(60);
    expect(before.findings).toBe(v1Findings);
    // the documented overcount: the re-inserted block's tokens are summed twice
    expect(before.tokens).toBe(truth.tokens + sum(ACME.slice(0, 20).map((s) => s.tokens)));

    const rebuilt = await rebuildRollups(client, db, { from: DAY_FROM, to: DAY_TO });
    expect(rebuilt).toEqual({ fromHour: DAY_FROM, toHour: DAY_TO });
    const after = await analytics.overview(client, db, range);
    expect(after.tokens).toBe(truth.tokens);
    expect(after.interactions).toBe(60);
    expect(after.findings).toBe(v1Findings);
  });

  it('replay: current findings switch at once; delete + rebuild make rollups and FINAL exact', async () => {
    const replay = ACME.filter(replayed);
    expect(replay).toHaveLength(20);
    await insertAnalyses(replay.map((s) => analysisOf(s, '2.0.0', REPLAY_STARTED_MS + s.i)));

    // current-finding queries are right before any cleanup
    const pii = await analytics.piiLeaksByType(client, db, { ...range, bucket: 'hour' });
    expect(pii.filter((r) => r.bucket === '2025-03-01 10:00:00')).toEqual([
      { bucket: '2025-03-01 10:00:00', entityType: 'CREDIT_CARD', findings: 1, interactions: 1 },
      { bucket: '2025-03-01 10:00:00', entityType: 'EMAIL_ADDRESS', findings: 2, interactions: 2 },
    ]);
    // the rollup still holds the old run's phone finding (i=23) and injection (i=30)
    expect((await analytics.overview(client, db, range)).findings).toBe(truth.findings + 2);

    const stale = await deleteStaleDetections(client, db, {
      from: REPLAY_FROM,
      to: REPLAY_TO,
      replayStartedMs: REPLAY_STARTED_MS,
    });
    expect(stale).toBe(sum(replay.map((s) => findingsFor(s.i, '1.0.0').length)));
    expect(
      await deleteStaleDetections(client, db, {
        from: REPLAY_FROM,
        to: REPLAY_TO,
        replayStartedMs: REPLAY_STARTED_MS,
      }),
    ).toBe(0);
    await rebuildRollups(client, db, { from: REPLAY_FROM, to: REPLAY_TO });

    const o = await analytics.overview(client, db, range);
    expect(o.findings).toBe(truth.findings);
    expect(o.flaggedInteractions).toBe(truth.flaggedInteractions);
    const [finalRows] = await selectRows<{ n: number }>(
      client,
      `SELECT count() AS n FROM ${db}.detections FINAL WHERE account_id = 'acme'
         AND received_at < toDateTime('2025-03-02 00:00:00', 'UTC')`,
    );
    expect(finalRows?.n).toBe(truth.findings);
  });

  it('every cookbook query in docs/analytics.md returns the exact numbers', async () => {
    const q = cookbook();
    const run = async (name: string) => {
      const sql = q.get(name);
      if (!sql) throw new Error(`cookbook query ${name} missing from docs/analytics.md`);
      return selectRows<Record<string, unknown>>(client, sql);
    };
    expect(q.size).toBeGreaterThanOrEqual(10);
    const expected: Record<string, unknown> = {
      'overview-usage': [
        {
          interactions: truth.interactions,
          tokens: truth.tokens,
          tool_calls: truth.toolCalls,
          tool_errors: truth.toolErrors,
          interactions_with_tool_errors: truth.interactionsWithToolErrors,
          active_agents: 3,
        },
      ],
      'overview-severity': bySeverity(),
      'hourly-activity': hourly(),
      'top-agents-by-detections': topAgents(),
      'pii-leaks-by-type': piiLeaks(),
      'injection-by-user': injectionBy('userId').map(({ key, ...r }) => ({ user_id: key, ...r })),
      'injection-by-session': injectionBy('sessionId').map(({ key, attempts, findings, max_severity }) => ({
        session_id: key,
        attempts,
        findings,
        max_severity,
      })),
      'tool-call-failures': toolFailures(),
      'latency-percentiles': latency(),
      'tokens-by-model': tokensByModel(),
      'detections-by-platform': byPlatform(),
      'interaction-findings': findingsOf23().map(({ f, id }) => ({
        finding_id: id,
        detector: f.detector,
        detector_version: f.detectorVersion,
        rule_id: f.ruleId,
        threat_type: f.threatType,
        severity: f.severity,
        field: f.field,
        span_start: f.start,
        span_end: f.end,
        view: f.view,
        entity_type: f.entityType ?? '',
        masked: f.masked ?? '',
      })),
      agents: agentSeen().map((a) => ({
        agent_id: a.agent,
        first_seen_at: secondOf(a.first),
        last_seen_at: secondOf(a.last),
        platforms: a.platforms,
      })),
      'events-by-type': acmeEvents(),
      'detector-versions': versions(),
    };
    for (const [name, rows] of Object.entries(expected))
      expect({ name, rows: await run(name) }).toEqual({ name, rows });
    const [counted] = await run('rows-vs-interactions');
    expect(counted?.interactions).toBe(60);
    expect(Number(counted?.rows)).toBeGreaterThanOrEqual(60);
    const covered = new Set([...Object.keys(expected), 'rows-vs-interactions']);
    expect([...q.keys()].filter((k) => !covered.has(k))).toEqual([]);
  });

  it('finished hours are read from stored summaries, and a later write to one counts at once', async () => {
    const first = OTHERS[0];
    if (!first) throw new Error('seed missing');
    // a day of its own, so the other tests' ranges never see these rows
    const account = 'cache-co';
    const at = Date.parse('2025-03-05T10:20:00.000Z');
    const scope = { accountId: account, from: '2025-03-05T00:00:00.000Z', to: '2025-03-06T00:00:00.000Z' };
    const row = (n: number) => ({
      ...interactionRow(envelopeOf(first)),
      account_id: account,
      interaction_id: `cache-${n}`,
      received_at: secondOf(at),
      received_ms: at,
    });
    // the newest stored summary of the hour; counting rows would race ReplacingMergeTree's merges
    const stored = async () => {
      const [r] = await selectRows<{ v: number; n: number; hours: number }>(
        client,
        `SELECT max(version) AS v, argMax(interactions, version) AS n, uniqExact(hour) AS hours
           FROM ${db}.hourly_summaries WHERE account_id = '${account}'`,
      );
      return { version: Number(r?.v), interactions: Number(r?.n), hours: Number(r?.hours) };
    };

    await insert('interactions', [row(1), row(2)]);
    expect((await analytics.overview(client, db, scope)).interactions).toBe(2);
    const kept = await stored(); // the hour is over two hours old: summarised and kept
    expect(kept).toMatchObject({ interactions: 2, hours: 1 });
    expect((await analytics.overview(client, db, scope)).interactions).toBe(2);

    // late rows for that hour, one of them a re-inserted duplicate: the version moves, the summary is redone
    await insert('interactions', [row(2), row(3)]);
    expect((await analytics.overview(client, db, scope)).interactions).toBe(3);
    const redone = await stored();
    expect(redone).toMatchObject({ interactions: 3, hours: 1 });
    expect(redone.version).toBeGreaterThan(kept.version);
    // a summary that does not carry the hour's current version is never believed
    await insert('hourly_summaries', [
      { account_id: account, hour: hourOf(at), version: 999, interactions: 1000 },
    ]);
    expect(await analytics.overview(client, db, scope)).toEqual(
      (await analytics.overviewFromStates(client, db, scope)).overview,
    );
    expect((await analytics.overview(client, db, scope)).interactions).toBe(3);
  });

  it('typed analytics functions return the same exact numbers', async () => {
    const o = await analytics.overview(client, db, range);
    expect(o).toEqual({
      interactions: truth.interactions,
      tokens: truth.tokens,
      toolCalls: truth.toolCalls,
      toolErrors: truth.toolErrors,
      interactionsWithToolErrors: truth.interactionsWithToolErrors,
      activeAgents: 3,
      findings: truth.findings,
      flaggedInteractions: truth.flaggedInteractions,
      bySeverity: Object.fromEntries(
        SEVERITIES.map((sev) => [sev, currentFindings.filter((c) => c.f.severity === sev).length]),
      ),
      byThreatType: [...groupBy(currentFindings, (c) => c.f.threatType)]
        .map(([threatType, xs]) => ({
          threatType,
          findings: xs.length,
          interactions: uniq(xs.map((c) => c.s.id)),
        }))
        .sort((a, b) => b.findings - a.findings || a.threatType.localeCompare(b.threatType)),
    });
    // another account's data and the next day's interaction are invisible
    const other = await analytics.overview(client, db, { ...range, accountId: 'globex' });
    expect(other.interactions).toBe(OTHERS.length);
    const hostile = await analytics.overview(client, db, { ...range, accountId: "acme' OR 1=1 --" });
    expect(hostile.interactions).toBe(0);

    const activity = await analytics.hourlyActivity(client, db, range);
    const perHourFindings = groupBy(currentFindings, (c) => hourOf(c.s.receivedMs));
    expect(activity).toEqual(
      hourly().map((h) => {
        const found = perHourFindings.get(h.hour) ?? [];
        return {
          ...h,
          findings: found.length,
          bySeverity: Object.fromEntries(
            SEVERITIES.map((sev) => [sev, found.filter((c) => c.f.severity === sev).length]),
          ),
        };
      }),
    );

    expect(await analytics.topAgentsByDetections(client, db, { ...range, limit: 2 })).toEqual(
      topAgents()
        .slice(0, 2)
        .map(({ interactions, ...r }) => ({ ...camelKeys(r), flaggedInteractions: interactions })),
    );
    expect(await analytics.piiLeaksByType(client, db, { ...range, bucket: 'hour' })).toEqual(
      piiLeaks().map(camelKeys),
    );
    const daily = await analytics.piiLeaksByType(client, db, range);
    expect(daily.map((r) => r.bucket)).toEqual(daily.map(() => '2025-03-01 00:00:00'));
    expect(await analytics.injectionAttemptsByUser(client, db, range)).toEqual(
      injectionBy('userId').map(camelKeys),
    );
    expect(await analytics.injectionAttemptsBySession(client, db, range)).toEqual(
      injectionBy('sessionId').map(camelKeys),
    );
    expect(await analytics.toolCallFailures(client, db, range)).toEqual(toolFailures().map(camelKeys));
    expect(await analytics.latencyPercentiles(client, db, range)).toEqual(latency().map(camelKeys));
    expect(await analytics.tokensByModel(client, db, range)).toEqual(tokensByModel());
    expect(await analytics.detectionsByPlatform(client, db, range)).toEqual(
      byPlatform().map(({ interactions, ...r }) => ({ ...camelKeys(r), flaggedInteractions: interactions })),
    );
    const found = await analytics.detectionsForInteraction(client, db, {
      accountId: ACCOUNT,
      interactionId: interactionId(FINDINGS_OF),
    });
    expect(found.map((f) => [f.findingId, f.ruleId, f.detectorVersion, f.analyzedMs])).toEqual(
      findingsOf23().map(({ f, id }) => [id, f.ruleId, '2.0.0', REPLAY_STARTED_MS + FINDINGS_OF]),
    );
    expect(found[0]?.confidence).toBe(0.9);

    const list = await analytics.agents(client, db, range);
    const perAgentFindings = groupBy(currentFindings, (c) => c.s.agent.id);
    expect(list).toEqual(
      agentSeen().map((a) => ({
        agentId: a.agent,
        firstSeen: new Date(a.first).toISOString(),
        lastSeen: new Date(a.last).toISOString(),
        platforms: a.platforms,
        interactions: inRange.filter((s) => s.agent.id === a.agent).length,
        findings: perAgentFindings.get(a.agent)?.length ?? 0,
        bySeverity: Object.fromEntries(
          SEVERITIES.map((sev) => [
            sev,
            (perAgentFindings.get(a.agent) ?? []).filter((c) => c.f.severity === sev).length,
          ]),
        ),
      })),
    );
    expect(await analytics.eventCounts(client, db, range)).toEqual(
      acmeEvents().map((e) => ({ eventType: e.event_type, platform: e.platform, events: e.events })),
    );
    expect(await analytics.detectorVersions(client, db, range)).toEqual(
      versions().map((v) => ({
        detectorVersion: v.detector_version,
        interactions: v.interactions,
        findings: v.findings,
      })),
    );
  });

  it('interactionsInRange pages with a keyset cursor, one row per interaction, and rebuilds envelopes', async () => {
    const seen: string[] = [];
    let after: { interactionId: string; accountId: string } | undefined;
    for (let page = 0; page < 100; page += 1) {
      const res = await interactionsInRange(client, db, {
        from: DAY_FROM,
        to: DAY_TO,
        limit: 7,
        ...(after ? { after } : {}),
      });
      seen.push(...res.rows.map((r) => `${r.account_id}/${r.interaction_id}`));
      if (!res.next) break;
      after = res.next;
    }
    const expectedIds = [...inRange, ...OTHERS].map((s) => `${s.account}/${s.id}`);
    expect(seen).toHaveLength(expectedIds.length);
    expect(new Set(seen)).toEqual(new Set(expectedIds));
    const onlyAcme = await interactionsInRange(client, db, {
      from: DAY_FROM,
      to: DAY_TO,
      accountId: ACCOUNT,
      limit: 1000,
    });
    expect(onlyAcme.rows).toHaveLength(60);
    expect(onlyAcme.next).toBeNull();
    const first = ACME[0];
    if (!first) throw new Error('seed missing');
    const row = onlyAcme.rows.find((r) => r.interaction_id === first.id);
    expect(row && envelopeFromRow(row)).toEqual(envelopeOf(first));
  });

  it('dropExpiredPartitions keeps months inside the retention and drops whole expired months', async () => {
    expect(await dropExpiredPartitions(client, db, 30, Date.UTC(2025, 3, 20))).toEqual([]);
    const dropped = await dropExpiredPartitions(client, db, 30, Date.UTC(2025, 4, 15));
    expect(dropped.map((d) => `${d.table}:${d.partition}`).sort()).toEqual(
      [
        'agent_hourly',
        'analyses',
        'detection_hourly',
        'detections',
        'events',
        'hourly_summaries',
        'interactions',
        'rollup_versions',
      ].map((t) => `${t}:202503`),
    );
    const [left] = await selectRows<{ n: number }>(client, `SELECT count() AS n FROM ${db}.interactions`);
    expect(left?.n).toBe(0);
  });
});
