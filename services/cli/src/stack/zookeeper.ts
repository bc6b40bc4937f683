import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { ensureExecutable } from './prerequisites';
import { spawnDetached, waitUntil, type WaitWatch } from './process';

/**
 * Debian's `zookeeper` package (3.8): its jar names its dependencies in its manifest, so one jar
 * and a logging binding make the classpath. Replicated tables on ClickHouse 18.16 need ZooKeeper
 * (ClickHouse Keeper came later).
 */
const zookeeperJars = [
  '/usr/share/java/zookeeper.jar',
  '/usr/share/java/slf4j-log4j12.jar',
  '/usr/share/java/log4j-1.2.jar',
];

/** A standalone ZooKeeper with its config, data and log under `dir`, on 127.0.0.1:`port`; returns its pid. */
export function startZookeeper(port: number, progress: (line: string) => void, dir: string): number {
  ensureExecutable('Java 17 (java)', ['java'], 'openjdk-17-jre-headless', progress);
  ensureExecutable(
    'ZooKeeper (zkServer.sh)',
    ['/usr/share/zookeeper/bin/zkServer.sh'],
    'zookeeper',
    progress,
  );
  const data = resolve(dir, 'data');
  mkdirSync(data, { recursive: true });
  const config = resolve(dir, 'zoo.cfg');
  writeFileSync(
    config,
    [
      '# Written by Warden: one standalone server for local replicated ClickHouse.',
      'tickTime=500',
      `dataDir=${data}`,
      `clientPort=${port}`,
      'clientPortAddress=127.0.0.1',
      'maxClientCnxns=0',
      'admin.enableServer=false',
      '4lw.commands.whitelist=ruok,srvr,mntr',
      '',
    ].join('\n'),
  );
  writeFileSync(
    resolve(dir, 'log4j.properties'),
    [
      'log4j.rootLogger=WARN, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      '',
    ].join('\n'),
  );
  // `dir` first: log4j finds its log4j.properties on the classpath.
  const classpath = [dir, ...zookeeperJars.filter((jar) => existsSync(jar))].join(':');
  return spawnDetached(
    'java',
    [
      '-Xms64m',
      '-Xmx256m',
      '-Djava.awt.headless=true',
      '-cp',
      classpath,
      'org.apache.zookeeper.server.ZooKeeperServerMain',
      config,
    ],
    { logFile: resolve(dir, 'server.log') },
  );
}

/** Healthy means the server answers the `ruok` four-letter command with `imok`. */
export function zookeeperHealthy(port: number): Promise<boolean> {
  return new Promise((done) => {
    let answer = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end('ruok'));
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => done(false));
    socket.on('close', () => done(answer === 'imok'));
  });
}

export async function waitForZookeeper(port: number, timeoutMs = 60000, watch?: WaitWatch): Promise<void> {
  await waitUntil(`ZooKeeper on 127.0.0.1:${port}`, () => zookeeperHealthy(port), timeoutMs, watch);
}
