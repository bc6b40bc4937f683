import type { Command } from 'commander';
import { redactUrl } from '@warden/shared/config';
import { stackDown, stackStatus, stackUp, type PartName, type PartStatus } from '../stack/index';
import { formatTable } from '../table';

export function printProgress(part: PartName | 'stack', line: string): void {
  process.stderr.write(`${part.padEnd(10)} ${line}\n`);
}

function printTable(status: Record<PartName, PartStatus>): void {
  const rows = Object.entries(status).map(([part, s]) => [
    part,
    s.healthy ? 'healthy' : s.running ? 'unhealthy' : 'down',
    redactUrl(s.endpoint),
    s.owner + (s.pid ? ` (pid ${s.pid})` : ''),
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
    .option('--json', 'print the resulting status as JSON')
    .action(async (opts: { json?: boolean }) => {
      const status = await stackUp(printProgress);
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
      'print JSON: {"kafka": {"endpoint", ...}, "clickhouse": {...}, "redis": {...}, "postgres": {...}}',
    )
    .action(async (opts: { json?: boolean }) => {
      const status = await stackStatus();
      if (opts.json) console.log(JSON.stringify(status, null, 2));
      else printTable(status);
    });
}
