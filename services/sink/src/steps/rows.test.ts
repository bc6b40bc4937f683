import { describe, expect, it } from 'vitest';
import { topics } from '@warden/shared/kafka/topics';
import { buildEnvelope, buildEventEnvelope } from '@warden/shared/schemas/envelope';
import { inlineDecoder, packValues, ThreadDecoder, unpackValues } from './decode-threads';
import { messageRows, runRows } from './rows';

const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };

describe('sink decode', () => {
  it('maps an interaction envelope to one interactions row', () => {
    const env = buildEnvelope(
      { agentId: 'a', prompt: 'p', response: 'r', metadata: { tokens_used: 7 } },
      source,
    );
    const decoded = messageRows(topics.interactions, Buffer.from(JSON.stringify(env)));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.value).toHaveLength(1);
    expect(decoded.value[0]!.table).toBe('interactions');
    expect(decoded.value[0]!.row).toMatchObject({
      interaction_id: env.interactionId,
      account_id: 'acct',
      tokens_used: 7,
    });
  });

  it('maps a platform event envelope to an events row', () => {
    const env = buildEventEnvelope({ agentId: 'a', eventType: 'message_end', data: {} }, source);
    const decoded = messageRows(topics.interactions, Buffer.from(JSON.stringify(env)));
    expect(decoded.ok && decoded.value[0]!.table).toBe('events');
  });

  it('maps an analysis to an analyses row plus one detections row per finding', () => {
    const analysis = {
      schemaVersion: 1,
      interactionId: 'i1',
      accountId: 'acct',
      agentId: 'a',
      receivedAt: new Date().toISOString(),
      analyzedAt: new Date().toISOString(),
      detectorVersion: 'v1',
      platform: 'custom',
      findings: [
        {
          detector: 'pii',
          detectorVersion: 'v1',
          ruleId: 'pii.email',
          threatType: 'pii_leak',
          severity: 'medium',
          confidence: 0.9,
          field: 'prompt',
          start: 0,
          end: 5,
          view: 'raw',
          explanation: 'email',
        },
      ],
    };
    const decoded = messageRows(topics.detections, Buffer.from(JSON.stringify(analysis)));
    expect(decoded.ok && decoded.value.map((r) => r.table)).toEqual(['analyses', 'detections']);
  });

  it.each([
    ['empty', ''],
    ['not JSON', '{"a":'],
    ['an array', '[1]'],
    ['no ids', '{"record":{"agentId":"a","prompt":"p","response":"r"}}'],
    [
      'a bad receivedAt',
      '{"interactionId":"i","accountId":"a","receivedAt":"yesterday","record":{"agentId":"a","prompt":"p"}}',
    ],
  ])('%s is poison, with a reason', (_name, value) => {
    const decoded = messageRows(topics.interactions, Buffer.from(value));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason.length).toBeGreaterThan(5);
  });
});

describe('sink decode runs', () => {
  const values = [
    Buffer.from(
      JSON.stringify(buildEnvelope({ agentId: 'a', prompt: 'żółw 🐢\nline', response: 'r' }, source)),
    ),
    null,
    Buffer.from('{"a":'),
    Buffer.from(
      JSON.stringify(buildEventEnvelope({ agentId: 'a', eventType: 'message_end', data: {} }, source)),
    ),
    Buffer.from(JSON.stringify(buildEnvelope({ agentId: 'b', prompt: 'p2', response: 'r2' }, source))),
  ];
  const lines = (chunks: Uint8Array[]) =>
    Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l));

  it('packs values into one buffer and unpacks them unchanged, nulls included', () => {
    const packed = packValues(values);
    expect(packed.data.buffer.byteLength).toBe(packed.data.byteLength);
    expect(unpackValues(packed)).toEqual(values);
  });

  it('serializes every row per table in order and reports poison messages by index', () => {
    const run = runRows(topics.interactions, values);
    expect(run.failures.map((f) => f.index)).toEqual([1, 2]);
    expect(run.failures[0]!.reason).toMatch(/empty/);
    const byTable = Object.fromEntries(run.tables.map((t) => [t.table, t]));
    expect(byTable.interactions!.rows).toBe(2);
    expect(lines(byTable.interactions!.chunks).map((r) => r.prompt)).toEqual(['żółw 🐢\nline', 'p2']);
    expect(byTable.events!.rows).toBe(1);
  });

  it('gives the same rows on a decode thread as on the calling thread', async () => {
    const threads = new ThreadDecoder(2);
    try {
      const [a, b] = await Promise.all([
        threads.decode(topics.interactions, values),
        threads.decode(topics.interactions, values.slice(3)),
      ]);
      const inline = await inlineDecoder().decode(topics.interactions, values);
      expect(a!.failures).toEqual(inline.failures);
      expect(a!.tables.map((t) => [t.table, t.rows, lines(t.chunks)])).toEqual(
        inline.tables.map((t) => [t.table, t.rows, lines(t.chunks)]),
      );
      expect(b!.tables.map((t) => t.rows)).toEqual([1, 1]);
    } finally {
      await threads.close();
    }
  });
});
