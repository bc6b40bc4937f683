/** Entry of the Kafka writer thread (see KafkaWriterThread): producers and a DurableWriter. */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logger';
import { createDurableProducer, createKafka } from './client';
import { DurableWriter, KafkaUnavailableError, type FlushInfo } from './durable-writer';
import type { FromWriterThread, ToWriterThread, WriterThreadConfig } from './writer-thread';

const config = workerData as WriterThreadConfig;
const port = parentPort!;
// Without a logger name the thread is silent (tests).
const log = config.loggerName === undefined ? undefined : createLogger(config.loggerName);
const kafka = createKafka({
  brokers: config.brokers,
  clientId: config.clientId,
  ...(log ? { logger: log } : {}),
  ...(config.connectionTimeoutMs !== undefined ? { connectionTimeoutMs: config.connectionTimeoutMs } : {}),
});
// Several idempotent producers, each with one request in flight, overlap produce round trips.
const producers = Array.from({ length: config.producers }, () => createDurableProducer(kafka));
const connected = new Set<number>();
const reportConnected = () =>
  port.postMessage({ type: 'connected', producers: connected.size } satisfies FromWriterThread);
producers.forEach((p, i) => {
  p.on(p.events.CONNECT, () => {
    connected.add(i);
    reportConnected();
  });
  p.on(p.events.DISCONNECT, () => {
    connected.delete(i);
    reportConnected();
  });
});

let ok: number[] = [];
let failed: Array<{ id: number; reason: string }> = [];
let flushes: FlushInfo[] = [];
let scheduled = false;
/** Outcomes settled in one turn (one produce response settles many writes) go back as one message. */
function report(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    port.postMessage({ type: 'done', ok, failed, flushes } satisfies FromWriterThread);
    ok = [];
    failed = [];
    flushes = [];
  });
}

const writer = new DurableWriter(producers, {
  timeoutMs: config.timeoutMs,
  onFlush: (info) => {
    flushes.push(info);
    report();
  },
});

// Kafka may come up after the service: keep trying in the background; until then writes fail in time.
let stopping = false;
for (const producer of producers) {
  void (async function connectProducer(attempt = 1): Promise<void> {
    if (stopping) return;
    try {
      await producer.connect();
    } catch (err) {
      log?.warn({ err, attempt }, 'Kafka not reachable yet; retrying');
      setTimeout(() => void connectProducer(attempt + 1), Math.min(5000, 250 * attempt));
    }
  })();
}

port.on('message', (msg: ToWriterThread) => {
  if (msg.type === 'write') {
    for (const { id, topic, messages } of msg.writes) {
      writer.write(topic, messages).then(
        () => {
          ok.push(id);
          report();
        },
        (err: Error) => {
          failed.push({ id, reason: err instanceof KafkaUnavailableError ? err.reason : err.message });
          report();
        },
      );
    }
    return;
  }
  stopping = true;
  void writer
    .drain()
    .then(() => Promise.all(producers.map((p) => p.disconnect())))
    .catch((err: unknown) => log?.warn({ err }, 'Kafka writer did not close cleanly'))
    .finally(() => {
      // The last outcomes, then the answer to close.
      setImmediate(() => port.postMessage({ type: 'closed' } satisfies FromWriterThread));
    });
});
