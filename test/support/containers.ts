import { existsSync } from 'node:fs';
import type { StartedTestContainer } from 'testcontainers';

/**
 * True when a Docker (or compatible) engine answers; these machines have none, CI elsewhere may.
 * testcontainers is loaded only then: it pulls in an undici that needs a newer Node than 20.
 */
export async function dockerAvailable(): Promise<boolean> {
  if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock')) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

export interface ContainerStack {
  env: { KAFKA_BROKERS: string; CLICKHOUSE_URL: string; REDIS_URL: string; DATABASE_URL: string };
  stop(): Promise<void>;
}

/** The same four stores as docker-compose.yml, started by testcontainers with fixed host ports for Kafka. */
export async function startContainers(): Promise<ContainerStack> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const kafkaPort = 29092;
  const started: StartedTestContainer[] = [];
  try {
    const kafka = await new GenericContainer('apache/kafka:3.9.1')
      .withExposedPorts({ container: kafkaPort, host: kafkaPort })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: `PLAINTEXT://0.0.0.0:${kafkaPort},CONTROLLER://0.0.0.0:9093`,
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start();
    started.push(kafka);
    const clickhouse = await new GenericContainer('clickhouse/clickhouse-server:24.8')
      .withExposedPorts(8123)
      .withWaitStrategy(Wait.forHttp('/ping', 8123))
      .start();
    started.push(clickhouse);
    const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    started.push(redis);
    const postgres = await new GenericContainer('postgres:16-alpine')
      .withExposedPorts(5432)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'warden' })
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    started.push(postgres);
    return {
      env: {
        KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
        CLICKHOUSE_URL: `http://${clickhouse.getHost()}:${clickhouse.getMappedPort(8123)}`,
        REDIS_URL: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
        DATABASE_URL: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/warden`,
      },
      stop: async () => {
        await Promise.all(started.map((c) => c.stop()));
      },
    };
  } catch (err) {
    await Promise.all(started.map((c) => c.stop().catch(() => undefined)));
    throw err;
  }
}
