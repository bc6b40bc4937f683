import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { startClickhouse, waitForClickhouse, type ClickhouseReplication } from './clickhouse';
import { ExitedBeforeHealthyError, freePort, isAlive, stopProcess, waitUntil } from './process';
import { startZookeeper, waitForZookeeper } from './zookeeper';

export interface ClickhouseReplica {
  /** The `{replica}` macro: r1, r2, … */
  name: string;
  url: string;
  dir: string;
  pid: number;
}

/** ZooKeeper and the servers of one replicated shard, each with its own ports and data dir. */
export interface ClickhouseReplicaSet {
  /** The cluster name, what CLICKHOUSE_CLUSTER takes. */
  cluster: string;
  zookeeper: { port: number; pid: number };
  replicas: ClickhouseReplica[];
  /** SIGKILL: the replica dies mid-write, as a crash or an OOM kill would leave it. */
  kill(index: number): void;
  /** Starts a replica again on its ports and data (after `kill`) and waits until it answers. */
  restart(index: number): Promise<void>;
  /** Stops every server and ZooKeeper. */
  stop(): Promise<void>;
}

export interface ClickhouseReplicaOptions {
  /** Config, data and logs: `<dir>/zookeeper`, `<dir>/r1`, `<dir>/r2`, … */
  dir: string;
  replicas?: number;
  cluster?: string;
  progress?: (line: string) => void;
}

/**
 * A replica killed mid-insert may hold parts it wrote but never registered in ZooKeeper (inserts it
 * never acknowledged). With more of them than its sanity limits allow, ClickHouse 18.16 refuses to
 * attach the table: the server either exits at start ("The local set of parts … doesn't look like the
 * set of parts in ZooKeeper") or, as seen in about one start in three with a database of 26 tables,
 * comes up without that table and logs nothing. The documented way out is the flag file
 * `<data>/flags/force_restore_data`: the server then moves those parts to `detached/` and fetches
 * what ZooKeeper lists from the other replica (it removes the flag once it is up). A SIGKILLed replica
 * is always started with it: nothing it holds that ZooKeeper lacks was ever acknowledged.
 */
function allowPartRestore(replicaDir: string): void {
  const flags = resolve(replicaDir, 'data', 'flags');
  mkdirSync(flags, { recursive: true });
  writeFileSync(resolve(flags, 'force_restore_data'), '');
}

/** Tables with a metadata file that the server at `url` has not attached (`database.table`). */
async function unattachedTables(url: string, replicaDir: string): Promise<string[]> {
  const metadata = resolve(replicaDir, 'data', 'metadata');
  const expected = readdirSync(metadata, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((database) =>
      readdirSync(resolve(metadata, database.name))
        .filter((file) => file.endsWith('.sql'))
        .map(
          (file) => `${unescapeFileName(database.name)}.${unescapeFileName(file.slice(0, -'.sql'.length))}`,
        ),
    );
  const query = new URL(url);
  query.searchParams.set(
    'query',
    "SELECT concat(database, '.', name) FROM system.tables FORMAT TabSeparatedRaw",
  );
  const res = await fetch(query, { signal: AbortSignal.timeout(10000) });
  if (!res.ok)
    throw new Error(`ClickHouse at ${url} did not list its tables: ${res.status} ${await res.text()}`);
  const attached = new Set((await res.text()).split('\n'));
  return expected.filter((table) => !attached.has(table));
}

/** ClickHouse names a table's metadata file with every byte outside [A-Za-z0-9_] as %XX. */
const unescapeFileName = (name: string) => decodeURIComponent(name);

/** How often a start is tried on fresh ports when a server exits before it answers. */
const startAttempts = 3;

/**
 * Starts a standalone ZooKeeper and `replicas` (default 2) ClickHouse servers that form one shard of
 * `cluster` (default `warden`), on free ports of 127.0.0.1, and waits until all of them answer. For
 * tests and local trials of replication; production runs ClickHouse Keeper or a ZooKeeper ensemble.
 * A server that exits before it answers (its port taken meanwhile) costs a new try on new ports.
 */
export async function startClickhouseReplicas(opts: ClickhouseReplicaOptions): Promise<ClickhouseReplicaSet> {
  const progress = opts.progress ?? (() => undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts, progress);
    } catch (err) {
      if (!(err instanceof ExitedBeforeHealthyError) || attempt >= startAttempts) throw err;
      progress(`${err.message}\n(try ${attempt} of ${startAttempts}; starting again on other ports)`);
    }
  }
}

async function startOnce(
  opts: ClickhouseReplicaOptions,
  progress: (line: string) => void,
): Promise<ClickhouseReplicaSet> {
  const cluster = opts.cluster ?? 'warden';
  const count = opts.replicas ?? 2;
  const zookeeperPort = await freePort();
  const zookeeperDir = resolve(opts.dir, 'zookeeper');
  const zookeeper = {
    port: zookeeperPort,
    pid: startZookeeper(zookeeperPort, progress, zookeeperDir),
  };
  const servers: Array<{ http: number; tcp: number; interserver: number }> = [];
  for (let i = 0; i < count; i++)
    servers.push({ http: await freePort(), tcp: await freePort(), interserver: await freePort() });
  const replicas: ClickhouseReplica[] = servers.map((ports, i) => ({
    name: `r${i + 1}`,
    url: `http://127.0.0.1:${ports.http}`,
    dir: resolve(opts.dir, `r${i + 1}`),
    pid: 0,
  }));
  const launch = (i: number) => {
    const ports = servers[i]!;
    const replica = replicas[i]!;
    const replication: ClickhouseReplication = {
      cluster,
      shard: '1',
      replica: replica.name,
      interserverPort: ports.interserver,
      zookeeper: { host: '127.0.0.1', port: zookeeperPort },
      replicaTcpPorts: servers.map((s) => s.tcp),
    };
    replica.pid = startClickhouse({ http: ports.http, tcp: ports.tcp }, progress, replica.dir, replication);
  };
  const watch = (i: number) => ({
    pid: replicas[i]!.pid,
    logFile: resolve(replicas[i]!.dir, 'log', 'error.log'),
  });
  const set: ClickhouseReplicaSet = {
    cluster,
    zookeeper,
    replicas,
    kill: (i) => {
      const { pid } = replicas[i]!;
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    },
    restart: async (i) => {
      // The killed server must be gone before another opens its data dir and ports; a start that
      // still exits at once (its ports or lock not yet released) is tried again after a pause, and so
      // is one that came up without a table it has metadata for.
      await waitUntil('the killed replica to exit', async () => !isAlive(replicas[i]!.pid), 10000).catch(
        () => undefined,
      );
      const replica = replicas[i]!;
      for (let attempt = 1; ; attempt++) {
        allowPartRestore(replica.dir);
        launch(i);
        let failure: Error;
        try {
          await waitForClickhouse(replica.url, 60000, watch(i));
          const missing = await unattachedTables(replica.url, replica.dir);
          if (missing.length === 0) return;
          failure = new Error(`ClickHouse at ${replica.url} came up without ${missing.join(', ')}`);
          await stopProcess(replica.pid);
        } catch (err) {
          if (!(err instanceof ExitedBeforeHealthyError)) throw err;
          failure = err;
        }
        if (attempt >= startAttempts) throw failure;
        progress(`${failure.message}\n(restart try ${attempt} of ${startAttempts}; trying again in 2 s)`);
        await setTimeout(2000);
      }
    },
    stop: async () => {
      await Promise.all(replicas.filter((r) => r.pid).map((r) => stopProcess(r.pid)));
      await stopProcess(zookeeper.pid);
    },
  };
  try {
    await waitForZookeeper(zookeeperPort, 60000, {
      pid: zookeeper.pid,
      logFile: resolve(zookeeperDir, 'server.log'),
    });
    for (let i = 0; i < count; i++) launch(i);
    await Promise.all(replicas.map((r, i) => waitForClickhouse(r.url, 60000, watch(i))));
  } catch (err) {
    await set.stop();
    throw err;
  }
  progress(
    `ZooKeeper on 127.0.0.1:${zookeeperPort}; cluster ${cluster}: ${replicas.map((r) => `${r.name} ${r.url}`).join(', ')}`,
  );
  return set;
}
