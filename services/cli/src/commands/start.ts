import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadApiConfig, loadIngestConfig, redactUrl } from '@warden/shared/config';
import { ensureDashboardBuilt } from '@warden/shared/dashboard-build';
import { repoRoot } from '@warden/shared/paths';
import { stackUp } from '../stack/index';
import { waitUntil } from '../stack/process';
import { demoKey, firstOwner } from './demo';
import { printProgress } from './stack';
import { runMigrate, runTopics } from './schema';
import { supervise } from './supervise';

/** The deployable processes, in start order. */
export const services = ['ingest', 'api', 'detector', 'sink', 'alerter'] as const;
export type ServiceName = (typeof services)[number];

export function serviceEntry(name: ServiceName): string {
  return resolve(repoRoot, 'services', name, 'src', 'main.ts');
}

/**
 * V8 flags per service. The sink turns every message into a short-lived object graph (parsed
 * envelope, row, JSON line): a 64 MB young generation lets almost all of it die there between
 * scavenges, which measured about 10% more sink throughput in `npm run bench:pipeline`.
 * Ingest collects garbage on its own threads: V8's parallel GC helpers cost ingest ~20 µs of CPU
 * per request on two cores already shared by its Kafka thread, the broker and the clients, and
 * single-threaded GC measured 1.23-1.35x more requests/s at ~0.7x the process CPU per request.
 */
export const nodeFlags: Record<ServiceName, string[]> = {
  ingest: ['--single-threaded-gc'],
  api: [],
  detector: [],
  sink: ['--max-semi-space-size=64'],
  alerter: [],
};

/** The arguments to `node` that run a service, the same for `warden start`, tests and benchmarks. */
export function serviceArgs(name: ServiceName): string[] {
  return [...nodeFlags[name], '--import', 'tsx', serviceEntry(name)];
}

/** Starts one service as a child process running its TypeScript through tsx; output is prefixed. */
export function spawnService(name: ServiceName, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, serviceArgs(name), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `${name.padEnd(8)}| `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  return child;
}

export async function runStart(): Promise<void> {
  const t0 = Date.now();
  const status = await stackUp(printProgress);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KAFKA_BROKERS: status.kafka.endpoint,
    CLICKHOUSE_URL: status.clickhouse.endpoint,
    REDIS_URL: status.redis.endpoint,
    DATABASE_URL: status.postgres.endpoint,
    // The services write to a pipe (prefixed here): readable lines when this terminal shows them.
    ...(process.stdout.isTTY && !process.env.WARDEN_LOG_FORMAT ? { WARDEN_LOG_FORMAT: 'pretty' } : {}),
  };
  Object.assign(process.env, env);
  await runMigrate();
  await runTopics();
  try {
    ensureDashboardBuilt((line) => process.stderr.write(`${line}\n`));
  } catch (err) {
    // The pipeline and the API run without it; the API says at / that it is not built.
    process.stderr.write(`warning: ${(err as Error).message}\n`);
  }
  const { port, metricsPort, metricsHost } = loadIngestConfig();
  const apiPort = loadApiConfig().port;
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const supervised = services.map((name) => supervise(name, () => spawnService(name, env), say));
  const stopped = new Promise<void>((done) => {
    let stopping = false;
    const stopAll = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      say(`\nstopping services (${signal})…`);
      void Promise.all(supervised.map((s) => s.stop('SIGTERM'))).then(() => done());
    };
    process.on('SIGINT', () => stopAll('SIGINT'));
    process.on('SIGTERM', () => stopAll('SIGTERM'));
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const key = await demoKey();
  const owner = await firstOwner();
  const healthz = `http://127.0.0.1:${port}/healthz`;
  await waitUntil(
    `ingest at ${healthz}`,
    async () => (await fetch(healthz, { signal: AbortSignal.timeout(1000) })).ok,
    60_000,
  );
  const apiHealthz = `http://127.0.0.1:${apiPort}/healthz`;
  await waitUntil(
    `api at ${apiHealthz}`,
    async () => (await fetch(apiHealthz, { signal: AbortSignal.timeout(1000) })).ok,
    60_000,
  );
  process.stdout.write(
    [
      '',
      `Warden is running (${((Date.now() - t0) / 1000).toFixed(1)} s). Ctrl-C stops the services; \`npx warden stack down\` stops the stack.`,
      `  API         ${base}   (docs: http://127.0.0.1:${port}/docs)`,
      `  Dashboard   http://127.0.0.1:${apiPort}/`,
      ...(owner
        ? [
            `  Sign in     ${owner.email} / ${owner.password}   (created now, shown once; \`npx warden users reset-password --email ${owner.email}\` if lost)`,
          ]
        : [
            `  Sign in     with your user (\`npx warden users create\` adds one; \`npx warden users reset-password\` if forgotten)`,
          ]),
      `  Manage      http://127.0.0.1:${apiPort}/api/v1   (sessions, keys, analytics; docs: http://127.0.0.1:${apiPort}/docs)`,
      `  Metrics     http://${metricsHost}:${metricsPort}/metrics (ingest; not on the API port)`,
      `  Demo key    ${key}   (account demo, professional tier; \`npx warden keys --help\` for more)`,
      `  ClickHouse  ${redactUrl(status.clickhouse.endpoint)} (database warden)`,
      `  Kafka       ${status.kafka.endpoint}`,
      `  PostgreSQL  ${redactUrl(status.postgres.endpoint)} (projects, keys, users)`,
      `  Try it:     curl -s -X POST ${base}/telemetry/ingest -H 'Content-Type: application/json' \\`,
      `                -H 'Authorization: Bearer ${key}' \\`,
      `                -d '{"agentId":"demo","prompt":"hello","response":"hi"}'`,
      '',
    ].join('\n'),
  );
  await stopped;
}

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('the main job: stack up when needed, migrate, create topics, run every service')
    .action(() => runStart());
}
