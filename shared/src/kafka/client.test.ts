import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { logLevel, Partitioners, type Message, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { cachedKeyPartitioner, kafkaLogLevel } from './client';

// kafkajs internals that patches/kafkajs+2.2.4.patch changes (README, "Layout").
const require = createRequire(import.meta.url);
const kafkajsDir = require.resolve('kafkajs').replace(/index\.js$/, 'src/');
const crc32C = require(`${kafkajsDir}protocol/recordBatch/crc32C`) as (b: Buffer) => number;
const tableCrc32C = require(`${kafkajsDir}protocol/recordBatch/crc32C/crc32C`) as (b: Buffer) => number;
const groupMessagesPerPartition = require(`${kafkajsDir}producer/groupMessagesPerPartition`) as (args: {
  topic: string;
  partitionMetadata: PartitionMetadata[];
  messages: Message[];
  partitioner: ReturnType<typeof Partitioners.DefaultPartitioner>;
}) => Record<string, Message[]>;
interface Encoded {
  buffer: Buffer;
}
interface EncoderLike extends Encoded {
  writeVarLong(v: unknown): EncoderLike;
  writeString(v: string | null): EncoderLike;
  writeVarIntString(v: string): EncoderLike;
  writeVarIntBytes(v: string | Buffer): EncoderLike;
  writeInt8(v: number): EncoderLike;
  writeInt16(v: number): EncoderLike;
  writeInt32(v: number): EncoderLike;
  writeUInt32(v: number): EncoderLike;
  writeInt64(v: unknown): EncoderLike;
  writeArray(v: unknown[], type?: string): EncoderLike;
  writeEncoder(v: Encoded): EncoderLike;
  writeBytes(v: Buffer): EncoderLike;
}
interface RequestQueueLike {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: object): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
}
const RequestQueue = require(`${kafkajsDir}network/requestQueue`) as new (opts: object) => RequestQueueLike;
const Encoder = require(`${kafkajsDir}protocol/encoder`) as new () => EncoderLike;
const { RecordBatch } = require(`${kafkajsDir}protocol/recordBatch/v0`) as {
  RecordBatch: (args: object) => Promise<Encoded>;
};
const frameRequest = require(`${kafkajsDir}protocol/request`) as (args: {
  correlationId: number;
  clientId: string;
  request: { apiKey: number; apiVersion: number; encode: () => Promise<Encoded> };
}) => Promise<Encoded>;
const Decoder = require(`${kafkajsDir}protocol/decoder`) as new (b: Buffer) => {
  readVarInt(): number;
  readBytes(n: number): Buffer;
  canReadBytes(n: number): boolean;
};
const Long = require(`${kafkajsDir}utils/long`) as { fromNumber(n: number): unknown };
interface RecordFields {
  key: string | Buffer | null;
  value: string | Buffer | null;
  headers: Record<string, string | string[]>;
}
const encodeRecord = require(`${kafkajsDir}protocol/recordBatch/record/v0`) as (
  r: RecordFields & { offsetDelta: number; timestampDelta: number },
) => Encoded;
const decodeRecord = require(`${kafkajsDir}protocol/recordBatch/record/v0/decoder`) as (
  d: InstanceType<typeof Decoder>,
  ctx: object,
) => {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[]>;
  timestamp: string;
  offset: string;
};

const metadata = (n: number): PartitionMetadata[] =>
  Array.from({ length: n }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
    offlineReplicas: [],
    partitionErrorCode: 0,
  }));

describe('cachedKeyPartitioner', () => {
  it('picks the default partitioner’s partition for every key, on first sight and when remembered', () => {
    const cached = cachedKeyPartitioner();
    const reference = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 12]) {
      const partitionMetadata = metadata(partitions);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 500; i++) {
          const args = {
            topic: 't',
            partitionMetadata,
            message: { key: `acct-${i % 7}:conv-${i}`, value: 'v' },
          };
          expect(cached(args)).toBe(reference(args));
        }
      }
    }
  });

  it('leaves explicit partitions and keyless messages to the default', () => {
    const cached = cachedKeyPartitioner();
    const partitionMetadata = metadata(12);
    expect(cached({ topic: 't', partitionMetadata, message: { key: 'k', partition: 5, value: 'v' } })).toBe(
      5,
    );
    const seen = new Set<number>();
    for (let i = 0; i < 24; i++) seen.add(cached({ topic: 't', partitionMetadata, message: { value: 'v' } }));
    // Keyless messages go round robin over the partitions, not to one remembered partition.
    expect(seen.size).toBe(12);
  });
});

describe('patched kafkajs', () => {
  it('checksums record batches with the same CRC32C as its own table (unsigned)', () => {
    for (const size of [0, 1, 7, 64, 1000, 65_537]) {
      const bytes = randomBytes(size);
      expect(crc32C(bytes)).toBe(tableCrc32C(bytes) >>> 0);
    }
  });

  it('writes a 32-bit varlong as the same bytes as its Long form', () => {
    for (const v of [0, 1, -1, 63, 64, -65, 300, 2 ** 30, -(2 ** 30) - 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 40]) {
      const fast = new Encoder().writeVarLong(v).buffer;
      const long = new Encoder().writeVarLong(Long.fromNumber(v)).buffer;
      expect(fast.equals(long), `varlong ${v}`).toBe(true);
    }
  });

  it('encodes records (headers written in place) that kafkajs decodes back', () => {
    const cases: RecordFields[] = [
      {
        key: 'acct:conv-1',
        value: 'x'.repeat(1300),
        headers: { 'account-id': 'acct', 'schema-version': '1' },
      },
      { key: null, value: Buffer.from([0, 1, 2, 255]), headers: { a: ['1', 'ž'], b: '' } },
      { key: Buffer.from('k'), value: null, headers: {} },
      { key: 'ключ', value: '値'.repeat(200), headers: { 'received-at': '2026-11-23T00:00:00Z' } },
    ];
    cases.forEach((c, i) => {
      const bytes = encodeRecord({ offsetDelta: i * 300, timestampDelta: i * 70_000, ...c }).buffer;
      const decoder = new Decoder(bytes);
      const length = decoder.readVarInt();
      const body = decoder.readBytes(length);
      expect(decoder.canReadBytes(1)).toBe(false);
      const record = decodeRecord(new Decoder(body), {
        firstOffset: '0',
        firstTimestamp: 1_000,
        magicByte: 2,
      });
      const text = (b: Buffer | null) => (b === null ? null : b.toString('hex'));
      const bytesOf = (v: string | Buffer | null) =>
        v === null ? null : Buffer.isBuffer(v) ? v.toString('hex') : Buffer.from(v).toString('hex');
      expect(text(record.key)).toBe(bytesOf(c.key));
      expect(text(record.value)).toBe(bytesOf(c.value));
      expect(record.offset).toBe(String(i * 300));
      expect(record.timestamp).toBe(String(1_000 + i * 70_000));
      const headers = Object.fromEntries(
        Object.entries(record.headers).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.map((x) => x.toString()) : v.toString(),
        ]),
      );
      expect(headers).toEqual(c.headers);
    });
  });

  it('writes short, long and non-ASCII strings as their UTF-8 bytes', () => {
    for (const v of [
      '',
      'agent-id',
      'x'.repeat(64),
      'x'.repeat(65),
      'agënt',
      '値'.repeat(40),
      'y'.repeat(3000),
    ]) {
      const utf8 = Buffer.from(v);
      const prefix = (n: number) => new Encoder().writeInt16(n).buffer;
      expect(new Encoder().writeString(v).buffer).toEqual(Buffer.concat([prefix(utf8.length), utf8]));
      const varint = new Encoder().writeVarIntBytes(Buffer.from(v)).buffer;
      expect(new Encoder().writeVarIntString(v).buffer).toEqual(varint);
      expect(new Encoder().writeVarIntBytes(v).buffer).toEqual(varint);
    }
  });

  it('writes a record batch as the same bytes as kafkajs’ nested encoders, with its CRC', async () => {
    const records = [0, 1, 2].map((i) =>
      encodeRecord({
        offsetDelta: i,
        timestampDelta: i,
        key: `k${i}`,
        value: 'v'.repeat(700 * i),
        headers: {},
      }),
    );
    const fields = {
      firstTimestamp: 1_795_450_000_000,
      maxTimestamp: 1_795_450_000_002,
      producerId: Long.fromNumber(4711),
      producerEpoch: 3,
      firstSequence: 42,
      lastOffsetDelta: 2,
    };
    // kafkajs' own layout: body, then epoch/magic/CRC around it, then offset and length.
    const body = new Encoder()
      .writeInt16(0)
      .writeInt32(fields.lastOffsetDelta)
      .writeInt64(fields.firstTimestamp)
      .writeInt64(fields.maxTimestamp)
      .writeInt64(fields.producerId)
      .writeInt16(fields.producerEpoch)
      .writeInt32(fields.firstSequence)
      .writeArray(records, 'object');
    const batch = new Encoder()
      .writeInt32(0)
      .writeInt8(2)
      .writeUInt32(tableCrc32C(body.buffer) >>> 0)
      .writeEncoder(body);
    const expected = new Encoder().writeInt64(Long.fromNumber(0)).writeBytes(batch.buffer).buffer;
    expect((await RecordBatch({ ...fields, records })).buffer).toEqual(expected);
  });

  it('frames a request as size, header and payload', async () => {
    const payload = new Encoder().writeString('payload');
    for (const clientId of ['warden-ingest', 'wärden-'.repeat(20)]) {
      const framed = (
        await frameRequest({
          correlationId: 7,
          clientId,
          request: { apiKey: 0, apiVersion: 3, encode: async () => payload },
        })
      ).buffer;
      const header = new Encoder()
        .writeInt16(0)
        .writeInt16(3)
        .writeInt32(7)
        .writeString(clientId)
        .writeEncoder(payload);
      expect(framed).toEqual(
        Buffer.concat([new Encoder().writeInt32(header.buffer.length).buffer, header.buffer]),
      );
    }
  });

  it('arms the pending-request timer of a connection only while requests wait', async () => {
    const silent = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const queue = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      enforceRequestTimeout: false,
      clientId: 'test',
      broker: 'b:9092',
      logger: silent,
    });
    const sent: number[] = [];
    const request = (correlationId: number) => ({
      entry: { correlationId, apiKey: 0, apiName: 'Produce', apiVersion: 3, resolve: () => undefined },
      expectResponse: true,
      sendRequest: () => sent.push(correlationId),
      requestTimeout: 30_000,
    });
    try {
      queue.push(request(1));
      queue.push(request(2)); // one in flight at most: this one waits, and a check is armed
      expect(sent).toEqual([1]);
      expect(queue.throttleCheckTimeoutId).not.toBeNull();
      queue.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
      expect(sent).toEqual([1, 2]);
      await new Promise((r) => setTimeout(r, 30));
      queue.fulfillRequest({ correlationId: 2, payload: Buffer.alloc(0), size: 0 });
      // Nothing waits: no timer (upstream re-armed a 1 ms one for ever here).
      expect(queue.pending).toHaveLength(0);
      expect(queue.throttleCheckTimeoutId).toBeNull();
      // Throttled by the broker: a waiting request is checked when the throttle ends.
      queue.maybeThrottle(40);
      queue.push(request(3));
      expect(sent).toEqual([1, 2]);
      await new Promise((r) => setTimeout(r, 80));
      expect(sent).toEqual([1, 2, 3]);
    } finally {
      queue.destroy();
    }
  });

  it('groups messages per partition keeping their order', () => {
    const messages = Array.from({ length: 300 }, (_, i) => ({ key: `k${i % 11}`, value: String(i) }));
    const partitionMetadata = metadata(6);
    const partitioner = Partitioners.DefaultPartitioner();
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    const expected: Record<string, Message[]> = {};
    for (const message of messages) {
      const partition = partitioner({ topic: 't', partitionMetadata, message });
      (expected[partition] ??= []).push(message);
    }
    expect(grouped).toEqual(expected);
    expect(Object.values(grouped).flat()).toHaveLength(300);
  });
});

describe('kafkajs log levels', () => {
  it('shows retried responses and reopened connections as warnings, everything else as kafkajs says', () => {
    const coordinator = 'The group coordinator is not available';
    expect(
      kafkaLogLevel(logLevel.ERROR, 'Response GroupCoordinator(key: 10, version: 2)', { error: coordinator }),
    ).toBe('warn');
    expect(kafkaLogLevel(logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:19092', {})).toBe(
      'warn',
    );
    expect(
      kafkaLogLevel(logLevel.ERROR, 'Response Produce(key: 0, version: 7)', {
        error: 'Not authorized to access topics: [Topic authorization failed]',
      }),
    ).toBe('error');
    expect(kafkaLogLevel(logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded', {})).toBe('error');
    expect(kafkaLogLevel(logLevel.WARN, 'anything', {})).toBe('warn');
    expect(kafkaLogLevel(logLevel.INFO, 'anything', {})).toBe('debug');
  });
});
