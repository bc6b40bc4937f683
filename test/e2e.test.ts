import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureTestTopics,
  eventually,
  queryRows,
  startIngest,
  startSink,
  testDatabase,
  uniqueName,
  type RunningIngest,
} from './support/pipeline';

describe('walking skeleton: HTTP → Kafka → sink → ClickHouse', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let ingest: RunningIngest;
  let sink: Awaited<ReturnType<typeof startSink>>;

  beforeAll(async () => {
    await ensureTestTopics();
    db = await testDatabase('warden_test_e2e');
    sink = await startSink(db.db);
    ingest = await startIngest();
  });

  afterAll(async () => {
    await ingest?.close();
    await sink?.stop();
    await db?.drop();
  });

  it('stores every accepted record exactly once, with metadata ids lifted', async () => {
    const agentId = uniqueName('agent');
    const n = 50;
    const answers = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`${ingest.url}/telemetry/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            agentId,
            prompt: `question ${i}`,
            response: `answer ${i}`,
            metadata: { sessionId: `s-${i % 5}`, model: 'gpt-4o', tokens_used: 10 + i },
            toolCalls: [{ name: 'search', input: { q: i }, output: { hits: 1 }, success: i % 10 !== 0 }],
          }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { status: string; agentId: string; interactionId: string };
      }),
    );
    expect(answers.every((a) => a.status === 'success' && a.agentId === agentId)).toBe(true);
    const ids = new Set(answers.map((a) => a.interactionId));
    expect(ids.size).toBe(n);

    const count = await eventually(
      async () =>
        (
          await queryRows<{ n: number }>(
            db.client,
            `SELECT uniqExact(interaction_id) AS n FROM ${db.db}.interactions WHERE agent_id = '${agentId}'`,
          )
        )[0]?.n ?? 0,
      (v) => Number(v) >= n,
    );
    expect(Number(count)).toBe(n);

    const rows = await queryRows<{
      interaction_id: string;
      session_id: string;
      model: string;
      tokens_used: number;
    }>(
      db.client,
      `SELECT interaction_id, session_id, model, tokens_used FROM ${db.db}.interactions FINAL WHERE agent_id = '${agentId}'`,
    );
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.interaction_id))).toEqual(ids);
    expect(rows.every((r) => r.session_id.startsWith('s-') && r.model === 'gpt-4o')).toBe(true);
  });

  it('answers 400 naming the missing field and stores nothing for it', async () => {
    const res = await fetch(`${ingest.url}/telemetry/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'x', prompt: 'p' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'MISSING_REQUIRED_FIELD',
        message: 'Missing required field: response.',
        details: { field: 'response', expected: 'string', received: 'undefined' },
      },
    });
  });
});
