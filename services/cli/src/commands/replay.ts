import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { createClickhouse, MAINTENANCE_TIMEOUT_MS } from '@warden/shared/clickhouse/client';
import { dropExpiredPartitions } from '@warden/shared/clickhouse/retention';
import {
  canariesFromEnv,
  clickhouseCluster,
  clickhouseDatabase,
  clickhouseRetentionDays,
  loadEndpoints,
} from '@warden/shared/config';
import type { ReplayProgress } from '../replay/replay';

const isoTime = (label: string) => (v: string) => {
  if (Number.isNaN(Date.parse(v)))
    throw new Error(`${label} must be an ISO 8601 time such as 2026-11-01T00:00:00Z, got "${v}"`);
  return new Date(v).toISOString();
};

function formatProgress(p: ReplayProgress): string {
  const pct = p.total > 0 ? ((100 * p.done) / p.total).toFixed(1) : '100.0';
  return (
    `${p.done.toLocaleString('en')}/${p.total.toLocaleString('en')} interactions (${pct}%), ` +
    `${p.findings.toLocaleString('en')} findings, ${Math.round(p.ratePerSecond).toLocaleString('en')}/s, ETA ${Math.ceil(p.etaSeconds)} s`
  );
}

interface ProgressDisplay {
  show(p: ReplayProgress): void;
  /** Leaves the terminal as it found it; safe to call more than once. */
  stop(): void;
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal (cli-progress), else one line per page,
 * which reads well in a log. The figures are the replay's own (its rate and ETA count only this
 * run's pages, also when it resumed).
 */
function progressDisplay(): ProgressDisplay {
  if (!process.stderr.isTTY) {
    return { show: (p) => process.stderr.write(`replay: ${formatProgress(p)}\n`), stop: () => undefined };
  }
  const bar = new SingleBar({ stream: process.stderr, format: 'replay: {bar} {figures}', barsize: 20 });
  let started = false;
  return {
    show: (p) => {
      const figures = formatProgress(p);
      if (started) bar.update(p.done, { figures });
      else bar.start(p.total, p.done, { figures });
      started = true;
    },
    stop: () => bar.stop(),
  };
}

export function registerReplayCommands(program: Command): void {
  program
    .command('replay')
    .description('re-run the current detectors over the interactions received in [--from, --to); resumable')
    .requiredOption('--from <iso>', 'start of the range (inclusive), ISO 8601', isoTime('--from'))
    .requiredOption('--to <iso>', 'end of the range (exclusive), ISO 8601', isoTime('--to'))
    .option('--dry-run', 'analyse and count, write nothing')
    .option('--page-size <n>', 'interactions per page (default 2000)', (v) => Number(v))
    .action(async (opts: { from: string; to: string; dryRun?: boolean; pageSize?: number }) => {
      // Loaded here, not at CLI start: the detectors and their model are only needed by this command.
      const { replayRange } = await import('../replay/replay');
      const endpoints = loadEndpoints();
      const cluster = clickhouseCluster();
      const client = createClickhouse({
        url: endpoints.clickhouseUrl,
        requestTimeoutMs: MAINTENANCE_TIMEOUT_MS,
        cluster,
      });
      const display = progressDisplay();
      let stop = false;
      process.on('SIGINT', () => {
        if (stop) {
          display.stop();
          process.exit(130);
        }
        stop = true;
        process.stderr.write(
          '\nreplay: stopping after this page; run the same command again to resume (Ctrl-C again to quit now)\n',
        );
      });
      try {
        const result = await replayRange({
          client,
          database: clickhouseDatabase(),
          cluster,
          from: opts.from,
          to: opts.to,
          dryRun: opts.dryRun,
          pageSize: opts.pageSize,
          analyze: { canaries: canariesFromEnv() },
          interrupted: () => stop,
          progress: display.show,
        });
        display.stop();
        const verb = result.dryRun ? 'would re-analyse' : result.completed ? 're-analysed' : 'paused after';
        process.stderr.write(
          `replay: ${verb} ${result.interactions} interactions with detectors ${result.detectorVersion}` +
            `${result.resumed ? ' (resumed)' : ''}: ${result.findings} findings` +
            (result.completed && !result.dryRun
              ? `, ${result.staleDeleted} stale findings deleted, rollups rebuilt`
              : '') +
            '\n',
        );
        if (!result.completed && !result.dryRun) process.exitCode = 130;
      } finally {
        display.stop();
        await client.close();
      }
    });

  program
    .command('retention')
    .description('drop ClickHouse partitions older than the retention (for servers without TTL, e.g. 18.16)')
    .option('--days <n>', 'keep this many days (default WARDEN_RETENTION_DAYS or 90)', (v) => Number(v))
    .action(async (opts: { days?: number }) => {
      const endpoints = loadEndpoints();
      const cluster = clickhouseCluster();
      const client = createClickhouse({
        url: endpoints.clickhouseUrl,
        requestTimeoutMs: MAINTENANCE_TIMEOUT_MS,
        cluster,
      });
      const days = opts.days ?? clickhouseRetentionDays();
      try {
        const dropped = await dropExpiredPartitions(client, clickhouseDatabase(), days, Date.now(), cluster);
        for (const d of dropped) process.stderr.write(`retention: dropped ${JSON.stringify(d)}\n`);
        process.stderr.write(`retention: ${dropped.length} partition(s) older than ${days} days dropped\n`);
      } finally {
        await client.close();
      }
    });
}
