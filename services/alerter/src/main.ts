import { loadSecretKey } from '@warden/shared/alerts/secrets';
import { loadAlerterConfig } from '@warden/shared/config';
import { runConsumerService } from '@warden/shared/kafka/consumer-service';
import { topics } from '@warden/shared/kafka/topics';
import { createPostgres } from '@warden/shared/postgres/client';
import { Dispatcher } from './dispatcher';
import { AlerterPipeline } from './pipeline';

const config = loadAlerterConfig(process.env);
const secretKey = loadSecretKey(process.env);
const pool = createPostgres({ url: config.endpoints.databaseUrl, max: 8 });

await runConsumerService({ name: 'alerter', config }, ({ consumer, writer, log, metrics }) => {
  const dispatcher = new Dispatcher({ pool, logger: log, metrics, secretKey, ...config });
  const pipeline = new AlerterPipeline({
    consumer,
    writer,
    groupId: config.groupId,
    logger: log,
    metrics,
    pool,
    dashboardUrl: config.dashboardUrl,
    fromBeginning: config.fromBeginning,
    onEnqueued: () => dispatcher.wake(),
  });
  return {
    pipeline: {
      // The outbox is sent from the start: what a killed alerter left due goes before the group is joined.
      start: async () => {
        dispatcher.start();
        await pipeline.start();
      },
      stop: async () => {
        await pipeline.stop();
        await dispatcher.stop();
      },
    },
    // A failing PostgreSQL holds the batch in hand (retried): the watch reads it as a stall only past
    // WARDEN_CONSUMER_STALL_MS, and a fresh process resumes from the committed offsets all the same.
    watch: { topics: [topics.detections] },
    close: () => pool.end(),
    describe: { allowPrivate: config.allowPrivate, retrySchedule: config.retrySchedule },
  };
});
