import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig, stackDefaults, type StackConfig } from '@warden/shared/config';
import { clickhouseHealthy, startClickhouse, waitForClickhouse } from './clickhouse';
import {
  kafkaHealthy,
  kafkaVersion,
  startKafka,
  startKafkaCluster,
  waitForKafka,
  type KafkaPorts,
} from './kafka';
import { isAlive, stopProcess } from './process';
import { postgresHealthy, startPostgres, waitForPostgres } from './postgres';
import { redisHealthy, startRedis, waitForRedis } from './redis';

export type PartName = 'kafka' | 'clickhouse' | 'redis' | 'postgres';
export const partNames: PartName[] = ['kafka', 'clickhouse', 'redis', 'postgres'];

/** Who is responsible for a part: `warden` started it (and `down` stops it); the others are left alone. */
export type Owner = 'warden' | 'environment' | 'already-running' | 'none';

/** One Kafka broker of the stack: its own endpoint, and its pid when `warden` started it. */
export interface BrokerState {
  endpoint: string;
  pid?: number;
}

export interface PartState {
  endpoint: string;
  owner: Owner;
  pid?: number;
  /** Kafka only: every broker (`endpoint` is their comma-separated list, as KAFKA_BROKERS takes it). */
  brokers?: BrokerState[];
}

export interface PartStatus extends Omit<PartState, 'brokers'> {
  healthy: boolean;
  running: boolean;
  brokers?: Array<BrokerState & { healthy: boolean }>;
  /** Set by `stackUp` when this call started the part (so a test run can stop just that). */
  startedNow?: boolean;
}

export interface StackUpOptions {
  /** Kafka brokers to run locally (default: as many as last time, else 1). */
  kafkaBrokers?: number;
}

type State = Partial<Record<PartName, PartState>>;

const ports = {
  kafka: { broker: 19092, controller: 19093 },
  /** Node i of a local cluster listens on 19092 + 2i (broker) and 19093 + 2i (controller). */
  kafkaNode: (i: number): KafkaPorts => ({ broker: 19092 + 2 * i, controller: 19093 + 2 * i }),
  clickhouse: { http: 18123, tcp: 19000 },
  redisFallback: 16379,
  postgresFallback: 15432,
};

const envVar: Record<PartName, string> = {
  kafka: 'KAFKA_BROKERS',
  clickhouse: 'CLICKHOUSE_URL',
  redis: 'REDIS_URL',
  postgres: 'DATABASE_URL',
};

const defaultEndpoint: Record<PartName, string> = {
  kafka: stackDefaults.kafkaBrokers,
  clickhouse: stackDefaults.clickhouseUrl,
  redis: stackDefaults.redisUrl,
  postgres: stackDefaults.databaseUrl,
};

const stateFile = (dir: string) => resolve(dir, 'state.json');
const endpointsFile = (dir: string) => resolve(dir, 'endpoints.json');

function readState(dir: string): State {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as State;
  } catch {
    return {};
  }
}

function writeState(dir: string, state: State): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(stateFile(dir), JSON.stringify(state, null, 2) + '\n');
  const endpoints: Record<string, string> = {};
  if (state.kafka) endpoints.kafkaBrokers = state.kafka.endpoint;
  if (state.clickhouse) endpoints.clickhouseUrl = state.clickhouse.endpoint;
  if (state.redis) endpoints.redisUrl = state.redis.endpoint;
  if (state.postgres) endpoints.databaseUrl = state.postgres.endpoint;
  writeFileSync(endpointsFile(dir), JSON.stringify(endpoints, null, 2) + '\n');
}

function healthy(part: PartName, endpoint: string): Promise<boolean> {
  if (part === 'kafka') return kafkaHealthy(endpoint.split(','));
  if (part === 'clickhouse') return clickhouseHealthy(endpoint);
  if (part === 'postgres') return postgresHealthy(endpoint);
  return redisHealthy(endpoint);
}

function waitHealthy(part: PartName, endpoint: string): Promise<void> {
  if (part === 'kafka') return waitForKafka(endpoint.split(','));
  if (part === 'clickhouse') return waitForClickhouse(endpoint);
  if (part === 'postgres') return waitForPostgres(endpoint);
  return waitForRedis(endpoint);
}

export type Progress = (part: PartName | 'stack', line: string) => void;

interface Plan {
  part: PartName;
  endpoint: string;
  owner: Owner;
  pid?: number;
  brokers?: BrokerState[];
  action: 'configured' | 'already running' | 'started' | 'reused';
}

/** The endpoint the environment names for a part, if it names one. */
function configuredEndpoint(part: PartName, { configured }: StackConfig): string | undefined {
  if (part === 'kafka') return configured.kafkaBrokers?.join(',');
  if (part === 'clickhouse') return configured.clickhouseUrl;
  if (part === 'postgres') return configured.databaseUrl;
  return configured.redisUrl;
}

/** Decides per part whether to use a configured endpoint, reuse a running server, or start one. */
async function planPart(
  part: PartName,
  config: StackConfig,
  state: State,
  progress: Progress,
  options: StackUpOptions,
): Promise<Plan> {
  const configured = configuredEndpoint(part, config);
  if (configured) return { part, endpoint: configured, owner: 'environment', action: 'configured' };
  const previous = state[part];
  if (part === 'kafka') {
    const count = options.kafkaBrokers ?? previous?.brokers?.length ?? 1;
    const clusterRunning =
      previous?.owner === 'warden' &&
      (previous.brokers?.length ?? 1) > 1 &&
      previous.brokers!.some((b) => isAlive(b.pid));
    if (count > 1 || clusterRunning)
      return planKafkaCluster(count, config, previous, (line) => progress(part, line));
  }
  if (previous?.owner === 'warden' && isAlive(previous.pid)) {
    return {
      part,
      endpoint: previous.endpoint,
      owner: 'warden',
      pid: previous.pid,
      action: 'already running',
    };
  }
  const say = (line: string) => progress(part, line);
  if (part === 'kafka') {
    const endpoint = defaultEndpoint.kafka;
    if (await kafkaHealthy([endpoint])) return { part, endpoint, owner: 'already-running', action: 'reused' };
    say(`starting Kafka ${kafkaVersion} (KRaft) on ${endpoint}…`);
    return { part, endpoint, owner: 'warden', pid: startKafka(ports.kafka, say), action: 'started' };
  }
  if (part === 'clickhouse') {
    const endpoint = defaultEndpoint.clickhouse;
    if (await clickhouseHealthy(endpoint))
      return { part, endpoint, owner: 'already-running', action: 'reused' };
    say(`starting ClickHouse on ${endpoint}…`);
    return {
      part,
      endpoint,
      owner: 'warden',
      pid: startClickhouse(ports.clickhouse, say),
      action: 'started',
    };
  }
  if (part === 'postgres') {
    // The machine's own server on 5432 when it answers (the stack creates its database and never
    // stops it), else Debian's run as a plain process under .stack/ on a project port.
    const endpoint = defaultEndpoint.postgres;
    if (await postgresHealthy(endpoint))
      return { part, endpoint, owner: 'already-running', action: 'reused' };
    const own = `postgres://postgres@127.0.0.1:${ports.postgresFallback}/warden`;
    if (await postgresHealthy(own))
      return { part, endpoint: own, owner: 'already-running', action: 'reused' };
    say(`starting PostgreSQL on ${own}…`);
    return {
      part,
      endpoint: own,
      owner: 'warden',
      pid: startPostgres(ports.postgresFallback, say),
      action: 'started',
    };
  }
  // Redis: the machine's own server on 6379 when it answers, else one of ours on a project port.
  if (await redisHealthy(defaultEndpoint.redis)) {
    return { part, endpoint: defaultEndpoint.redis, owner: 'already-running', action: 'reused' };
  }
  const endpoint = `redis://127.0.0.1:${ports.redisFallback}`;
  if (await redisHealthy(endpoint)) return { part, endpoint, owner: 'already-running', action: 'reused' };
  say(`starting Redis on ${endpoint}…`);
  return { part, endpoint, owner: 'warden', pid: startRedis(ports.redisFallback, say), action: 'started' };
}

/**
 * A local Kafka cluster of `count` KRaft nodes under `.stack/kafka-cluster`: nodes that are down are
 * started (again), with the cluster's id kept on disk so a restarted node rejoins. Changing the
 * number of brokers of a running stack is refused: its topics and replicas were laid out for the
 * old number.
 */
async function planKafkaCluster(
  count: number,
  config: StackConfig,
  previous: PartState | undefined,
  say: (line: string) => void,
): Promise<Plan> {
  const nodePorts = Array.from({ length: count }, (_, i) => ports.kafkaNode(i));
  const endpoints = nodePorts.map((p) => `127.0.0.1:${p.broker}`);
  const ours = previous?.owner === 'warden' ? previous : undefined;
  const running = (ours?.brokers ?? (ours ? [{ endpoint: ours.endpoint, pid: ours.pid }] : [])).filter((b) =>
    isAlive(b.pid),
  );
  if (running.length > 0 && (ours?.brokers?.length ?? 1) !== count) {
    throw new Error(
      `Kafka runs here with ${ours?.brokers?.length ?? 1} broker(s); to run ${count}, stop it first ` +
        '(`npx warden stack down`), then `npx warden stack up --kafka-brokers ' +
        `${count}\`. Its topics keep their old replication until recreated.`,
    );
  }
  if (running.length === 0 && (await kafkaHealthy([endpoints[0]!]))) {
    throw new Error(
      `a Kafka not started by warden answers on ${endpoints[0]}: stop it, or point KAFKA_BROKERS at it ` +
        'instead of asking for a local cluster.',
    );
  }
  const down = endpoints.map((_, i) => i).filter((i) => !isAlive(ours?.brokers?.[i]?.pid));
  const dir = resolve(config.dir, 'kafka-cluster');
  if (down.length > 0)
    say(`starting Kafka ${kafkaVersion} (KRaft) nodes ${down.map((i) => i + 1).join(', ')} of ${count}…`);
  const started = down.length > 0 ? startKafkaCluster(nodePorts, say, dir, down) : [];
  const brokers = endpoints.map((endpoint, i) => ({
    endpoint,
    pid: down.includes(i) ? started[down.indexOf(i)] : ours?.brokers?.[i]?.pid,
  }));
  return {
    part: 'kafka',
    endpoint: endpoints.join(','),
    owner: 'warden',
    brokers,
    action: down.length > 0 ? 'started' : 'already running',
  };
}

/** Idempotent: brings every part to healthy, starting only what is neither configured nor running. */
export async function stackUp(
  progress: Progress = () => undefined,
  options: StackUpOptions = {},
): Promise<Record<PartName, PartStatus>> {
  const config = loadStackConfig();
  const state = readState(config.dir);
  const plans: Plan[] = [];
  try {
    for (const part of partNames) plans.push(await planPart(part, config, state, progress, options));
  } finally {
    // Record what was started even if a later part fails, so `down` can still stop it.
    for (const plan of plans)
      state[plan.part] = {
        endpoint: plan.endpoint,
        owner: plan.owner,
        pid: plan.pid,
        ...(plan.brokers ? { brokers: plan.brokers } : {}),
      };
    writeState(config.dir, state);
  }
  await Promise.all(
    plans.map(async (plan) => {
      const t0 = Date.now();
      try {
        await waitHealthy(plan.part, plan.endpoint);
      } catch (err) {
        const hint =
          plan.owner === 'warden'
            ? ` See ${resolve(config.dir, plan.part)} for its log.`
            : ` Check that ${envVar[plan.part]}=${plan.endpoint} is reachable.`;
        throw new Error(`${(err as Error).message}.${hint}`, { cause: err });
      }
      const took = plan.action === 'started' ? ` in ${((Date.now() - t0) / 1000).toFixed(1)} s` : '';
      progress(plan.part, `${plan.action}, healthy at ${plan.endpoint}${took}`);
    }),
  );
  const status = await stackStatus();
  for (const plan of plans) if (plan.action === 'started') status[plan.part].startedNow = true;
  return status;
}

/** Stops only the processes `up` started; configured and pre-existing servers are left alone. */
export async function stackDown(
  progress: Progress = () => undefined,
  only: PartName[] = partNames,
): Promise<void> {
  const { dir } = loadStackConfig();
  const state = readState(dir);
  for (const part of only) {
    const entry = state[part];
    if (!entry) continue;
    const pids = entry.brokers ? entry.brokers.map((b) => b.pid) : [entry.pid];
    if (entry.owner === 'warden' && pids.some(Boolean)) {
      for (const pid of pids) {
        if (!pid) continue;
        progress(part, `stopping pid ${pid}…`);
        progress(part, await stopProcess(pid));
      }
    } else {
      progress(part, `left running (${entry.owner})`);
    }
    delete state[part];
  }
  if (Object.keys(state).length > 0) {
    writeState(dir, state);
    return;
  }
  if (existsSync(stateFile(dir))) rmSync(stateFile(dir));
  if (existsSync(endpointsFile(dir))) rmSync(endpointsFile(dir));
}

export async function stackStatus(): Promise<Record<PartName, PartStatus>> {
  const config = loadStackConfig();
  const state = readState(config.dir);
  const entries = await Promise.all(
    partNames.map(async (part): Promise<[PartName, PartStatus]> => {
      const configured = configuredEndpoint(part, config);
      const entry: PartState = configured
        ? { endpoint: configured, owner: 'environment' }
        : (state[part] ?? { endpoint: defaultEndpoint[part], owner: 'none' });
      const ok = await healthy(part, entry.endpoint);
      const owner = entry.owner === 'none' && ok ? 'already-running' : entry.owner;
      if (part !== 'kafka') {
        const running = entry.owner === 'warden' ? isAlive(entry.pid) : ok;
        return [part, { endpoint: entry.endpoint, pid: entry.pid, owner, healthy: ok, running }];
      }
      // Every broker on its own: a cluster can answer while one of its brokers is down.
      const known =
        entry.brokers ?? entry.endpoint.split(',').map((endpoint) => ({ endpoint, pid: entry.pid }));
      const brokers = await Promise.all(
        known.map(async (b) => ({ ...b, healthy: await kafkaHealthy([b.endpoint]) })),
      );
      const running = entry.owner === 'warden' ? brokers.some((b) => isAlive(b.pid)) : ok;
      return [part, { ...entry, owner, healthy: ok, running, brokers }];
    }),
  );
  return Object.fromEntries(entries) as Record<PartName, PartStatus>;
}
