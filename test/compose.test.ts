import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '@warden/shared/paths';

/**
 * docker-compose.yml is closed by default: no data store answers beyond the host, Redis, ClickHouse
 * and PostgreSQL need a password and every service is given it, and the one public port is ingest's
 * API. It also runs every service the repository has.
 * No Docker engine is needed: the file is read as Compose reads it (YAML with merge keys, then
 * `${VAR}` interpolation from the environment).
 */

interface PortObject {
  target?: number | string;
  published?: number | string;
  host_ip?: string;
}
interface Service {
  image?: string;
  command?: string | string[];
  environment?: Record<string, string | number | null> | string[];
  ports?: Array<string | number | PortObject>;
  networks?: string[] | Record<string, unknown>;
  network_mode?: string;
  volumes?: string[];
  healthcheck?: { test?: string | string[] };
  depends_on?: Record<string, { condition?: string }>;
}
interface ComposeFile {
  services: Record<string, Service>;
  networks?: Record<string, { internal?: boolean } | null>;
}

const composeText = readFileSync(resolve(repoRoot, 'docker-compose.yml'), 'utf8');

/** Compose's interpolation: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$(?:(\$)|([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\})/g,
    (_m, dollar: string | undefined, bare, braced, op: string | undefined, arg: string | undefined) => {
      if (dollar) return '$';
      const name = (bare ?? braced) as string;
      const value = env[name];
      const missing = op?.startsWith(':') ? !value : value === undefined;
      if (!missing || !op) return value ?? '';
      if (op.endsWith('?')) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return arg ?? '';
    },
  );
}

/** Interpolates every string in the parsed file, as Compose does (keys stay as written). */
function interpolated(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolated(v, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v, env)]));
  return value;
}

function loadCompose(env: Record<string, string>): ComposeFile {
  return interpolated(parse(composeText, { merge: true }), env) as ComposeFile;
}

const secrets = {
  REDIS_PASSWORD: 'redis-test-secret',
  CLICKHOUSE_PASSWORD: 'clickhouse-test-secret',
  POSTGRES_PASSWORD: 'postgres-test-secret',
  WARDEN_SECRET_KEY: 'aa'.repeat(32),
};

const environmentOf = (service: Service): Record<string, string> => {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((line) => [line.split('=')[0], line.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v ?? '')]));
};

const commandOf = (service: Service): string[] =>
  typeof service.command === 'string' ? service.command.split(/\s+/) : (service.command ?? []);

/** The host address a published port listens on; Compose's default is every interface. */
function hostAddress(port: string | number | PortObject): string {
  if (typeof port === 'object') return port.host_ip ?? '0.0.0.0';
  const text = String(port).replace(/\/(tcp|udp)$/, '');
  // [host_ip:]host_port:container_port, host_ip possibly an [IPv6] literal.
  const ipv6 = /^\[([^\]]+)\]:/.exec(text)?.[1];
  if (ipv6) return ipv6;
  const parts = text.split(':');
  return parts.length === 3 ? parts[0]! : '0.0.0.0';
}

const loopback = (address: string) => address === '127.0.0.1' || address === '::1' || address === 'localhost';

const dataStore = /kafka|clickhouse|redis|postgres|zookeeper/i;

describe('docker-compose.yml', () => {
  const compose = loadCompose(secrets);
  const services = Object.entries(compose.services);
  const stores = services.filter(([name, s]) => dataStore.test(s.image ?? '') || dataStore.test(name));

  it('has the data stores this check is about', () => {
    expect(stores.map(([name]) => name).sort()).toEqual(
      expect.arrayContaining(['clickhouse', 'kafka', 'postgres', 'redis']),
    );
  });

  it('publishes no data store port beyond the host, and keeps the stores on an internal network', () => {
    for (const [name, store] of stores) {
      expect(store.network_mode, `${name} network_mode`).toBeUndefined();
      for (const port of store.ports ?? []) {
        expect(
          loopback(hostAddress(port)),
          `${name} publishes ${JSON.stringify(port)} on every interface`,
        ).toBe(true);
      }
      const networks = Array.isArray(store.networks) ? store.networks : Object.keys(store.networks ?? {});
      expect(networks.length, `${name} is on the default (non-internal) network`).toBeGreaterThan(0);
      for (const network of networks) {
        expect(compose.networks?.[network]?.internal, `${name}'s network ${network} is internal`).toBe(true);
      }
    }
  });

  it('publishes one port: ingest’s API', () => {
    const published = services.flatMap(([name, s]) =>
      (s.ports ?? []).filter((p) => !loopback(hostAddress(p))).map((p) => ({ name, port: p })),
    );
    expect(published).toHaveLength(1);
    expect(published[0]!.name).toBe('ingest');
    const port = published[0]!.port;
    const target = typeof port === 'object' ? String(port.target) : String(port).split(':').at(-1);
    expect(target).toBe(environmentOf(compose.services.ingest!).PORT);
  });

  it('starts Redis with a password and gives every service a REDIS_URL that carries it', () => {
    const command = commandOf(compose.services.redis!);
    const i = command.indexOf('--requirepass');
    expect(i, 'redis-server --requirepass').toBeGreaterThanOrEqual(0);
    expect(command[i + 1]).toBe(secrets.REDIS_PASSWORD);
    const users = services.filter(([, s]) => environmentOf(s).REDIS_URL !== undefined);
    expect(users.map(([name]) => name)).toEqual(expect.arrayContaining(['ingest', 'init']));
    for (const [name, service] of users) {
      const url = new URL(environmentOf(service).REDIS_URL!);
      expect(decodeURIComponent(url.password), `${name} REDIS_URL password`).toBe(secrets.REDIS_PASSWORD);
      expect(url.hostname).toBe('redis');
    }
  });

  it('gives ClickHouse a user other than default with a password, and CLICKHOUSE_URL carries both', () => {
    const server = environmentOf(compose.services.clickhouse!);
    expect(server.CLICKHOUSE_USER).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    expect(server.CLICKHOUSE_USER).not.toBe('default');
    expect(server.CLICKHOUSE_PASSWORD).toBe(secrets.CLICKHOUSE_PASSWORD);
    const users = services.filter(([, s]) => environmentOf(s).CLICKHOUSE_URL !== undefined);
    expect(users.map(([name]) => name)).toEqual(expect.arrayContaining(['init', 'sink']));
    for (const [name, service] of users) {
      const url = new URL(environmentOf(service).CLICKHOUSE_URL!);
      expect(decodeURIComponent(url.username), `${name} CLICKHOUSE_URL user`).toBe(server.CLICKHOUSE_USER);
      expect(decodeURIComponent(url.password), `${name} CLICKHOUSE_URL password`).toBe(
        secrets.CLICKHOUSE_PASSWORD,
      );
      expect(url.hostname).toBe('clickhouse');
    }
  });

  it('gives PostgreSQL a password, a volume and a healthcheck, and DATABASE_URL carries the password', () => {
    const postgres = compose.services.postgres!;
    const server = environmentOf(postgres);
    expect(server.POSTGRES_USER).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    expect(server.POSTGRES_PASSWORD).toBe(secrets.POSTGRES_PASSWORD);
    expect(postgres.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(String(postgres.healthcheck?.test)).toMatch(/pg_isready/);
    expect(compose.services.init!.depends_on?.postgres?.condition).toBe('service_healthy');
    const users = services.filter(([, s]) => environmentOf(s).DATABASE_URL !== undefined);
    expect(users.map(([name]) => name)).toEqual(expect.arrayContaining(['init', 'ingest']));
    for (const [name, service] of users) {
      const url = new URL(environmentOf(service).DATABASE_URL!);
      expect(url.protocol).toBe('postgres:');
      expect(decodeURIComponent(url.username), `${name} DATABASE_URL user`).toBe(server.POSTGRES_USER);
      expect(decodeURIComponent(url.password), `${name} DATABASE_URL password`).toBe(
        secrets.POSTGRES_PASSWORD,
      );
      expect(url.hostname).toBe('postgres');
      expect(url.pathname).toBe(`/${server.POSTGRES_DB}`);
    }
  });

  it('runs every service in services/ (the CLI as init), each from its own main.ts', () => {
    const serviceDirs = readdirSync(resolve(repoRoot, 'services')).filter((dir) =>
      existsSync(resolve(repoRoot, 'services', dir, 'src/main.ts')),
    );
    expect(serviceDirs).toEqual(
      expect.arrayContaining(['alerter', 'api', 'cli', 'detector', 'ingest', 'sink']),
    );
    for (const dir of serviceDirs) {
      const name = dir === 'cli' ? 'init' : dir;
      expect(compose.services[name], `services/${dir} has no compose service "${name}"`).toBeDefined();
      expect(commandOf(compose.services[name]!).join(' ')).toContain(`services/${dir}/src/main.ts`);
    }
  });

  it('refuses to start without the passwords, pointing at .env.example, which names each of them', () => {
    for (const missing of Object.keys(secrets)) {
      const env: Record<string, string> = { ...secrets, [missing]: '' };
      expect(() => loadCompose(env), `without ${missing}`).toThrow(
        new RegExp(`required variable ${missing} is missing a value: .*\\.env\\.example`),
      );
    }
    const example = readFileSync(resolve(repoRoot, '.env.example'), 'utf8');
    const required = new Set([...composeText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):\?/g)].map((m) => m[1]));
    expect([...required].sort()).toEqual(Object.keys(secrets).sort());
    for (const name of required) expect(example).toMatch(new RegExp(`^${name}=$`, 'm'));
  });
});

/**
 * Compose's merge of a second file over the first: mappings merge key by key, `volumes` and `ports`
 * add up, any other list (a command, `networks: [...]`) is replaced.
 */
function overlay(base: unknown, over: unknown, key = ''): unknown {
  if (Array.isArray(base) && Array.isArray(over))
    return key === 'volumes' || key === 'ports' ? [...base, ...over] : over;
  if (base && over && typeof base === 'object' && typeof over === 'object' && !Array.isArray(base)) {
    const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(over)) merged[k] = k in merged ? overlay(merged[k], v, k) : v;
    return merged;
  }
  return over ?? base;
}

describe('deploy/compose.cluster.yml over docker-compose.yml', () => {
  const clusterText = readFileSync(resolve(repoRoot, 'deploy/compose.cluster.yml'), 'utf8');
  const compose = overlay(
    loadCompose(secrets),
    interpolated(parse(clusterText, { merge: true }), secrets),
  ) as ComposeFile;
  const services = Object.entries(compose.services);
  const clusterXml = readFileSync(resolve(repoRoot, 'deploy/clickhouse/cluster.xml'), 'utf8');
  const kafkaNodes = services.filter(([, s]) => s.image?.startsWith('apache/kafka'));
  const clickhouseNodes = services.filter(([, s]) => s.image?.startsWith('clickhouse/'));
  const wardenServices = services.filter(([, s]) => environmentOf(s).KAFKA_BROKERS !== undefined);

  it('runs three Kafka nodes that form one quorum, each advertising its own name', () => {
    expect(kafkaNodes.map(([name]) => name).sort()).toEqual(['kafka', 'kafka-2', 'kafka-3']);
    const envs = kafkaNodes.map(([name, s]) => ({ name, env: environmentOf(s) }));
    const voters = envs.map(({ name, env }) => `${env.KAFKA_NODE_ID}@${name}:9093`).sort();
    expect(new Set(envs.map(({ env }) => env.KAFKA_NODE_ID)).size).toBe(3);
    for (const { name, env } of envs) {
      expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS!.split(',').sort(), name).toEqual(voters);
      expect(env.KAFKA_ADVERTISED_LISTENERS, name).toBe(`PLAINTEXT://${name}:9092`);
      // KRaft's storage format takes a cluster id of 16 bytes, base64url: the same on every node
      expect(Buffer.from(env.CLUSTER_ID!, 'base64url')).toHaveLength(16);
      expect(env.CLUSTER_ID).toBe(envs[0]!.env.CLUSTER_ID);
      expect(env.KAFKA_MIN_INSYNC_REPLICAS).toBe('2');
      expect(env.KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE).toBe('false');
    }
    const volumes = kafkaNodes.flatMap(([, s]) => s.volumes ?? []).map((v) => v.split(':')[0]);
    expect(new Set(volumes).size, 'each node its own data volume').toBe(3);
  });

  it('runs two ClickHouse replicas of the cluster the services are told, with ZooKeeper', () => {
    const [, cluster] = /<remote_servers>\s*<([A-Za-z_][\w-]*)>/.exec(clusterXml) ?? [];
    const hosts = [...clusterXml.matchAll(/<host>([^<]+)<\/host>\s*<port>9000<\/port>/g)].map((m) => m[1]);
    expect(clickhouseNodes.map(([name]) => name).sort()).toEqual(['clickhouse', 'clickhouse-2']);
    expect(hosts.sort()).toEqual(clickhouseNodes.map(([name]) => name).sort());
    for (const [name, s] of clickhouseNodes) {
      const env = environmentOf(s);
      expect(env.CLICKHOUSE_REPLICA, name).toBe(name);
      expect(env.CLICKHOUSE_USER).toBe('warden');
      expect(env.CLICKHOUSE_PASSWORD).toBe(secrets.CLICKHOUSE_PASSWORD);
      expect(s.volumes, name).toContain(
        './deploy/clickhouse/cluster.xml:/etc/clickhouse-server/config.d/cluster.xml:ro',
      );
      expect(s.depends_on?.zookeeper?.condition, name).toBe('service_healthy');
    }
    expect(clusterXml).toMatch(/<replica from_env="CLICKHOUSE_REPLICA"\s*\/>/);
    expect(clusterXml).toMatch(/<user>warden<\/user>\s*<password from_env="CLICKHOUSE_PASSWORD"\s*\/>/);
    const [, zookeeperHost] = /<zookeeper>\s*<node>\s*<host>([^<]+)<\/host>/.exec(clusterXml) ?? [];
    expect(compose.services[zookeeperHost!]?.image).toMatch(/^zookeeper:/);
    for (const [name, s] of wardenServices) {
      const env = environmentOf(s);
      expect(env.CLICKHOUSE_CLUSTER, name).toBe(cluster);
      expect(env.KAFKA_BROKERS!.split(',').sort(), name).toEqual(kafkaNodes.map(([n]) => `${n}:9092`).sort());
      // the default file's environment is kept, not replaced
      expect(env.REDIS_URL, name).toContain(secrets.REDIS_PASSWORD);
    }
    expect(wardenServices.map(([name]) => name)).toEqual(
      expect.arrayContaining(['init', 'ingest', 'api', 'detector', 'sink', 'alerter']),
    );
  });

  it('creates topics and tables only once every node is healthy, and keeps every store closed', () => {
    const waitsFor = compose.services.init!.depends_on ?? {};
    for (const [name] of [...kafkaNodes, ...clickhouseNodes])
      expect(waitsFor[name]?.condition, `init waits for ${name}`).toBe('service_healthy');
    for (const [name, s] of services.filter(([n, s]) => dataStore.test(s.image ?? '') || dataStore.test(n))) {
      expect(s.ports ?? [], `${name} publishes no port`).toEqual([]);
      const networks = Array.isArray(s.networks) ? s.networks : Object.keys(s.networks ?? {});
      expect(networks, name).toEqual(['data']);
      expect(s.healthcheck?.test, `${name} has a healthcheck`).toBeDefined();
    }
    expect(compose.networks?.data?.internal).toBe(true);
    const required = new Set([...clusterText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):\?/g)].map((m) => m[1]));
    expect([...required].every((name) => name! in secrets)).toBe(true);
  });
});
