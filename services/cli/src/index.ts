/**
 * What tests and benchmarks take from the CLI: the local stack (and its single servers, for tests
 * that stop and restart one), how a service is run, migrations and replay. The `warden` command
 * itself is `bin/warden.js`.
 */
export { stackDown, stackStatus, stackUp, type PartName, type PartStatus } from './stack/index';
export { startClickhouse, waitForClickhouse } from './stack/clickhouse';
export { startKafka, waitForKafka } from './stack/kafka';
export { ensureExecutable } from './stack/prerequisites';
export { stopProcess, waitUntil } from './stack/process';
export { nodeFlags, serviceArgs, type ServiceName } from './commands/start';
export { runMigrate } from './commands/schema';
export { replayRange, type ReplayOptions, type ReplayResult } from './replay/replay';
export { formatTable } from './table';
