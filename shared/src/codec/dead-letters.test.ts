import { describe, expect, it } from 'vitest';
import { messageBytes } from '../kafka/durable-writer';
import { messageLimit, topicNames } from '../kafka/topics';
import { deadLetterMessage, decodeDeadLetter } from './dead-letters';

describe('dead letters on the wire', () => {
  const letter = {
    originalTopic: 'warden.interactions.v1',
    partition: 3,
    message: { offset: '42', key: 'k', value: Buffer.from('{"a":'), headers: { 'account-id': 'acct' } },
    reason: 'value is not JSON: Unexpected end of JSON input',
    reasonClass: 'invalid' as const,
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
      'dlq-reason-class': 'invalid',
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

  const consumerHeaders = (headers: NonNullable<ReturnType<typeof deadLetterMessage>['headers']>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(String(v))]));

  it('keeps the largest message the interactions topic takes whole: the DLQ takes it with its headers', () => {
    const names = topicNames('');
    const value = Buffer.alloc(messageLimit(names.interactions) - 200, 'x');
    const big = { ...letter, message: { ...letter.message, value } };
    expect(messageBytes({ key: big.message.key, value, headers: big.message.headers })).toBeLessThanOrEqual(
      messageLimit(names.interactions),
    );
    const message = deadLetterMessage(big, messageLimit(names.dlq));
    expect(message.value).toBe(value);
    expect(decodeDeadLetter(consumerHeaders(message.headers!))?.truncated).toBeUndefined();
  });

  it('cuts a dead letter to the limit it is given, saying what it cut', () => {
    const value = Buffer.alloc(10_000, 'v');
    const message = deadLetterMessage({ ...letter, message: { ...letter.message, value } }, 4000);
    expect(messageBytes(message)).toBeLessThanOrEqual(4000);
    expect(message.key).toBe('k');
    expect((message.value as Buffer).length).toBeGreaterThan(2000);
    expect(message.headers).toMatchObject({
      'account-id': 'acct',
      'dlq-truncated': 'value',
      'dlq-original-value-bytes': '10000',
    });
    const origin = decodeDeadLetter(consumerHeaders(message.headers!));
    expect(origin).toMatchObject({
      truncated: 'value',
      reasonClass: 'invalid',
      step: 'decode',
      offset: '42',
    });
  });

  it('drops the original key and headers too when they alone are over the limit, keeping where and why', () => {
    const hostile = {
      ...letter,
      message: { ...letter.message, key: 'k'.repeat(5000), headers: { junk: 'j'.repeat(5000) } },
    };
    const message = deadLetterMessage(hostile, 2000);
    expect(messageBytes(message)).toBeLessThanOrEqual(2000);
    expect(message.key).toBeNull();
    expect(message.headers!.junk).toBeUndefined();
    expect(message.headers).toMatchObject({
      'dlq-truncated': 'key,headers,value',
      'dlq-reason': letter.reason,
    });
    // With no room at all, the headers that say where it came from and why still go.
    const bare = deadLetterMessage(hostile, 0);
    expect((bare.value as Buffer).length).toBe(0);
    expect(decodeDeadLetter(consumerHeaders(bare.headers!))).toMatchObject({
      originalTopic: letter.originalTopic,
    });
  });
});
