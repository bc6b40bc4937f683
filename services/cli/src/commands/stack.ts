import type { Command } from 'commander';
import { redactUrl } from '@warden/shared/config';
import { stackDown, stackStatus, stackUp, type PartName, type PartStatus } from '../stack/index';
import { positiveInt } from '../options';
import { formatTable } from '../table';

export function printProgress(part: PartName | 'stack', line: string): void {
  process.stderr.write(`${part.padEnd(10)} ${line}\n`);
}

function printTable(status: Record<PartName, PartStatus>): void {
  const state = (s: { healthy: boolean; running?: boolean }) =>
    s.healthy ? 'healthy' : s.running ? 'unhealthy' : 'down';
  const rows = Object.entries(status).flatMap(([part, s]) => [
    [part, state(s), redactUrl(s.endpoint), s.owner + (s.pid ? ` (pid ${s.pid})` : '')],
    // A cluster: one line per broker under it, since one can be down while the cluster answers.
    ...(s.brokers && s.brokers.length > 1
      ? s.brokers.map((b, i) => [`  broker ${i + 1}`, state(b), b.endpoint, b.pid ? `pid ${b.pid}` : ''])
      : []),
  ]);
  console.log(formatTable(['part', 'state', 'endpoint', 'started by'], rows));
}

export function registerStackCommands(program: Command): void {
  const stack = program
    .command('stack')
    .description(
      'local Kafka (KRaft, Maven jars), ClickHouse, Redis and PostgreSQL for development and tests',
    );

  stack
    .command('up')
    .description(
      'start what is neither configured (KAFKA_BROKERS, CLICKHOUSE_URL, REDIS_URL, DATABASE_URL) nor running; wait until healthy',
    )
    .option(
      '--kafka-brokers <n>',
      'run a local Kafka cluster of n KRaft brokers (replication min(3, n), min.insync.replicas 2 from 3); default: as last time, else 1',
      positiveInt,
    )
    .option('--json', 'print the resulting status as JSON')
    .action(async (opts: { json?: boolean; kafkaBrokers?: number }) => {
      const status = await stackUp(printProgress, { kafkaBrokers: opts.kafkaBrokers });
      if (opts.json) console.log(JSON.stringify(status, null, 2));
      else printTable(status);
    });

  stack
    .command('down')
    .description('stop only the processes `stack up` started')
    .action(async () => {
      await stackDown(printProgress);
    });

  stack
    .command('status')
    .description('show each part, its endpoint and who started it')
    .option(
      '--json',
      'print JSON: {"kafka": {"endpoint", "brokers": [{"endpoint", "pid", "healthy"}], ...}, "clickhouse": {...}, "redis": {...}, "postgres": {...}}',
    )
    .action(async (opts: { json?: boolean }) => {
      const status = await stackStatus();
      if (opts.json) console.log(JSON.stringify(status, null, 2));
      else printTable(status);
    });
}
