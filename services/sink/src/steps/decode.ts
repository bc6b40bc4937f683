import { analysisRow, detectionRows, eventRow, interactionRow } from '@warden/shared/clickhouse/rows';
import { topics } from '@warden/shared/kafka/topics';
import type { DetectionAnalysis } from '@warden/shared/schemas/detection';
import type { EventEnvelope, InteractionEnvelope } from '@warden/shared/schemas/envelope';
import { JsonLines } from './batch';

export interface TableRow {
  table: string;
  row: object;
}

export type Decoded = { ok: true; rows: TableRow[] } | { ok: false; reason: string };

/** A message that can never become rows: it goes to the DLQ with this reason. */
class PoisonMessage extends Error {}

function parse(value: Buffer | null): Record<string, unknown> {
  if (!value || value.length === 0) throw new PoisonMessage('empty message value');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (err) {
    throw new PoisonMessage(`value is not JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PoisonMessage('value is not a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function requireIds(msg: Record<string, unknown>): void {
  if (typeof msg.interactionId !== 'string' || typeof msg.accountId !== 'string') {
    throw new PoisonMessage('message lacks interactionId or accountId');
  }
  if (Number.isNaN(Date.parse(String(msg.receivedAt))))
    throw new PoisonMessage('message has no valid receivedAt');
}

/** The interactions topic carries interaction envelopes and platform lifecycle event envelopes. */
function interactionTopicRows(msg: Record<string, unknown>): TableRow[] {
  requireIds(msg);
  const event = msg.event as Record<string, unknown> | undefined;
  if (event && !msg.record) {
    if (typeof event.agentId !== 'string' || typeof event.eventType !== 'string') {
      throw new PoisonMessage('event envelope lacks agentId or eventType');
    }
    return [{ table: 'events', row: eventRow(msg as unknown as EventEnvelope) }];
  }
  const record = msg.record as Record<string, unknown> | undefined;
  if (!record || typeof record.agentId !== 'string' || typeof record.prompt !== 'string') {
    throw new PoisonMessage('envelope lacks a record with agentId and prompt');
  }
  return [{ table: 'interactions', row: interactionRow(msg as unknown as InteractionEnvelope) }];
}

/** One analysis: a row for the analysis itself (also when clean) and one per finding. */
function detectionTopicRows(msg: Record<string, unknown>): TableRow[] {
  requireIds(msg);
  if (!Array.isArray(msg.findings) || typeof msg.detectorVersion !== 'string') {
    throw new PoisonMessage('analysis lacks findings or detectorVersion');
  }
  if (Number.isNaN(Date.parse(String(msg.analyzedAt))))
    throw new PoisonMessage('analysis has no valid analyzedAt');
  const analysis = msg as unknown as DetectionAnalysis;
  return [
    { table: 'analyses', row: analysisRow(analysis) },
    ...detectionRows(analysis).map((row) => ({ table: 'detections', row })),
  ];
}

/** Turns one Kafka message into the ClickHouse rows it stands for. Pure: no I/O. */
export function decodeMessage(topic: string, value: Buffer | null): Decoded {
  try {
    const msg = parse(value);
    if (topic === topics.interactions) return { ok: true, rows: interactionTopicRows(msg) };
    if (topic === topics.detections) return { ok: true, rows: detectionTopicRows(msg) };
    return { ok: false, reason: `the sink does not read topic ${topic}` };
  } catch (err) {
    if (err instanceof PoisonMessage) return { ok: false, reason: err.message };
    return { ok: false, reason: `could not map to rows: ${(err as Error).message}` };
  }
}

/** A run of one partition's messages as JSONEachRow lines per table, and the messages that are poison. */
export interface DecodedRun {
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
export function decodeRun(topic: string, values: ReadonlyArray<Buffer | null>): DecodedRun {
  const lines = new Map<string, JsonLines>();
  const chunkBytes = runChunkBytes(values);
  const failures: DecodedRun['failures'] = [];
  values.forEach((value, index) => {
    const decoded = decodeMessage(topic, value);
    if (!decoded.ok) {
      failures.push({ index, reason: decoded.reason });
      return;
    }
    for (const { table, row } of decoded.rows) {
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

/** Message values packed into one buffer (length -1: a null value), to hand to a thread without copies. */
export interface PackedValues {
  data: Uint8Array;
  lengths: Int32Array;
}

export function packValues(values: ReadonlyArray<Buffer | null>): PackedValues {
  const lengths = new Int32Array(values.length);
  let total = 0;
  values.forEach((v, i) => {
    lengths[i] = v ? v.length : -1;
    total += v?.length ?? 0;
  });
  // Its own ArrayBuffer (never a slice of Node's shared pool), so it can be transferred.
  const data = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const v of values) if (v) at += v.copy(data, at);
  return { data, lengths };
}

export function unpackValues({ data, lengths }: PackedValues): Array<Buffer | null> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const out: Array<Buffer | null> = [];
  let at = 0;
  for (const len of lengths) {
    if (len < 0) out.push(null);
    else {
      out.push(buf.subarray(at, at + len));
      at += len;
    }
  }
  return out;
}
