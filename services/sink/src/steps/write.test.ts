import type { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { JsonLines } from './batch';
import { insertRows, WriteAborted } from './write';

/** A ClickHouse client whose inserts answer with `answer(body, attempt)`: throw to fail. */
function fakeClient(answer: (body: string, attempt: number) => void): ClickHouseClient {
  let attempt = 0;
  return {
    exec: async ({ values }: { values: Readable }) => {
      let body = '';
      for await (const chunk of values) body += String(chunk);
      answer(body, ++attempt);
      return { stream: (async function* () {})() };
    },
  } as unknown as ClickHouseClient;
}

const rows = (...lines: string[]) => JsonLines.of(lines);

describe('sink insert step', () => {
  it('retries any failure that is not about the data, waiting 250 ms, then twice as long', async () => {
    const retries: Array<[string, number, number]> = [];
    const client = fakeClient((_body, attempt) => {
      if (attempt === 1) throw new TypeError('socket closed');
      if (attempt === 2) throw new Error('connect ECONNREFUSED');
    });
    const rejected = await insertRows(client, 't', rows('{"id":1}'), {
      aborted: () => false,
      onRetry: async (err, attempt, waitMs) => void retries.push([err.message, attempt, waitMs]),
    });
    expect(rejected).toEqual([]);
    expect(retries).toEqual([
      ['socket closed', 1, 250],
      ['connect ECONNREFUSED', 2, 500],
    ]);
  });

  it('gives up on shutdown without another attempt', async () => {
    let onRetry = 0;
    const client = fakeClient(() => {
      throw new Error('connect ECONNREFUSED');
    });
    const writing = insertRows(client, 't', rows('{"id":1}'), {
      aborted: () => true,
      onRetry: async () => void onRetry++,
    });
    await expect(writing).rejects.toBeInstanceOf(WriteAborted);
    expect(onRetry).toBe(0);
  });

  it('does not retry invalid data: it halves the rows until the bad ones are isolated', async () => {
    let onRetry = 0;
    const client = fakeClient((body) => {
      if (body.includes('bad')) throw new Error('Code: 27. DB::Exception: Cannot parse input');
    });
    const rejected = await insertRows(client, 't', rows('{"id":1}', '{"id":"bad"}', '{"id":3}'), {
      aborted: () => false,
      onRetry: async () => void onRetry++,
    });
    expect(rejected).toEqual([
      {
        row: '{"id":"bad"}',
        reason: 'ClickHouse rejected the row: Code: 27. DB::Exception: Cannot parse input',
      },
    ]);
    expect(onRetry).toBe(0);
  });
});
