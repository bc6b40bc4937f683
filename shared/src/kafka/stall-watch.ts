import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { Logger } from '../logger';

export interface StallWatchOptions {
  kafka: Kafka;
  /** Its group joins tell which partitions are this member's: only those are watched. */
  consumer: Consumer;
  groupId: string;
  topics: string[];
  log: Logger;
  /** Committed offsets standing still this long behind the topics' ends is a stall. */
  stallMs: number;
  /** How often the offsets are read. Default a quarter of `stallMs`, at most 30 s. */
  intervalMs?: number;
  /** True while the pipeline waits on purpose (a store it writes to is failing): never a stall. */
  waiting?: () => boolean;
  onStall: (detail: { reason: string; behind?: number; stillForMs: number }) => void;
}

/** `work`, or a rejection once `ms` have passed without it settling. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Messages between each partition's committed offset and its end, and the committed offsets. */
async function readPosition(
  admin: Admin,
  groupId: string,
  assignment: Record<string, number[]>,
): Promise<{ behind: number; committed: string }> {
  let behind = 0;
  const committed: string[] = [];
  const topics = Object.keys(assignment);
  const groupOffsets = topics.length ? await admin.fetchOffsets({ groupId, topics }) : [];
  for (const { topic, partitions: all } of groupOffsets) {
    const mine = new Set(assignment[topic]);
    const partitions = all.filter((p) => mine.has(p.partition));
    const ends = new Map(
      (await admin.fetchTopicOffsets(topic)).map((p) => [
        p.partition,
        { low: BigInt(p.low), high: BigInt(p.high) },
      ]),
    );
    for (const { partition, offset } of partitions) {
      const end = ends.get(partition);
      if (!end) continue;
      // Nothing committed yet: the group reads from the start of what the topic still holds.
      const at = offset === '-1' ? end.low : BigInt(offset);
      if (end.high > at) behind += Number(end.high - at);
      committed.push(`${topic}:${partition}:${offset}`);
    }
  }
  return { behind, committed: committed.join(',') };
}

/**
 * A lag watch from outside the consumer, as lag monitors do it: the committed offsets of this
 * member's partitions are read from the brokers every `intervalMs`, and when they have not moved
 * for `stallMs` while the partitions hold more, the consumer is stuck, whatever inside it is stuck (seen: a consumer silent after
 * a broker was lost, until the group's next rebalance minutes later). Offsets that stay unreadable
 * while the brokers answer are a stall too (the group's coordinator is stuck); while the brokers
 * cannot answer at all, nothing is decided.
 */
export function watchForStall(opts: StallWatchOptions): { stop(): Promise<void> } {
  const intervalMs = opts.intervalMs ?? Math.min(30_000, Math.max(1_000, Math.floor(opts.stallMs / 4)));
  // A read that hangs (a coordinator that never answers) counts as unreadable, not as nothing.
  const readDeadlineMs = Math.max(intervalMs, 5_000);
  const admin = opts.kafka.admin({ retry: { retries: 1 } });
  let connected = false;
  let last: { committed: string; since: number } | undefined;
  let reported = false;
  let warned = false;
  let unreadableSince: number | undefined;
  // This member's partitions of the watched topics, as of its last join; none known, none watched.
  let assignment: Record<string, number[]> = {};
  const watched = new Set(opts.topics);
  opts.consumer.on(opts.consumer.events.GROUP_JOIN, ({ payload }) => {
    assignment = Object.fromEntries(
      Object.entries(payload.memberAssignment).filter(([topic]) => watched.has(topic)),
    );
    last = undefined;
  });

  const check = async () => {
    if (!connected) {
      await admin.connect();
      connected = true;
    }
    const now = Date.now();
    const { behind, committed } = await readPosition(admin, opts.groupId, assignment);
    unreadableSince = undefined;
    if (behind === 0 || opts.waiting?.() || !last || last.committed !== committed) {
      last = { committed, since: now };
      warned = false;
      return;
    }
    const stillForMs = now - last.since;
    if (stillForMs >= opts.stallMs / 2 && !warned) {
      warned = true;
      opts.log.warn({ behind, stillForMs }, 'consumer: committed offsets stand still behind the partitions');
    }
    if (stillForMs >= opts.stallMs && !reported) {
      reported = true;
      opts.onStall({ reason: 'the committed offsets stand still behind the partitions', behind, stillForMs });
    }
  };

  /** The brokers answer a metadata request: offsets that stay unreadable are the group's problem. */
  const brokersAnswer = () =>
    withDeadline(admin.describeCluster(), readDeadlineMs).then(
      () => true,
      () => false,
    );

  const unreadable = async (err: unknown) => {
    // The clock of standing still starts again once the offsets are read: an outage is not a stall.
    last = undefined;
    unreadableSince ??= Date.now();
    const forMs = Date.now() - unreadableSince;
    if (forMs < opts.stallMs || reported) return;
    if (await brokersAnswer()) {
      // Seen: a group whose coordinator went with a broker answered nothing for minutes, to the
      // consumer and to this watch alike, until its next rebalance. A fresh process finds it anew.
      reported = true;
      opts.onStall({ reason: 'the group coordinator has not answered', stillForMs: forMs });
    } else if (!warned) {
      warned = true;
      opts.log.warn({ err, forMs }, 'consumer: the brokers do not answer; the stall watch decides nothing');
    }
  };

  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = withDeadline(check(), readDeadlineMs)
      .catch(unreadable)
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (connected) await admin.disconnect().catch(() => undefined);
    },
  };
}
