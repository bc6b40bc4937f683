import { describe, expect, it } from 'vitest';
import type { DetectionAnalysis, Finding } from '../schemas/detection';
import { buildEnvelope } from '../schemas/envelope';
import { analysisRow, detectionRows, envelopeFromRow, eventRow, findingId, interactionRow } from './rows';

const finding = (over: Partial<Finding> = {}): Finding => ({
  detector: 'pii',
  detectorVersion: '1.0.0',
  ruleId: 'pii.email',
  threatType: 'pii_leak',
  severity: 'medium',
  confidence: 0.9,
  field: 'response',
  start: 5,
  end: 25,
  view: 'raw',
  entityType: 'EMAIL_ADDRESS',
  explanation: 'email address in response',
  masked: '****@example.com',
  ...over,
});

const analysis = (findings: Finding[], analyzedAt = '2025-03-01T10:00:02.345Z'): DetectionAnalysis => ({
  schemaVersion: 1,
  interactionId: 'i-1',
  accountId: 'acme',
  agentId: 'bot',
  receivedAt: '2025-03-01T10:00:00.123Z',
  analyzedAt,
  detectorVersion: '1.0.0',
  platform: 'custom',
  userId: 'u-1',
  findings,
});

describe('findingId', () => {
  it('is the same for the same finding whatever the version, time or wording', () => {
    const a = findingId('i-1', finding());
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(findingId('i-1', finding({ detectorVersion: '2.0.0', confidence: 0.1, explanation: 'x' }))).toBe(
      a,
    );
  });

  it('differs when any identifying part differs', () => {
    const a = findingId('i-1', finding());
    const variants: Partial<Finding>[] = [
      { detector: 'pii2' },
      { ruleId: 'pii.phone' },
      { field: 'prompt' },
      { start: 6 },
      { end: 26 },
      { view: 'nfkc' },
    ];
    for (const v of variants) expect(findingId('i-1', finding(v))).not.toBe(a);
    expect(findingId('i-2', finding())).not.toBe(a);
  });

  it('cannot be forged by moving text between parts', () => {
    expect(findingId('a', finding({ detector: 'b|c' }))).not.toBe(
      findingId('a|b', finding({ detector: 'c' })),
    );
  });
});

describe('detectionRows / analysisRow', () => {
  it('maps one row per finding with millisecond run time and masked values only', () => {
    const rows = detectionRows(analysis([finding(), finding({ ruleId: 'pii.phone', start: 30, end: 42 })]));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      account_id: 'acme',
      interaction_id: 'i-1',
      finding_id: findingId('i-1', finding()),
      received_at: '2025-03-01 10:00:00',
      received_ms: Date.parse('2025-03-01T10:00:00.123Z'),
      analyzed_at: '2025-03-01 10:00:02',
      analyzed_ms: Date.parse('2025-03-01T10:00:02.345Z'),
      analysis_detector_version: '1.0.0',
      user_id: 'u-1',
      session_id: '',
      span_start: 5,
      span_end: 25,
      entity_type: 'EMAIL_ADDRESS',
      masked: '****@example.com',
    });
  });

  it('writes an analysis row also without findings, counting distinct findings', () => {
    expect(detectionRows(analysis([]))).toEqual([]);
    expect(analysisRow(analysis([])).finding_count).toBe(0);
    expect(analysisRow(analysis([finding(), finding()])).finding_count).toBe(1);
  });

  it('clamps confidence and offsets to what the columns hold', () => {
    const [row] = detectionRows(analysis([finding({ confidence: 1.7, start: -3 })]));
    expect(row?.confidence).toBe(1);
    expect(row?.span_start).toBe(0);
  });

  it('rejects a time that is not ISO', () => {
    expect(() => analysisRow(analysis([], 'yesterday'))).toThrow(/analyzedAt/);
  });
});

describe('interactionRow tool columns', () => {
  it('keeps per-call failure flags and durations parallel to tool_names', () => {
    const env = buildEnvelope(
      {
        agentId: 'bot',
        prompt: 'p',
        response: 'r',
        toolCalls: [
          { name: 'search', success: true, execution_time_ms: 12 },
          { name: 'db', success: false },
          { name: 'mail', error: 'timeout' },
        ],
      },
      { accountId: 'acme', endpoint: '/x', platform: 'custom', now: new Date('2025-03-01T10:00:00Z') },
    );
    const row = interactionRow(env);
    expect(row.tool_names).toEqual(['search', 'db', 'mail']);
    expect(row.tool_failed).toEqual([0, 1, 1]);
    expect(row.tool_ms).toEqual([12, 0, 0]);
    expect(row.tool_failures).toBe(2);
  });

  it('round-trips through envelopeFromRow', () => {
    const env = buildEnvelope(
      {
        agentId: 'bot',
        prompt: "it's \\ here",
        response: 'r',
        metadata: { model: 'gpt-4o', tokens_used: 3, ...{ custom: { deep: [1, 2] } } },
        toolCalls: [{ name: 'search', input: { q: 'x' } }],
        userId: 'u',
        conversationId: 'c',
        workflowId: 'w',
        ...{ somethingExtra: 42 },
      },
      { accountId: 'acme', endpoint: '/x', platform: 'n8n', now: new Date('2025-03-01T10:00:00.456Z') },
    );
    expect(envelopeFromRow(interactionRow(env))).toEqual(env);
  });
});

describe('eventRow', () => {
  const env = {
    schemaVersion: 1,
    interactionId: 'ev-1',
    accountId: 'acme',
    receivedAt: '2025-03-01T10:00:00.500Z',
    source: { endpoint: '/api/v1/integrations/dify/telemetry', platform: 'dify' },
    event: {
      agentId: 'bot',
      eventType: 'message_end',
      conversationId: 'c-1',
      messageId: 'm-1',
      data: { a: 1 },
    },
  };

  it('maps ids and keeps data as JSON; occurred time falls back to receive time', () => {
    expect(eventRow(env)).toMatchObject({
      event_id: 'ev-1',
      event_type: 'message_end',
      received_ms: Date.parse('2025-03-01T10:00:00.500Z'),
      occurred_at: '2025-03-01 10:00:00',
      conversation_id: 'c-1',
      message_id: 'm-1',
      user_id: '',
      data: '{"a":1}',
    });
  });

  it('trusts a client clock only when it is plausible', () => {
    const ok = eventRow({ ...env, event: { ...env.event, occurredAt: '2025-03-01T09:59:00Z' } });
    expect(ok.occurred_at).toBe('2025-03-01 09:59:00');
    const future = eventRow({ ...env, event: { ...env.event, occurredAt: '2030-01-01T00:00:00Z' } });
    expect(future.occurred_ms).toBe(future.received_ms);
  });
});
