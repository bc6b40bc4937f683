import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig } from '@warden/shared/config';
import { createKafka } from '@warden/shared/kafka/client';
import { repoRoot } from '@warden/shared/paths';
import { ensureExecutable } from './prerequisites';
import { spawnDetached, waitUntil } from './process';

export const kafkaVersion = '3.9.1';
const pom = resolve(repoRoot, 'deploy', 'kafka', 'pom.xml');

/** Resolves the broker jars from Maven Central into the user cache once. */
export function ensureKafkaJars(progress: (line: string) => void): string {
  const libs = resolve(loadStackConfig().cacheDir, `kafka-${kafkaVersion}`, 'libs');
  const marker = resolve(libs, '.complete');
  if (existsSync(marker)) return libs;
  ensureExecutable('Java 17 (java)', ['java'], 'openjdk-17-jre-headless', progress);
  const mvn = ensureExecutable('Apache Maven (mvn)', ['mvn'], 'maven', progress);
  progress(`resolving Kafka ${kafkaVersion} jars from Maven Central into ${libs}…`);
  mkdirSync(libs, { recursive: true });
  const res = spawnSync(
    mvn,
    [
      '-q',
      '-B',
      '-f',
      pom,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${libs}`,
      '-DincludeScope=runtime',
      `-Dkafka.version=${kafkaVersion}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (res.status !== 0) {
    throw new Error(
      `Maven could not resolve Kafka ${kafkaVersion}: ${res.stdout.toString().slice(-2000)}${res.stderr.toString().slice(-2000)}\n` +
        'Check that Maven Central is reachable (mvn -v; ~/.m2/settings.xml mirrors).',
    );
  }
  if (!readdirSync(libs).some((f) => f.startsWith('kafka_2.13-'))) {
    throw new Error(`Maven finished but ${libs} holds no kafka_2.13 jar`);
  }
  writeFileSync(marker, kafkaVersion);
  return libs;
}

export interface KafkaPorts {
  broker: number;
  controller: number;
}

function writeKafkaConfig(dir: string, ports: KafkaPorts): { props: string; log4j: string; data: string } {
  const data = resolve(dir, 'data');
  mkdirSync(data, { recursive: true });
  const props = resolve(dir, 'server.properties');
  writeFileSync(
    props,
    [
      '# Written by `warden stack up`: one combined KRaft broker+controller for local use.',
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${ports.controller}`,
      `listeners=PLAINTEXT://127.0.0.1:${ports.broker},CONTROLLER://127.0.0.1:${ports.controller}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.broker}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${data}`,
      'num.partitions=6',
      'auto.create.topics.enable=false',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=6',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'message.max.bytes=2097152',
      'log.retention.hours=168',
      'log.segment.bytes=67108864',
      '',
    ].join('\n'),
  );
  const log4j = resolve(dir, 'log4j.properties');
  writeFileSync(
    log4j,
    [
      'log4j.rootLogger=WARN, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      'log4j.logger.kafka.server.KafkaServer=INFO',
      'log4j.logger.kafka.server.BrokerServer=INFO',
      '',
    ].join('\n'),
  );
  return { props, log4j, data };
}

/** Formats storage on first start and launches the broker; returns its pid. `dir` holds config, data and log. */
export function startKafka(
  ports: KafkaPorts,
  progress: (line: string) => void,
  dir = resolve(loadStackConfig().dir, 'kafka'),
): number {
  const libs = ensureKafkaJars(progress);
  const { props, log4j, data } = writeKafkaConfig(dir, ports);
  const classpath = `${libs}/*`;
  const logging = `-Dlog4j.configuration=file:${log4j}`;
  if (!existsSync(resolve(data, 'meta.properties'))) {
    const res = spawnSync(
      'java',
      [logging, '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', randomUUID(), '-c', props],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (res.status !== 0)
      throw new Error(`kafka storage format failed: ${res.stderr.toString().slice(-2000)}`);
  }
  return spawnDetached(
    'java',
    [
      '-Xms128m',
      '-Xmx512m',
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-Djava.awt.headless=true',
      logging,
      `-Dkafka.logs.dir=${dir}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      props,
    ],
    { logFile: resolve(dir, 'server.log') },
  );
}

/** Healthy means a real metadata request succeeds, not just an open port. */
export async function kafkaHealthy(brokers: string[]): Promise<boolean> {
  const admin = createKafka({ brokers, clientId: 'warden-stack', connectionTimeoutMs: 1000 }).admin({
    retry: { retries: 0 },
  });
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export async function waitForKafka(brokers: string[], timeoutMs = 90000): Promise<void> {
  await waitUntil(`Kafka at ${brokers.join(',')}`, () => kafkaHealthy(brokers), timeoutMs);
}
