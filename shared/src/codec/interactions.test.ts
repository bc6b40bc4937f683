import { describe, expect, it } from 'vitest';
import { buildEnvelope, buildEventEnvelope } from '../schemas/envelope';
import { liftMetadataIds } from '../schemas/interaction';
import { decodeEnvelope, envelopeMessage, recordAsSentMessage } from './interactions';

const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };
const decode = (value: string | Buffer | null) =>
  decodeEnvelope(typeof value === 'string' ? Buffer.from(value) : value);

describe('interaction envelopes on the wire', () => {
  it('keys by account and conversation, else session, else the interaction', () => {
    const base = { agentId: 'a1', prompt: 'p', response: 'r' };
    const byConversation = buildEnvelope({ ...base, conversationId: 'c1', sessionId: 's1' }, source);
    const bySession = buildEnvelope({ ...base, sessionId: 's1' }, source);
    const alone = buildEnvelope(base, source);
    expect(envelopeMessage(byConversation).key).toBe('acct:c1');
    expect(envelopeMessage(bySession).key).toBe('acct:s1');
    expect(envelopeMessage(alone).key).toBe(`acct:${alone.interactionId}`);
    const event = buildEventEnvelope(
      { agentId: 'a1', eventType: 'message_end', sessionId: 's2', data: {} },
      source,
    );
    expect(envelopeMessage(event).key).toBe('acct:s2');
  });

  it('carries the ids consumers route by in headers', () => {
    const env = buildEnvelope({ agentId: 'a1', prompt: 'p', response: 'r' }, source);
    expect(envelopeMessage(env).headers).toEqual({
      'account-id': 'acct',
      'agent-id': 'a1',
      'interaction-id': env.interactionId,
      'schema-version': '1',
      'received-at': env.receivedAt,
    });
  });

  it('writes a record stored as sent with its own text, and decodes to the same envelope', () => {
    const text = '{"agentId":"a1",  "prompt":"p", "response":"r", "metadata":{"n":1}}';
    const env = buildEnvelope(JSON.parse(text), source);
    const value = recordAsSentMessage(env, text).value;
    expect(value).toContain(`"record":${text}}`);
    expect(decode(value)).toEqual({ ok: true, value: JSON.parse(JSON.stringify(env)) });
  });

  it('decodes an event envelope as an event', () => {
    const env = buildEventEnvelope(
      { agentId: 'a1', eventType: 'workflow_finished', data: { ok: true } },
      source,
    );
    const decoded = decode(String(envelopeMessage(env).value));
    expect(decoded.ok && 'event' in decoded.value && decoded.value.event.eventType).toBe('workflow_finished');
  });

  it('decodes a record whose metadata id is too long to lift: it is left in metadata', () => {
    const record = liftMetadataIds({
      agentId: 'a1',
      prompt: 'p',
      response: 'r',
      metadata: { sessionId: 's'.repeat(300), userId: 'u1' },
    });
    expect(record.sessionId).toBeUndefined();
    expect(record.userId).toBe('u1');
    expect(decode(String(envelopeMessage(buildEnvelope(record, source)).value)).ok).toBe(true);
  });

  it.each([
    ['an empty value', null, /^empty message value$/],
    ['not JSON', '{"a":', /^value is not JSON/],
    ['an array', '[1]', /^value is not a JSON object$/],
    ['no ids', '{"not":"an envelope"}', /not an interaction envelope: .*\/interactionId .*\/accountId/],
    [
      'a receivedAt that is no date-time',
      JSON.stringify({
        ...buildEnvelope({ agentId: 'a', prompt: 'p', response: 'r' }, source),
        receivedAt: 'yesterday',
      }),
      /\/receivedAt expected string to match 'date-time' format/,
    ],
    [
      'a record without a response',
      JSON.stringify(buildEnvelope({ agentId: 'a', prompt: 'p' } as never, source)),
      /\/record\/response expected required property/,
    ],
    [
      'an event without an eventType',
      JSON.stringify(buildEventEnvelope({ agentId: 'a' } as never, source)),
      /not an event envelope: \/event\/eventType/,
    ],
  ])('%s is poison, with a reason naming what is wrong', (_name, value, reason) => {
    const decoded = decode(value);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(reason);
  });
});
