/**
 * A stand-in for shared/src/kafka/writer-thread-entry.ts in shared/src/kafka/writer-thread.test.ts,
 * with no Kafka: the clientId picks the behaviour. `ack`: a write whose first message's value is
 * "fail" fails, the others are acknowledged, and each batch of writes is reported as one flush of
 * that many messages. `silent`: never answers. `exit`: the thread ends on its first write.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type {
  FromWriterThread,
  ToWriterThread,
  WriterThreadConfig,
} from '@warden/shared/kafka/writer-thread';

const { clientId } = workerData as WriterThreadConfig;
const port = parentPort!;
port.postMessage({ type: 'connected', producers: 1 } satisfies FromWriterThread);
port.on('message', (msg: ToWriterThread) => {
  if (msg.type === 'close') {
    port.postMessage({ type: 'closed' } satisfies FromWriterThread);
    return;
  }
  if (clientId === 'exit') process.exit(3);
  if (clientId !== 'ack') return;
  const failing = msg.writes.filter((w) => w.messages[0]?.value === 'fail');
  port.postMessage({
    type: 'done',
    ok: msg.writes.filter((w) => !failing.includes(w)).map((w) => w.id),
    failed: failing.map((w) => ({ id: w.id, reason: 'refused' })),
    flushes: [{ messages: msg.writes.length, ms: 1, ok: true }],
  } satisfies FromWriterThread);
});
