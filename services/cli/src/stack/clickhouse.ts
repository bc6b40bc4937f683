import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadStackConfig, redactUrl } from '@warden/shared/config';
import { ensureExecutable } from './prerequisites';
import { spawnDetached, waitUntil, type WaitWatch } from './process';

export interface ClickhousePorts {
  http: number;
  tcp: number;
}

/** One server's place in a replicated cluster: its macros, its peers and the coordination service. */
export interface ClickhouseReplication {
  cluster: string;
  shard: string;
  replica: string;
  /** The port replicas fetch parts from each other on. */
  interserverPort: number;
  zookeeper: { host: string; port: number };
  /** The cluster's one shard: every replica's native (TCP) port on 127.0.0.1, this one's included. */
  replicaTcpPorts: number[];
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A project-owned server config: data, logs and ports under .stack/, not the system service's. */
function writeClickhouseConfig(
  dir: string,
  ports: ClickhousePorts,
  replication?: ClickhouseReplication,
): string {
  const p = (sub: string) => {
    const path = resolve(dir, sub);
    mkdirSync(path, { recursive: true });
    return xmlEscape(path) + '/';
  };
  const config = resolve(dir, 'config.xml');
  writeFileSync(
    config,
    `<?xml version="1.0"?>
<!-- Written by \`warden stack up\`. Works with ClickHouse 18.16 (Debian) and current releases. -->
<yandex>
  <logger>
    <level>warning</level>
    <log>${p('log')}server.log</log>
    <errorlog>${p('log')}error.log</errorlog>
    <size>50M</size>
    <count>2</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${ports.http}</http_port>
  <tcp_port>${ports.tcp}</tcp_port>
  <max_connections>256</max_connections>
  <keep_alive_timeout>10</keep_alive_timeout>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>268435456</mark_cache_size>
  <path>${p('data')}</path>
  <tmp_path>${p('tmp')}</tmp_path>
  <user_files_path>${p('user_files')}</user_files_path>
  <format_schema_path>${p('format_schemas')}</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
${replication ? replicationConfig(replication) : ''}</yandex>
`,
  );
  writeFileSync(
    resolve(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>4000000000</max_memory_usage>
      <load_balancing>random</load_balancing>
    </default>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
`,
  );
  return config;
}

/**
 * Macros (the `{shard}` and `{replica}` of replicated tables' paths), the cluster of one shard
 * with every replica (internal_replication: a Distributed insert goes to one replica and
 * replication copies it), ZooKeeper, and the queue ON CLUSTER statements go through.
 */
function replicationConfig(r: ClickhouseReplication): string {
  const replicas = r.replicaTcpPorts
    .map((port) => `        <replica><host>127.0.0.1</host><port>${port}</port></replica>`)
    .join('\n');
  return `  <interserver_http_host>127.0.0.1</interserver_http_host>
  <interserver_http_port>${r.interserverPort}</interserver_http_port>
  <macros>
    <shard>${xmlEscape(r.shard)}</shard>
    <replica>${xmlEscape(r.replica)}</replica>
  </macros>
  <remote_servers>
    <${r.cluster}>
      <shard>
        <internal_replication>true</internal_replication>
${replicas}
      </shard>
    </${r.cluster}>
  </remote_servers>
  <zookeeper>
    <node><host>${xmlEscape(r.zookeeper.host)}</host><port>${r.zookeeper.port}</port></node>
    <session_timeout_ms>10000</session_timeout_ms>
  </zookeeper>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
`;
}

/**
 * Launches a server with its config, data and logs under `dir`; returns its pid. With
 * `replication` it is one replica of a cluster (see replicationConfig).
 */
export function startClickhouse(
  ports: ClickhousePorts,
  progress: (line: string) => void,
  dir = resolve(loadStackConfig().dir, 'clickhouse'),
  replication?: ClickhouseReplication,
): number {
  const server = ensureExecutable(
    'ClickHouse server (clickhouse-server)',
    ['clickhouse-server', '/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server'],
    'clickhouse-server',
    progress,
  );
  const config = writeClickhouseConfig(dir, ports, replication);
  return spawnDetached(server, [`--config-file=${config}`], {
    cwd: dir,
    logFile: resolve(dir, 'stdout.log'),
  });
}

export async function clickhouseHealthy(url: string): Promise<boolean> {
  try {
    // /ping needs no credentials, and fetch refuses a URL that carries them.
    const ping = new URL(`${url}/ping`);
    ping.username = ping.password = '';
    const res = await fetch(ping, { signal: AbortSignal.timeout(1000) });
    return res.ok && (await res.text()).trim() === 'Ok.';
  } catch {
    return false;
  }
}

/** Waits until the server at `url` answers; with `watch`, fails at once if its process exits first. */
export async function waitForClickhouse(url: string, timeoutMs = 60000, watch?: WaitWatch): Promise<void> {
  await waitUntil(`ClickHouse at ${redactUrl(url)}`, () => clickhouseHealthy(url), timeoutMs, watch);
}
