import Fastify from 'fastify';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { InteractionRecord } from '@warden/shared/schemas/interaction';

/**
 * The baseline for `bench:ingest`: a Fastify route that parses and validates the same body with
 * the same TypeBox schema and answers at once. No auth, no limits, no Kafka.
 */
const check = TypeCompiler.Compile(InteractionRecord);
const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
app.post('/api/v1/telemetry/ingest', async (req, reply) => {
  if (!check.Check(req.body))
    return reply.code(400).send({ error: { code: 'INVALID_REQUEST', message: 'invalid' } });
  return {
    status: 'success',
    message: 'ok',
    agentId: (req.body as { agentId: string }).agentId,
    interactionId: 'x',
  };
});
app.post('/api/v1/telemetry/batch', async (req, reply) => {
  const { interactions } = req.body as { interactions: unknown[] };
  const ok = interactions.filter((r) => check.Check(r)).length;
  return reply.code(ok === interactions.length ? 200 : 207).send({ accepted: ok });
});
const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
