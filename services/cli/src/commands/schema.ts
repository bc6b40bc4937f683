import type { Command } from 'commander';
import { createClickhouse, MAINTENANCE_TIMEOUT_MS } from '@warden/shared/clickhouse/client';
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
import { KeyStore, PostgresKeys } from '@warden/shared/keys/index';
import { createPostgres, ensureDatabase } from '@warden/shared/postgres/client';
import { migratePostgres } from '@warden/shared/postgres/migrate';
import { connectRedis } from './keys';
import { positiveInt } from '../options';

const say = (line: string) => process.stderr.write(`${line}\n`);

/**
 * ClickHouse's migrations, then PostgreSQL's (the control plane), then the keys and accounts that
 * exist only in Redis (from before PostgreSQL was the store) are carried into PostgreSQL.
 */
export async function runMigrate(opts: { database?: string } = {}): Promise<void> {
  await migrateClickhouse(opts);
  await migrateControlPlane();
}

async function migrateControlPlane(): Promise<void> {
  const { databaseUrl, redisUrl } = loadEndpoints();
  const where = redactUrl(databaseUrl);
  const pool = createPostgres({ url: databaseUrl, max: 1 });
  try {
    if ((await ensureDatabase(databaseUrl)) === 'created') say(`migrate: created database on ${where}`);
    const result = await migratePostgres(pool, { progress: say });
    say(
      `migrate: PostgreSQL ${where} is up to date ` +
        `(${result.applied.length} applied now, ${result.alreadyApplied} before)`,
    );
    const redis = await connectRedis(redisUrl);
    try {
      const store = new KeyStore({ redis, source: new PostgresKeys(pool, 'migrate') });
      const carried = await store.importCachedRecords();
      if (carried.keys + carried.projects > 0)
        say(
          `migrate: carried ${carried.keys} keys and ${carried.projects} projects from Redis into PostgreSQL`,
        );
    } finally {
      redis.disconnect();
    }
  } catch (err) {
    throw new Error(
      `migration against PostgreSQL ${where} failed: ${(err as Error).message}. ` +
        'Is PostgreSQL running? `npx warden stack up` uses the one on 127.0.0.1:5432, or set DATABASE_URL.',
      { cause: err },
    );
  } finally {
    await pool.end();
  }
}

async function migrateClickhouse(opts: { database?: string }): Promise<void> {
  const endpoints = loadEndpoints();
  const database = opts.database ?? clickhouseDatabase();
  const cluster = clickhouseCluster();
  const client = createClickhouse({
    url: endpoints.clickhouseUrl,
    requestTimeoutMs: MAINTENANCE_TIMEOUT_MS,
    cluster,
  });
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
    replicationFactor: opts.replicationFactor,
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
          `replication=${result.replicationFactor} min.insync.replicas=${result.minInSync} ` +
          `retention=${spec.retentionMs / 86_400_000}d max.message.bytes=${spec.maxMessageBytes}`,
      );
    }
    for (const d of result.differs) {
      say(
        `topics: ${d.topic} has ${d.setting} ${d.actual}, not ${d.expected}: left as it is ` +
          '(partitions and replicas are changed with kafka-reassign-partitions / kafka-configs, or by recreating the topic)',
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

export function registerSchemaCommands(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply pending ClickHouse migrations (gated on the server version) and PostgreSQL migrations (DATABASE_URL); idempotent',
    )
    .option('--database <name>', 'ClickHouse database (default CLICKHOUSE_DATABASE or "warden")')
    .action((opts: { database?: string }) => runMigrate(opts));
  program
    .command('topics')
    .description('create the Kafka topics with explicit partitions, retention and message size')
    .option('--partitions <n>', 'partitions per topic (default 6)', positiveInt)
    .option('--retention-days <n>', 'replay window in days (default 7)', positiveInt)
    .option(
      '--replication-factor <n>',
      'replication factor (default min(3, brokers); min.insync.replicas 2 from 3)',
      positiveInt,
    )
    .action((opts: { partitions?: number; retentionDays?: number; replicationFactor?: number }) =>
      runTopics(opts),
    );
}
