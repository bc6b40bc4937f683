import { interactionRow } from '@warden/shared/clickhouse/rows';
import { topics } from '@warden/shared/kafka/topics';
import type { InteractionEnvelope } from '@warden/shared/schemas/envelope';

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

function interactionRows(msg: Record<string, unknown>): TableRow[] {
  if (typeof msg.interactionId !== 'string' || typeof msg.accountId !== 'string') {
    throw new PoisonMessage('envelope lacks interactionId or accountId');
  }
  const record = msg.record as Record<string, unknown> | undefined;
  if (!record || typeof record.agentId !== 'string' || typeof record.prompt !== 'string') {
    throw new PoisonMessage('envelope lacks a record with agentId and prompt');
  }
  if (Number.isNaN(Date.parse(String(msg.receivedAt))))
    throw new PoisonMessage('envelope has no valid receivedAt');
  return [{ table: 'interactions', row: interactionRow(msg as unknown as InteractionEnvelope) }];
}

/** Turns one Kafka message into the ClickHouse rows it stands for. Pure: no I/O. */
export function decodeMessage(topic: string, value: Buffer | null): Decoded {
  try {
    const msg = parse(value);
    if (topic === topics.interactions) return { ok: true, rows: interactionRows(msg) };
    return { ok: false, reason: `the sink does not read topic ${topic}` };
  } catch (err) {
    if (err instanceof PoisonMessage) return { ok: false, reason: err.message };
    return { ok: false, reason: `could not map to rows: ${(err as Error).message}` };
  }
}
