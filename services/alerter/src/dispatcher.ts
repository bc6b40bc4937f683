import {
  claimDue,
  closeWindows,
  endpointsDue,
  recordAttempts,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '@warden/shared/alerts/outbox';
import { decryptSecret } from '@warden/shared/alerts/secrets';
import { slackMessage } from '@warden/shared/alerts/payload';
import { postWebhook, signedHeaders, type PostResult } from '@warden/shared/alerts/send';
import type { Logger } from '@warden/shared/logger';
import { Counter, Histogram, type Registry } from '@warden/shared/metrics';
import type { PostgresPool } from '@warden/shared/postgres/client';

export interface DispatcherOptions {
  pool: PostgresPool;
  logger: Logger;
  metrics: Registry;
  secretKey: Buffer;
  dashboardUrl: string;
  allowPrivate: boolean;
  timeoutMs: number;
  /** Waits before each retry; the delivery fails for good once it is spent. */
  retrySchedule: number[];
  perEndpointConcurrency: number;
  disableAfterMs: number;
  pollMs: number;
}

/** The longest a 429's Retry-After is honoured for. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** ±20% around `ms`, so endpoints that failed together are not retried in one burst. */
const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = Number(raw);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

/** How long finished attempts wait to be recorded together (one PostgreSQL round trip for many). */
const RECORD_EVERY_MS = 10;
const RECORD_BATCH = 200;

interface Finished {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  recorded: { resolve: () => void; reject: (err: unknown) => void };
}

/**
 * The delivery loop: takes due deliveries from the outbox per endpoint, at most
 * `perEndpointConcurrency` in flight for each, so a slow or failing endpoint only ever holds its
 * own slots. It claims up to twice the slots at once and hands a freed slot the next claimed
 * delivery without asking PostgreSQL; finished attempts are recorded together every few
 * milliseconds. Each attempt is signed afresh (new webhook-timestamp, same webhook-id), logged, and
 * either settles the delivery or schedules the next try.
 */
export class Dispatcher {
  private readonly inFlight = new Map<string, number>();
  /** Claimed (leased) deliveries waiting for a slot of their endpoint. */
  private readonly queued = new Map<string, ClaimedDelivery[]>();
  /** Ids claimed here and not yet recorded: a lease that ran out is not claimed twice by this process. */
  private readonly held = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private finished: Finished[] = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private ticking = false;
  private again = false;
  private readonly m;

  constructor(private readonly opts: DispatcherOptions) {
    const registers = [opts.metrics];
    this.m = {
      attempts: new Counter({
        name: 'warden_alerter_attempts_total',
        help: 'Webhook attempts by result (delivered, retry, failed, disabled).',
        labelNames: ['result'],
        registers,
      }),
      seconds: new Histogram({
        name: 'warden_alerter_attempt_seconds',
        help: 'Webhook attempt duration.',
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
    };
  }

  /**
   * Lease on a claimed delivery: a queued one waits at most one attempt of each slot before its own
   * (at most as many are queued as there are slots), then its attempt and its recording. Short
   * enough to resume soon after a crash.
   */
  private get leaseMs(): number {
    return 2 * this.opts.timeoutMs + 5_000;
  }

  start(): void {
    const loop = () => {
      if (this.stopped) return;
      void this.tick(true).finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.opts.pollMs);
      });
    };
    loop();
  }

  /** Looks for due deliveries now (the consumer just wrote some, or an endpoint's queue ran low). */
  wake(): void {
    void this.tick(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
    await this.record();
  }

  /** `windows`: also send the updates of groups whose window closed (on the poll, not on every wake). */
  private async tick(windows: boolean): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    try {
      if (windows) await closeWindows(this.opts.pool, this.opts.dashboardUrl);
      do {
        this.again = false;
        for (const endpointId of await endpointsDue(this.opts.pool)) {
          const queue = this.queued.get(endpointId) ?? [];
          const room =
            2 * this.opts.perEndpointConcurrency - (this.inFlight.get(endpointId) ?? 0) - queue.length;
          if (room <= 0 || this.stopped) continue;
          const claimed = await claimDue(this.opts.pool, endpointId, room, this.leaseMs);
          for (const d of claimed) {
            if (this.held.has(d.id)) continue;
            this.held.add(d.id);
            queue.push(d);
          }
          this.queued.set(endpointId, queue);
          this.pump(endpointId);
        }
      } while (this.again && !this.stopped);
    } catch (err) {
      this.opts.logger.warn({ err }, 'delivery loop: PostgreSQL failed; trying again');
    } finally {
      this.ticking = false;
    }
  }

  /** Fills the endpoint's free slots from its queue. */
  private pump(endpointId: string): void {
    const queue = this.queued.get(endpointId) ?? [];
    while (
      !this.stopped &&
      queue.length > 0 &&
      (this.inFlight.get(endpointId) ?? 0) < this.opts.perEndpointConcurrency
    )
      this.launch(queue.shift()!);
    if (queue.length === 0) this.queued.delete(endpointId);
  }

  private launch(d: ClaimedDelivery): void {
    this.inFlight.set(d.endpointId, (this.inFlight.get(d.endpointId) ?? 0) + 1);
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.inFlight.set(d.endpointId, (this.inFlight.get(d.endpointId) ?? 1) - 1);
      if (this.stopped) return;
      // The slot goes to the next claimed delivery at once; PostgreSQL is asked only when the
      // endpoint's queue runs low.
      this.pump(d.endpointId);
      if ((this.queued.get(d.endpointId)?.length ?? 0) < this.opts.perEndpointConcurrency) this.wake();
    };
    const attempt = this.attempt(d, freeSlot)
      .catch((err: unknown) =>
        this.opts.logger.warn(
          { err, delivery: d.id },
          'delivery attempt not recorded; its lease runs out and it is sent again',
        ),
      )
      .finally(() => {
        this.held.delete(d.id);
        this.running.delete(attempt);
        freeSlot();
      });
    this.running.add(attempt);
  }

  /** `sent`: the request is over; its slot may take the next delivery while this one is recorded. */
  private async attempt(d: ClaimedDelivery, sent: () => void): Promise<void> {
    const { secretKey } = this.opts;
    const secrets = [decryptSecret(secretKey, d.secret, d.endpointId)];
    if (d.previousSecret) secrets.push(decryptSecret(secretKey, d.previousSecret, d.endpointId));
    const body = d.format === 'slack' ? slackMessage(d.body) : d.body;
    const headers = signedHeaders({ id: d.id, body, secrets });
    const res = await postWebhook(d.url, headers, body, {
      timeoutMs: this.opts.timeoutMs,
      allowPrivate: this.opts.allowPrivate,
    });
    sent();
    this.m.seconds.observe(res.latencyMs / 1000);
    const outcome = this.outcome(d, res);
    await new Promise<void>((resolve, reject) => {
      this.finished.push({ delivery: d, outcome, recorded: { resolve, reject } });
      if (this.finished.length >= RECORD_BATCH) void this.record();
      else this.recordTimer ??= setTimeout(() => void this.record(), RECORD_EVERY_MS);
    });
    const result = outcome.ok
      ? 'delivered'
      : outcome.disable
        ? 'disabled'
        : outcome.retryAt
          ? 'retry'
          : 'failed';
    this.m.attempts.inc({ result });
    if (outcome.disable)
      this.opts.logger.warn({ endpoint: d.endpointId, reason: outcome.disable }, 'webhook endpoint disabled');
  }

  /** Records every finished attempt so far in one statement. */
  private async record(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    const batch = this.finished;
    this.finished = [];
    if (batch.length === 0) return;
    try {
      await recordAttempts(this.opts.pool, batch);
      for (const f of batch) f.recorded.resolve();
    } catch (err) {
      for (const f of batch) f.recorded.reject(err);
    }
  }

  private outcome(d: ClaimedDelivery, res: PostResult) {
    const status = res.statusCode;
    const base = {
      statusCode: status,
      latencyMs: res.latencyMs,
      error: res.error ?? (status !== null && (status < 200 || status >= 300) ? `answered ${status}` : null),
      responseExcerpt: res.excerpt || null,
    };
    if (status !== null && status >= 200 && status < 300)
      return { ...base, ok: true, retryAt: null, disable: null };
    const now = Date.now();
    if (status === 410)
      return {
        ...base,
        ok: false,
        retryAt: null,
        disable: `the endpoint answered 410 Gone on ${new Date(now).toISOString()}; enable it again once it takes deliveries`,
      };
    const failingFor = d.failingSince ? now - d.failingSince.getTime() : 0;
    if (failingFor >= this.opts.disableAfterMs)
      return {
        ...base,
        ok: false,
        retryAt: null,
        disable: `every delivery failed for ${Math.round(failingFor / 3_600_000)} h (last: ${base.error}); fix the endpoint, then enable it again`,
      };
    const step = this.opts.retrySchedule[d.attempts];
    if (step === undefined) return { ...base, ok: false, retryAt: null, disable: null };
    const wait = (status === 429 ? retryAfterMs(res.headers['retry-after'], now) : undefined) ?? jitter(step);
    return { ...base, ok: false, retryAt: new Date(now + wait), disable: null };
  }
}
