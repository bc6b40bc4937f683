import { describe, expect, it } from 'vitest';
import { liftMetadataIds } from '@warden/shared/schemas/interaction';
import { admitEvent, admitRecord } from './admit';
import { ApiError } from './errors';

const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };
const admit = (text: string, withText = true, maxRecordBytes = 1 << 20) =>
  admitRecord(JSON.parse(text), source, { maxRecordBytes, ...(withText ? { text } : {}) });
const refusal = (run: () => unknown) => {
  try {
    run();
    return undefined;
  } catch (err) {
    return (err as ApiError).toBody().error;
  }
};

describe('the message admitRecord encodes', () => {
  it('writes a record that is the body as sent with the body text itself', () => {
    const text = '{"agentId":"a1",  "prompt":"p", "response":"r", "metadata":{"big":12345678901234567890}}\n';
    const admitted = admit(text);
    const value = admitted.message.value;
    expect(value).toContain(`"record":${text}}`);
    // The same envelope as serialising the parsed objects would give.
    const { record, ...head } = JSON.parse(value);
    expect(record).toEqual(JSON.parse(text));
    expect(head).toMatchObject({
      schemaVersion: 1,
      accountId: 'acct',
      interactionId: admitted.interactionId,
    });
    expect(admitted.message.headers['interaction-id']).toBe(admitted.interactionId);
    expect(admitted.agentId).toBe('a1');
  });

  it('serialises the record when ids were lifted from metadata or no text was given', () => {
    const text = '{"agentId":"a1","prompt":"p","response":"r","metadata":{"sessionId":"s9"}}';
    const lifted = admit(text).message.value;
    expect(JSON.parse(lifted).record.sessionId).toBe('s9');
    expect(lifted).toBe(JSON.stringify(JSON.parse(lifted)));
    const plain = admit('{"agentId":"a1", "prompt":"p","response":"r"}', false).message.value;
    expect(plain).toBe(JSON.stringify(JSON.parse(plain)));
  });
});

describe('the size limit', () => {
  // 1e20 is written 100000000000000000000 when serialised: 4.4 times the bytes it was sent as.
  const numbers = Array.from({ length: 2000 }, () => '1e20').join(',');
  const text = `{"agentId":"a","prompt":"p","response":"r","metadata":{"n":[${numbers}]}}`;

  it('measures a record as stored, not as sent', () => {
    expect(text.length).toBeLessThan(16 * 1024);
    expect(refusal(() => admit(text, false, 16 * 1024))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { field: '(record)', expected: 'at most 16384 bytes' },
    });
    // As sent, its text is what is stored, and fits.
    expect(refusal(() => admit(text, true, 16 * 1024))).toBeUndefined();
  });

  it('applies to events, and counts multi-byte characters as their UTF-8 bytes', () => {
    const event = { agentId: 'a', eventType: 'workflow_finished', data: { n: JSON.parse(`[${numbers}]`) } };
    expect(refusal(() => admitEvent(event, source, { maxRecordBytes: 16 * 1024 }))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { field: '(event)' },
    });
    const euros = `{"agentId":"a","prompt":"${'€'.repeat(3000)}","response":"r"}`;
    const bytes = Buffer.byteLength(admit(euros).message.value);
    expect(refusal(() => admit(euros, true, bytes))).toBeUndefined();
    expect(refusal(() => admit(euros, true, bytes - 1))?.details?.received).toBe(`${bytes} bytes`);
  });
});

describe('liftMetadataIds', () => {
  it('returns the record itself when there is nothing to lift, a copy otherwise', () => {
    const plain = { agentId: 'a', prompt: 'p', response: 'r', metadata: { model: 'm', sessionId: '' } };
    expect(liftMetadataIds(plain)).toBe(plain);
    const withIds = { ...plain, sessionId: 's1', metadata: { sessionId: 's2', userId: 'u7' } };
    const lifted = liftMetadataIds(withIds);
    expect(lifted).not.toBe(withIds);
    expect(lifted).toMatchObject({ sessionId: 's1', userId: 'u7' });
    expect(withIds).not.toHaveProperty('userId');
  });
});
