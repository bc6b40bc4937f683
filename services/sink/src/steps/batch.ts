const newline = 0x0a;

/**
 * JSONEachRow lines encoded into large off-heap buffers as they arrive. A batch holds tens of
 * megabytes until its insert; kept as strings, every one of them would be copied by the young
 * generation collector and promoted, then joined into one more giant string. Here each row's string
 * dies young, and the insert streams the chunks as they are. JSON.stringify escapes control
 * characters, so a newline byte always ends a row.
 */
export class JsonLines {
  private readonly full: Buffer[] = [];
  private current: Buffer | null = null;
  private used = 0;
  private rows = 0;

  constructor(private readonly chunkBytes = 1 << 20) {}

  static of(lines: readonly string[]): JsonLines {
    const out = new JsonLines(lines.reduce((bytes, line) => bytes + line.length * 3 + 1, 0));
    for (const line of lines) out.add(line);
    return out;
  }

  add(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: reserve that, so a row is never cut.
    const room = line.length * 3 + 1;
    if (!this.current || this.used + room > this.current.length) {
      if (this.current) this.full.push(this.current.subarray(0, this.used));
      // Never a slice of Node's shared pool: chunks may be transferred to another thread.
      this.current = Buffer.allocUnsafeSlow(Math.max(this.chunkBytes, room));
      this.used = 0;
    }
    this.used += this.current.write(line, this.used);
    this.current[this.used++] = newline;
    this.rows++;
  }

  /** Takes lines already encoded elsewhere (a decode thread), `rows` of them, as they are. */
  append(chunks: readonly Uint8Array[], rows: number): void {
    if (this.current) this.full.push(this.current.subarray(0, this.used));
    this.current = null;
    this.used = 0;
    for (const c of chunks)
      if (c.byteLength) this.full.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
    this.rows += rows;
  }

  get count(): number {
    return this.rows;
  }

  /** The request body: every row, newline-terminated, in order. */
  chunks(): Buffer[] {
    return this.current ? [...this.full, this.current.subarray(0, this.used)] : [...this.full];
  }

  /** The rows as strings again (only to isolate rows ClickHouse rejected). */
  lines(): string[] {
    return this.chunks().flatMap((chunk) => chunk.toString('utf8').split('\n').slice(0, -1));
  }
}

/** Rows waiting for their insert, as JSONEachRow lines per table, with the offsets they cover. */
export class RowBatch {
  private rows = new Map<string, JsonLines>();
  private offsets = new Map<string, { topic: string; partition: number; offset: bigint; first: bigint }>();
  private firstAt = 0;
  private count = 0;

  /**
   * Records that this batch holds what offsets `first`..`last` of a partition stand for (rows may be
   * zero: DLQ'd or skipped). Called once per run of consecutive messages, not per message.
   */
  cover(topic: string, partition: number, first: string, last: string): void {
    const key = `${topic}\u0000${partition}`;
    const next = BigInt(last);
    const seen = this.offsets.get(key);
    if (!seen) this.offsets.set(key, { topic, partition, offset: next, first: BigInt(first) });
    else if (next > seen.offset) seen.offset = next;
    if (this.firstAt === 0) this.firstAt = Date.now();
  }

  /** Adds `rows` JSONEachRow lines for `table`, encoded in `chunks`. */
  add(table: string, chunks: readonly Uint8Array[], rows: number): void {
    let lines = this.rows.get(table);
    if (!lines) this.rows.set(table, (lines = new JsonLines()));
    lines.append(chunks, rows);
    this.count += rows;
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

  tables(): Array<[string, JsonLines]> {
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
