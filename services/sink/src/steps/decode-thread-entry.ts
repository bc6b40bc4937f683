/** Entry of a sink decode thread: runs of packed messages in, rows as JSONEachRow chunks out. */
import { parentPort } from 'node:worker_threads';
import { unpackValues, type DecodeRequest } from './decode-threads';
import { runRows } from './rows';

parentPort!.on('message', (req: DecodeRequest) => {
  const run = runRows(req.topic, unpackValues(req));
  const buffers = new Set<ArrayBuffer>();
  for (const t of run.tables) for (const c of t.chunks) buffers.add(c.buffer as ArrayBuffer);
  parentPort!.postMessage({ id: req.id, run }, [...buffers]);
});
// Loaded and listening: the pipeline starts consuming only once its threads are ready.
parentPort!.postMessage({ ready: true });
