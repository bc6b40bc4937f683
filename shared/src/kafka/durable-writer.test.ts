import { KafkaJSConnectionError, KafkaJSProtocolError, type Producer, type ProducerBatch } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { DurableWriter, KafkaRefusedError, KafkaUnavailableError, messageBytes } from './durable-writer';
import { MAX_MESSAGE_BYTES, messageLimit } from './topics';

/** A producer whose requests complete only when the test says so. */
function manualProducer() {
  const requests: Array<{ batch: ProducerBatch; resolve: () => void; reject: (e: Error) => void }> = [];
  const producer = {
    sendBatch: (batch: ProducerBatch) =>
      new Promise<never[]>((resolve, reject) => requests.push({ batch, resolve: () => resolve([]), reject })),
  } as unknown as Producer;
  return { producer, requests };
}

const count = (batch: ProducerBatch) => batch.topicMessages!.reduce((n, t) => n + t.messages.length, 0);
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('DurableWriter', () => {
  it('sends with acks=all and coalesces writes that arrive while a request is in flight', async () => {
    const { producer, requests } = manualProducer();
    const writer = new DurableWriter(producer);
    const first = writer.write('t', [{ value: 'a' }]);
    const rest = [writer.write('t', [{ value: 'b' }]), writer.write('u', [{ value: 'c' }, { value: 'd' }])];
    await tick();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.batch.acks).toBe(-1);
    requests[0]!.resolve();
    await first;
    await tick();
    expect(requests).toHaveLength(2);
    expect(count(requests[1]!.batch)).toBe(3);
    requests[1]!.resolve();
    await Promise.all(rest);
  });

  it('keeps a small backlog for the request in flight and spreads a large one over free producers', async () => {
    const a = manualProducer();
    const b = manualProducer();
    const writer = new DurableWriter([a.producer, b.producer], { spreadBytes: 1000, spreadAfterMs: 60_000 });
    const all = () => [...a.requests, ...b.requests];
    const small = [writer.write('t', [{ value: '1' }]), writer.write('t', [{ value: '2' }])];
    await tick();
    // One request in flight; the second write (far below 1,000 bytes) waits for it.
    expect(all()).toHaveLength(1);
    const large = writer.write('t', [{ value: 'x'.repeat(1200) }]);
    await tick();
    // The backlog passed spreadBytes: the free producer takes it (with the small write queued before it).
    expect(all()).toHaveLength(2);
    expect(
      all()
        .map((r) => count(r.batch))
        .sort(),
    ).toEqual([1, 2]);
    for (const r of all()) r.resolve();
    await Promise.all([...small, large]);
  });

  it('lets a free producer take a small backlog once the request in flight is slow', async () => {
    const a = manualProducer();
    const b = manualProducer();
    const writer = new DurableWriter([a.producer, b.producer], { spreadAfterMs: 30 });
    const all = () => [...a.requests, ...b.requests];
    const writes = [writer.write('t', [{ value: '1' }]), writer.write('t', [{ value: '2' }])];
    await tick();
    expect(all()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(all()).toHaveLength(2);
    for (const r of all()) r.resolve();
    await Promise.all(writes);
  });

  it('rejects every caller of a failed request, and times out a write never acknowledged', async () => {
    const { producer, requests } = manualProducer();
    const writer = new DurableWriter(producer, { timeoutMs: 50 });
    const inFlight = writer.write('t', [{ value: 'x' }]);
    const queued = writer.write('t', [{ value: 'y' }]);
    await expect(inFlight).rejects.toBeInstanceOf(KafkaUnavailableError);
    await expect(queued).rejects.toThrow(/no acknowledgement within 50 ms/);
    // The queued write timed out before it was sent: it must never be sent later.
    requests[0]!.reject(new Error('broker gone'));
    await tick();
    expect(requests).toHaveLength(1);

    const again = writer.write('t', [{ value: 'z' }]);
    await tick();
    requests[1]!.reject(new Error('broker gone'));
    await expect(again).rejects.toThrow(/broker gone/);
  });
});

describe('DurableWriter request size', () => {
  it('splits a write over maxBatchBytes into requests in order and resolves after all of them', async () => {
    const { producer, requests } = manualProducer();
    const writer = new DurableWriter(producer, { maxBatchBytes: 1000 });
    const messages = Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: `${i}`.padEnd(300, '.') }));
    let done = false;
    const write = writer.write('t', messages).then(() => (done = true));
    const sent: string[] = [];
    for (let r = 0; r < 10 && !done; r++) {
      await tick();
      const req = requests[r];
      if (!req) break;
      const msgs = req.batch.topicMessages![0]!.messages;
      // A message counts 333 bytes (value, key, record overhead): three fit in 1,000, a fourth does not.
      expect(msgs).toHaveLength(r < 3 ? 3 : 1);
      sent.push(...msgs.map((m) => String(m.value).replace(/\.+$/, '')));
      expect(done).toBe(false);
      req.resolve();
    }
    await write;
    expect(sent).toEqual(messages.map((_, i) => `${i}`));
  });

  it('sends a single message larger than the bound on its own', async () => {
    const { producer, requests } = manualProducer();
    const writer = new DurableWriter(producer, { maxBatchBytes: 100 });
    const write = writer.write('t', [{ value: 'x'.repeat(500) }, { value: 'y' }]);
    await tick();
    expect(count(requests[0]!.batch)).toBe(1);
    requests[0]!.resolve();
    await tick();
    expect(count(requests[1]!.batch)).toBe(1);
    requests[1]!.resolve();
    await write;
  });
});

/** A broker error as kafkajs raises it (its typings take only a message). */
const protocolError = (type: string, retriable: boolean, message: string) =>
  Object.assign(new KafkaJSProtocolError(message), { type, retriable });

/** The broker's answer to a record it refuses for good, as kafkajs raises it (not retried). */
const tooLarge = () =>
  protocolError(
    'MESSAGE_TOO_LARGE',
    false,
    'The request included a message larger than the max message size the server will accept',
  );

/**
 * A producer that answers at once: a request holding a message whose value is `bad` fails with
 * `failure()`, like a broker refusing one partition's batch; everything else is acknowledged.
 */
function answeringProducer(failure: () => Error = tooLarge) {
  const requests: string[][] = [];
  const state = { connected: true };
  const producer = {
    connect: async () => void (state.connected = true),
    disconnect: async () => void (state.connected = false),
    sendBatch: async (batch: ProducerBatch) => {
      const values = batch.topicMessages!.flatMap((t) => t.messages.map((m) => String(m.value)));
      requests.push(values);
      if (values.includes('bad')) throw failure();
      return [];
    },
  } as unknown as Producer;
  return { producer, requests, state };
}

describe('DurableWriter and what Kafka refuses for good', () => {
  it('refuses a message over the topic limit before sending anything, and writeEach writes the rest', async () => {
    const { producer, requests } = answeringProducer();
    const writer = new DurableWriter(producer, { maxMessageBytes: () => 200 });
    const messages = [{ value: 'a' }, { value: 'x'.repeat(500) }, { value: 'b' }];
    const refused = await writer.write('t', messages).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KafkaRefusedError);
    expect(refused).toMatchObject({ refusal: 'too_large', indexes: [1] });
    expect(requests).toHaveLength(0);

    expect(await writer.writeEach('t', messages)).toEqual([
      { index: 1, refusal: 'too_large', reason: expect.stringMatching(/larger than t takes \(200 bytes\)/) },
    ]);
    expect(requests).toEqual([['a', 'b']]);
  });

  it("takes each Warden topic's limit by default: the DLQ's leaves room for a full-size message's dead letter", () => {
    const writer = new DurableWriter(answeringProducer().producer);
    expect(writer.limitOf('any.warden.interactions.v1')).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(writer.limitOf('x.warden.dlq.v1') - writer.limitOf('x.warden.interactions.v1')).toBeGreaterThan(
      32 * 1024,
    );
    expect(writer.limitOf('t')).toBe(messageLimit('t'));
    expect(messageBytes({ key: 'k', value: 'vv', headers: { h: 'x' } })).toBe(32 + 1 + 2 + 8 + 1 + 1);
  });

  it('narrows a request Kafka refused as a whole down to the message it refused, and goes on', async () => {
    const { producer, requests } = answeringProducer();
    const writer = new DurableWriter(producer);
    const values = ['m0', 'm1', 'bad', 'm3', 'm4'];
    const refused = await writer.writeEach(
      't',
      values.map((value) => ({ value })),
    );
    expect(refused).toEqual([
      { index: 2, refusal: 'too_large', reason: expect.stringMatching(/larger than the max/) },
    ]);
    // Every other message was acknowledged in a request without the refused one.
    const acknowledged = requests.filter((r) => !r.includes('bad')).flat();
    expect(new Set(acknowledged)).toEqual(new Set(['m0', 'm1', 'm3', 'm4']));
    // write() itself reports the refusal as final, not as Kafka being unavailable.
    await expect(writer.write('t', [{ value: 'bad' }])).rejects.toBeInstanceOf(KafkaRefusedError);
  });

  it('rejects a transient failure as unavailable, for the caller to retry: nothing is set aside', async () => {
    const down = answeringProducer(() => new KafkaJSConnectionError('Connection error: ECONNREFUSED'));
    const writer = new DurableWriter(down.producer);
    await expect(writer.writeEach('t', [{ value: 'ok' }, { value: 'bad' }])).rejects.toBeInstanceOf(
      KafkaUnavailableError,
    );
    const notEnoughReplicas = answeringProducer(() =>
      protocolError(
        'NOT_ENOUGH_REPLICAS',
        true,
        'Messages are rejected since there are fewer in-sync replicas than required',
      ),
    );
    const other = new DurableWriter(notEnoughReplicas.producer);
    await expect(other.write('t', [{ value: 'bad' }])).rejects.toBeInstanceOf(KafkaUnavailableError);
  });

  it('replaces a producer whose request of several messages was refused (its sequence numbers are suspect)', async () => {
    const first = answeringProducer();
    const fresh = answeringProducer();
    const writer = new DurableWriter(first.producer, { createProducer: () => fresh.producer });
    expect(
      await writer.writeEach(
        't',
        ['a', 'bad'].map((value) => ({ value })),
      ),
    ).toHaveLength(1);
    expect(first.state.connected).toBe(false);
    expect(first.requests).toEqual([['a', 'bad']]);
    // The halves went out on the new producer.
    expect(fresh.requests).toEqual([['a'], ['bad']]);
    await writer.close();
    expect(fresh.state.connected).toBe(false);
  });
});
