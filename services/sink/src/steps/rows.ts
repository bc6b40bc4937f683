import { decodeAnalysis, decodeEnvelope, type Decoded } from '@warden/shared/codec/index';
import { analysisRow, detectionRows, eventRow, interactionRow } from '@warden/shared/clickhouse/rows';
import { topics } from '@warden/shared/kafka/topics';
import { JsonLines } from './batch';

export interface TableRow {
  table: string;
  row: object;
}

/** Rows from a decoded value; a value the row builders still refuse is poison too, with their reason. */
function rowsOf(build: () => TableRow[]): Decoded<TableRow[]> {
  try {
    return { ok: true, value: build() };
  } catch (err) {
    return { ok: false, reason: `could not map to rows: ${(err as Error).message}` };
  }
}

/**
 * Turns one Kafka message into the ClickHouse rows it stands for: an interaction or a lifecycle
 * event envelope into its row; an analysis into a row for the analysis itself (also when clean)
 * and one per finding. Pure: no I/O.
 */
export function messageRows(topic: string, value: Buffer | null): Decoded<TableRow[]> {
  if (topic === topics.interactions) {
    const decoded = decodeEnvelope(value);
    if (!decoded.ok) return decoded;
    const env = decoded.value;
    return rowsOf(() =>
      'record' in env
        ? [{ table: 'interactions', row: interactionRow(env) }]
        : [{ table: 'events', row: eventRow(env) }],
    );
  }
  if (topic === topics.detections) {
    const decoded = decodeAnalysis(value);
    if (!decoded.ok) return decoded;
    const analysis = decoded.value;
    return rowsOf(() => [
      { table: 'analyses', row: analysisRow(analysis) },
      ...detectionRows(analysis).map((row) => ({ table: 'detections', row })),
    ]);
  }
  return { ok: false, reason: `the sink does not read topic ${topic}` };
}

/** A run of one partition's messages as JSONEachRow lines per table, and the messages that are poison. */
export interface RunRows {
  tables: Array<{ table: string; chunks: Uint8Array[]; rows: number }>;
  failures: Array<{ index: number; reason: string }>;
}

/**
 * Lines are written into chunks of about the run's own size (rows are about as long as their
 * messages), capped: a run of a few thousand messages fills a handful, a run of one message does
 * not allocate 256 KB.
 */
const runChunkBytes = (values: ReadonlyArray<Buffer | null>) =>
  Math.min(
    256 * 1024,
    values.reduce((n, v) => n + (v?.length ?? 0), 1024),
  );

/**
 * Decodes a run of messages and serializes their rows, the per-row work of the sink. Pure and
 * self-contained so it can run on a decode thread: the result crosses threads as plain chunks.
 */
export function runRows(topic: string, values: ReadonlyArray<Buffer | null>): RunRows {
  const lines = new Map<string, JsonLines>();
  const chunkBytes = runChunkBytes(values);
  const failures: RunRows['failures'] = [];
  values.forEach((value, index) => {
    const decoded = messageRows(topic, value);
    if (!decoded.ok) {
      failures.push({ index, reason: decoded.reason });
      return;
    }
    for (const { table, row } of decoded.value) {
      let out = lines.get(table);
      if (!out) lines.set(table, (out = new JsonLines(chunkBytes)));
      out.add(JSON.stringify(row));
    }
  });
  return {
    tables: [...lines].map(([table, l]) => ({ table, chunks: l.chunks(), rows: l.count })),
    failures,
  };
}
