import { describe, expect, it } from 'vitest';
import { deadLetterMessage, decodeDeadLetter } from './dead-letters';

describe('dead letters on the wire', () => {
  const letter = {
    originalTopic: 'warden.interactions.v1',
    partition: 3,
    message: { offset: '42', key: 'k', value: Buffer.from('{"a":'), headers: { 'account-id': 'acct' } },
    reason: 'value is not JSON: Unexpected end of JSON input',
    step: 'decode',
    consumer: 'warden-sink',
  };

  it('keeps key, value and headers and adds where it came from and why', () => {
    const message = deadLetterMessage(letter);
    expect(message.key).toBe('k');
    expect(message.value).toBe(letter.message.value);
    expect(message.headers).toMatchObject({
      'account-id': 'acct',
      'dlq-original-topic': 'warden.interactions.v1',
      'dlq-original-partition': '3',
      'dlq-original-offset': '42',
      'dlq-reason': letter.reason,
      'dlq-step': 'decode',
      'dlq-consumer': 'warden-sink',
    });
  });

  it('reads the origin back from the headers as a consumer sees them (buffers)', () => {
    const headers = Object.fromEntries(
      Object.entries(deadLetterMessage({ ...letter, reason: 'x'.repeat(5000) }).headers!).map(([k, v]) => [
        k,
        Buffer.from(String(v)),
      ]),
    );
    const origin = decodeDeadLetter(headers);
    expect(origin).toMatchObject({
      originalTopic: letter.originalTopic,
      partition: 3,
      offset: '42',
      step: 'decode',
    });
    expect(origin!.reason).toHaveLength(1000);
    expect(Number.isNaN(Date.parse(origin!.timestamp))).toBe(false);
    expect(decodeDeadLetter({ 'account-id': Buffer.from('acct') })).toBeUndefined();
  });
});
