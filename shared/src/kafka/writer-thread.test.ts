import { describe, expect, it } from 'vitest';
import { KafkaUnavailableError, type FlushInfo } from './durable-writer';
import { KafkaWriterThread } from './writer-thread';

const fake = (behaviour: 'ack' | 'silent' | 'exit', flushes: FlushInfo[] = [], timeoutMs = 5000) =>
  new KafkaWriterThread({
    brokers: [],
    clientId: behaviour,
    producers: 1,
    timeoutMs,
    onFlush: (info) => flushes.push(info),
    entry: new URL('../../../test/support/writer-thread-fake-entry.ts', import.meta.url),
  });

describe('KafkaWriterThread', () => {
  it('hands one turn’s writes over together and settles each with its own outcome', async () => {
    const flushes: FlushInfo[] = [];
    const writer = fake('ack', flushes);
    try {
      await writer.connect();
      expect(writer.connected).toBe(true);
      const outcomes = await Promise.allSettled(
        ['a', 'fail', 'b', 'c'].map((value) => writer.write('t', [{ key: 'k', value }])),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      const failure = (outcomes[1] as PromiseRejectedResult).reason as KafkaUnavailableError;
      expect(failure).toBeInstanceOf(KafkaUnavailableError);
      expect(failure.message).toBe('Kafka did not acknowledge the write: refused');
      // The four writes crossed in one message; the thread's flush reached onFlush.
      expect(flushes).toEqual([{ messages: 4, ms: 1, ok: true }]);
    } finally {
      await writer.close();
    }
  });

  it('rejects a write the thread never answers shortly after the timeout', async () => {
    const writer = fake('silent', [], 300);
    try {
      const started = performance.now();
      await expect(writer.write('t', [{ value: 'a' }])).rejects.toBeInstanceOf(KafkaUnavailableError);
      const ms = performance.now() - started;
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(ms).toBeLessThan(1500);
    } finally {
      await writer.close();
    }
  });

  it('fails the pending writes of a thread that died, and the next write starts a new thread', async () => {
    const writer = fake('exit', [], 60_000);
    try {
      const started = performance.now();
      await expect(writer.write('t', [{ value: 'a' }])).rejects.toThrow(/exited with code 3/);
      expect(performance.now() - started).toBeLessThan(10_000);
      await expect(writer.write('t', [{ value: 'b' }])).rejects.toThrow(/exited with code 3/);
    } finally {
      await writer.close();
    }
  });

  it('refuses writes once closing', async () => {
    const writer = fake('ack');
    await writer.connect();
    await writer.close();
    await expect(writer.write('t', [{ value: 'a' }])).rejects.toBeInstanceOf(KafkaUnavailableError);
  });
});
