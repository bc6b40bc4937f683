import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig } from '@warden/shared/config';
import { createKafka } from '@warden/shared/kafka/client';
import { replicationFor } from '@warden/shared/kafka/topics';
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

/** One node of a local KRaft cluster: broker and controller in one process, as `stack up` runs them. */
interface KafkaNode {
  id: number;
  ports: KafkaPorts;
  dir: string;
}

function writeKafkaConfig(
  node: KafkaNode,
  nodes: KafkaNode[],
): { props: string; log4j: string; data: string } {
  const { dir, ports } = node;
  const data = resolve(dir, 'data');
  mkdirSync(data, { recursive: true });
  const { factor, minInSync } = replicationFor(nodes.length);
  const voters = nodes.map((n) => `${n.id}@127.0.0.1:${n.ports.controller}`).join(',');
  const props = resolve(dir, 'server.properties');
  writeFileSync(
    props,
    [
      `# Written by \`warden stack up\`: KRaft node ${node.id} of ${nodes.length}, broker and controller in one process.`,
      'process.roles=broker,controller',
      `node.id=${node.id}`,
      `controller.quorum.voters=${voters}`,
      `listeners=PLAINTEXT://127.0.0.1:${ports.broker},CONTROLLER://127.0.0.1:${ports.controller}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.broker}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${data}`,
      'num.partitions=6',
      'auto.create.topics.enable=false',
      `default.replication.factor=${factor}`,
      `min.insync.replicas=${minInSync}`,
      `offsets.topic.replication.factor=${factor}`,
      'offsets.topic.num.partitions=6',
      `transaction.state.log.replication.factor=${factor}`,
      `transaction.state.log.min.isr=${minInSync}`,
      // Never elect a replica that missed acknowledged writes: a 503 is better than a lost record.
      'unclean.leader.election.enable=false',
      'group.initial.rebalance.delay.ms=0',
      'message.max.bytes=2097152',
      'replica.fetch.max.bytes=4194304',
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

/** Formats the node's storage on first start (with the cluster's id) and launches it; returns its pid. */
function startKafkaNode(node: KafkaNode, nodes: KafkaNode[], clusterId: string, libs: string): number {
  const { props, log4j, data } = writeKafkaConfig(node, nodes);
  const classpath = `${libs}/*`;
  const logging = `-Dlog4j.configuration=file:${log4j}`;
  if (!existsSync(resolve(data, 'meta.properties'))) {
    const res = spawnSync(
      'java',
      [logging, '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props],
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
      `-Dkafka.logs.dir=${node.dir}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      props,
    ],
    { logFile: resolve(node.dir, 'server.log') },
  );
}

/** The cluster's id, chosen at its first start and kept beside its nodes so a restart rejoins it. */
function clusterIdOf(dir: string): string {
  const file = resolve(dir, 'cluster-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const id = randomUUID();
  writeFileSync(file, id);
  return id;
}

/**
 * A local KRaft cluster of `ports.length` nodes under `dir` (`node-1`, `node-2`, …), every node a
 * broker and a controller; replication as `replicationFor` says. Returns the nodes' pids in order.
 * `only` starts just those node indexes again (a node killed in a test, say).
 */
export function startKafkaCluster(
  ports: KafkaPorts[],
  progress: (line: string) => void,
  dir: string,
  only?: number[],
): number[] {
  const libs = ensureKafkaJars(progress);
  const nodes = ports.map((p, i) => ({ id: i + 1, ports: p, dir: resolve(dir, `node-${i + 1}`) }));
  const clusterId = clusterIdOf(dir);
  return nodes
    .filter((_, i) => only === undefined || only.includes(i))
    .map((node) => startKafkaNode(node, nodes, clusterId, libs));
}

/** One combined KRaft broker+controller (the default local stack); returns its pid. */
export function startKafka(
  ports: KafkaPorts,
  progress: (line: string) => void,
  dir = resolve(loadStackConfig().dir, 'kafka'),
): number {
  const libs = ensureKafkaJars(progress);
  const node = { id: 1, ports, dir };
  return startKafkaNode(node, [node], randomUUID(), libs);
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
