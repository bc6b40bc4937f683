// What other packages (tests, tooling) may use of ingest: the app, its guards and its publisher.
export { buildApp, type IngestDeps, type IngestLimits } from './app';
export { openGuards, type Caller, type Guards } from './guards';
export { redisGuards, type RedisGuards, type RedisGuardsOptions } from './redis-guards';
export { kafkaPublisher, type EncodedEnvelope, type EnvelopePublisher } from './publish';
