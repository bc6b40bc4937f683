import { createClickhouse } from '@warden/shared/clickhouse/client';
import { loadSinkConfig } from '@warden/shared/config';
import { runConsumerService } from '@warden/shared/kafka/consumer-service';
import { topics } from '@warden/shared/kafka/topics';
import { SinkPipeline } from './pipeline';

const config = loadSinkConfig(process.env);

await runConsumerService(
  {
    name: 'sink',
    config,
    // Large fetches: the sink writes thousands of rows per insert.
    consumer: { maxBytesPerPartition: 4 * 1024 * 1024, minBytes: 256 * 1024 },
  },
  ({ consumer, writer, log, metrics, restart }) => {
    const clickhouse = createClickhouse({ url: config.endpoints.clickhouseUrl, cluster: config.cluster });
    const pipeline = new SinkPipeline({
      consumer,
      writer,
      clickhouse,
      database: config.database,
      groupId: config.groupId,
      logger: log,
      metrics,
      maxRows: config.maxRows,
      maxAgeMs: config.maxAgeMs,
      decodeThreads: config.decodeThreads,
      topics: [topics.interactions, topics.detections],
      fromBeginning: config.fromBeginning,
      restart,
    });
    return {
      pipeline,
      watch: pipeline.watch,
      close: () => clickhouse.close(),
      describe: { database: config.database, cluster: config.cluster },
    };
  },
);
