import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Partitioners, type Message, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { cachedKeyPartitioner } from './client';

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
