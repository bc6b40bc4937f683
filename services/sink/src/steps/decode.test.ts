import { describe, expect, it } from 'vitest';
import { topics } from '@warden/shared/kafka/topics';
import { buildEnvelope, buildEventEnvelope } from '@warden/shared/schemas/envelope';
import { decodeMessage } from './decode';

const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };

describe('sink decode', () => {
  it('maps an interaction envelope to one interactions row', () => {
    const env = buildEnvelope(
      { agentId: 'a', prompt: 'p', response: 'r', metadata: { tokens_used: 7 } },
      source,
    );
    const decoded = decodeMessage(topics.interactions, Buffer.from(JSON.stringify(env)));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.rows).toHaveLength(1);
    expect(decoded.rows[0]!.table).toBe('interactions');
    expect(decoded.rows[0]!.row).toMatchObject({
      interaction_id: env.interactionId,
      account_id: 'acct',
      tokens_used: 7,
    });
  });

  it('maps a platform event envelope to an events row', () => {
    const env = buildEventEnvelope({ agentId: 'a', eventType: 'message_end', data: {} }, source);
    const decoded = decodeMessage(topics.interactions, Buffer.from(JSON.stringify(env)));
    expect(decoded.ok && decoded.rows[0]!.table).toBe('events');
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
    const decoded = decodeMessage(topics.detections, Buffer.from(JSON.stringify(analysis)));
    expect(decoded.ok && decoded.rows.map((r) => r.table)).toEqual(['analyses', 'detections']);
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
    const decoded = decodeMessage(topics.interactions, Buffer.from(value));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason.length).toBeGreaterThan(5);
  });
});
