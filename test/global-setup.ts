import { stackDown, stackUp, type PartName } from '@warden/cli';
import { dockerAvailable, startContainers } from './support/containers';

const variables: Record<PartName, 'KAFKA_BROKERS' | 'CLICKHOUSE_URL' | 'REDIS_URL' | 'DATABASE_URL'> = {
  kafka: 'KAFKA_BROKERS',
  clickhouse: 'CLICKHOUSE_URL',
  redis: 'REDIS_URL',
  postgres: 'DATABASE_URL',
};

/**
 * Finds real Kafka, ClickHouse, Redis and PostgreSQL for the integration tests: endpoints named in the
 * environment, else containers when a Docker engine answers, else the project's own local stack.
 * Whatever this setup started, its teardown stops; a stack that was already up stays up.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const log = (line: string) => process.stderr.write(`[global-setup] ${line}\n`);
  if (Object.values(variables).every((v) => process.env[v])) {
    log('using KAFKA_BROKERS, CLICKHOUSE_URL, REDIS_URL and DATABASE_URL from the environment');
    return async () => undefined;
  }
  if (process.env.WARDEN_TEST_CONTAINERS !== '0' && (await dockerAvailable())) {
    log('Docker engine found: starting Kafka, ClickHouse, Redis and PostgreSQL containers');
    const containers = await startContainers();
    Object.assign(process.env, containers.env);
    return () => containers.stop();
  }
  const before = await stackUp((part, line) => log(`${part}: ${line}`));
  const startedHere = (Object.keys(before) as PartName[]).filter(
    (part) => before[part].owner === 'warden' && before[part].startedNow,
  );
  for (const part of Object.keys(variables) as PartName[])
    process.env[variables[part]] = before[part].endpoint;
  return async () => {
    if (startedHere.length === 0) return;
    log(`stopping what this run started: ${startedHere.join(', ')}`);
    await stackDown((part, line) => log(`${part}: ${line}`), startedHere);
  };
}
