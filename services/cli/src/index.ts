/**
 * What tests and benchmarks take from the CLI: the local stack (and its single servers, for tests
 * that stop and restart one), how a service is run, migrations, replay and the table style. The
 * `warden` command itself is `bin/warden.js`.
 */
export { stackDown, stackUp, type PartName } from './stack/index';
export { startClickhouse, waitForClickhouse } from './stack/clickhouse';
export {
  startClickhouseReplicas,
  type ClickhouseReplica,
  type ClickhouseReplicaSet,
} from './stack/clickhouse-replicas';
export { startKafka, startKafkaCluster, waitForKafka, type KafkaPorts } from './stack/kafka';
export { ensureExecutable } from './stack/prerequisites';
export { freePort, isAlive, stopProcess, waitUntil } from './stack/process';
export { startPostgres, waitForPostgres } from './stack/postgres';
export { nodeFlags, serviceArgs, services, type ServiceName } from './commands/start';
export { runMigrate } from './commands/schema';
export { withKeyStore } from './commands/keys';
export { replayRange } from './replay/replay';
export { formatTable } from './table';
