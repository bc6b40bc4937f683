/**
 * Rows waiting for their insert, each already serialized as a JSONEachRow line (a string holds far
 * less for the garbage collector to walk than the object it came from), with the offsets they cover.
 */
export class RowBatch {
  private rows = new Map<string, string[]>();
  private offsets = new Map<string, { topic: string; partition: number; offset: bigint; first: bigint }>();
  private firstAt = 0;
  private count = 0;

  /** Records that everything up to `offset` is in this batch (rows may be zero: DLQ'd or skipped). */
  cover(topic: string, partition: number, offset: string): void {
    const key = `${topic}\u0000${partition}`;
    const next = BigInt(offset);
    const seen = this.offsets.get(key);
    if (!seen) this.offsets.set(key, { topic, partition, offset: next, first: next });
    else if (next > seen.offset) seen.offset = next;
    if (this.firstAt === 0) this.firstAt = Date.now();
  }

  add(table: string, row: string): void {
    const list = this.rows.get(table);
    if (list) list.push(row);
    else this.rows.set(table, [row]);
    this.count++;
    if (this.firstAt === 0) this.firstAt = Date.now();
  }

  get size(): number {
    return this.count;
  }

  get isEmpty(): boolean {
    return this.count === 0 && this.offsets.size === 0;
  }

  /** Milliseconds since the oldest thing in the batch arrived. */
  age(now = Date.now()): number {
    return this.firstAt === 0 ? 0 : now - this.firstAt;
  }

  tables(): Array<[string, string[]]> {
    return [...this.rows];
  }

  /** Offsets to commit once every row is in ClickHouse: the next offset to read, per partition. */
  commits(): Array<{ topic: string; partition: number; offset: string }> {
    return [...this.offsets.values()].map((o) => ({
      topic: o.topic,
      partition: o.partition,
      offset: String(o.offset + 1n),
    }));
  }

  /** Where to seek back to when this batch could not be written: its first offset per partition. */
  rewinds(): Array<{ topic: string; partition: number; offset: string }> {
    return [...this.offsets.values()].map((o) => ({
      topic: o.topic,
      partition: o.partition,
      offset: String(o.first),
    }));
  }
}
