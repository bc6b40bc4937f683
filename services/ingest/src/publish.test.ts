import { describe, expect, it } from 'vitest';
import { liftMetadataIds } from '@warden/shared/schemas/interaction';
import { admitRecord } from './admit';
import { envelopeMessage } from '@warden/shared/codec/index';

const source = { accountId: 'acct', endpoint: '/telemetry/ingest', platform: 'custom' };
const admit = (text: string, withText = true) =>
  admitRecord(JSON.parse(text), source, { maxRecordBytes: 1 << 20, ...(withText ? { text } : {}) });

describe('envelopeMessage', () => {
  it('writes a record that is the body as sent with the body text itself', () => {
    const text = '{"agentId":"a1",  "prompt":"p", "response":"r", "metadata":{"big":12345678901234567890}}\n';
    const env = admit(text);
    const value = String(envelopeMessage(env).value);
    expect(value).toContain(`"record":${text}}`);
    // The same envelope as serialising the parsed objects would give.
    expect(JSON.parse(value)).toEqual(JSON.parse(JSON.stringify(env)));
    expect(JSON.parse(value).interactionId).toBe(env.interactionId);
  });

  it('serialises the record when ids were lifted from metadata or no text was given', () => {
    const text = '{"agentId":"a1","prompt":"p","response":"r","metadata":{"sessionId":"s9"}}';
    const lifted = admit(text);
    expect(lifted.record.sessionId).toBe('s9');
    expect(String(envelopeMessage(lifted).value)).toBe(JSON.stringify(lifted));
    const plain = admit('{"agentId":"a1", "prompt":"p","response":"r"}', false);
    expect(String(envelopeMessage(plain).value)).toBe(JSON.stringify(plain));
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
