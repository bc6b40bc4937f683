import type { Command } from 'commander';
import { createClickhouse } from '@warden/shared/clickhouse/client';
import { migrate } from '@warden/shared/clickhouse/migrate';
import {
  clickhouseCluster,
  clickhouseDatabase,
  clickhouseRetentionDays,
  loadEndpoints,
  loadTopicConfig,
  redactUrl,
} from '@warden/shared/config';
import { createKafka } from '@warden/shared/kafka/client';
import { ensureTopics, topicSpecs } from '@warden/shared/kafka/topics';

const say = (line: string) => process.stderr.write(`${line}\n`);

export async function runMigrate(opts: { database?: string } = {}): Promise<void> {
  const endpoints = loadEndpoints();
  const database = opts.database ?? clickhouseDatabase();
  const cluster = clickhouseCluster();
  const client = createClickhouse({ url: endpoints.clickhouseUrl, cluster });
  try {
    const result = await migrate(client, {
      database,
      cluster,
      retentionDays: clickhouseRetentionDays(),
      progress: say,
    });
    say(
      `migrate: ${database} on ${redactUrl(endpoints.clickhouseUrl)}${cluster ? ` (cluster ${cluster})` : ''} is up to date ` +
        `(${result.applied.length} applied now, ${result.alreadyApplied} before)`,
    );
  } catch (err) {
    throw new Error(
      `migration against ${redactUrl(endpoints.clickhouseUrl)} failed: ${(err as Error).message}. ` +
        'Is ClickHouse running? `npx warden stack up` starts one, or set CLICKHOUSE_URL.',
      { cause: err },
    );
  } finally {
    await client.close();
  }
}

export async function runTopics(
  opts: { partitions?: number; retentionDays?: number; replicationFactor?: number } = {},
): Promise<void> {
  const endpoints = loadEndpoints();
  const admin = createKafka({ brokers: endpoints.kafkaBrokers, clientId: 'warden-cli' }).admin();
  const config = loadTopicConfig();
  const topicOptions = {
    partitions: opts.partitions ?? config.partitions,
    retentionDays: opts.retentionDays ?? config.replayWindowDays,
    replicationFactor: opts.replicationFactor ?? 1,
  };
  try {
    await admin.connect();
    const result = await ensureTopics(admin, topicOptions);
    for (const spec of topicSpecs(topicOptions)) {
      const state = result.created.includes(spec.name)
        ? 'created'
        : result.raised.includes(spec.name)
          ? 'raised'
          : 'exists';
      say(
        `topics: ${spec.name.padEnd(24)} ${state.padEnd(8)} partitions=${spec.partitions} ` +
          `retention=${spec.retentionMs / 86_400_000}d max.message.bytes=${spec.maxMessageBytes}`,
      );
    }
  } catch (err) {
    throw new Error(
      `creating topics on ${endpoints.kafkaBrokers.join(',')} failed: ${(err as Error).message}. ` +
        'Is Kafka running? `npx warden stack up` starts one, or set KAFKA_BROKERS.',
      { cause: err },
    );
  } finally {
    await admin.disconnect();
  }
}

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`expected a positive integer, got "${v}"`);
  return n;
};

export function registerSchemaCommands(program: Command): void {
  program
    .command('migrate')
    .description('apply pending ClickHouse migrations (idempotent; gated on the server version)')
    .option('--database <name>', 'target database (default CLICKHOUSE_DATABASE or "warden")')
    .action((opts: { database?: string }) => runMigrate(opts));
  program
    .command('topics')
    .description('create the Kafka topics with explicit partitions, retention and message size')
    .option('--partitions <n>', 'partitions per topic (default 6)', positiveInt)
    .option('--retention-days <n>', 'replay window in days (default 7)', positiveInt)
    .option('--replication-factor <n>', 'replication factor (default 1)', positiveInt)
    .action((opts: { partitions?: number; retentionDays?: number; replicationFactor?: number }) =>
      runTopics(opts),
    );
}
