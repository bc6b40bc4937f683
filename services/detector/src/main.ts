import { loadDetectorConfig } from '@warden/shared/config';
import { prepareDetectors } from '@warden/shared/detectors/index';
import { runConsumerService } from '@warden/shared/kafka/consumer-service';
import { topics } from '@warden/shared/kafka/topics';
import { DetectorPipeline } from './pipeline';

const config = loadDetectorConfig(process.env);

await runConsumerService({ name: 'detector', config }, ({ consumer, writer, log, metrics }) => ({
  pipeline: new DetectorPipeline({
    consumer,
    writer,
    groupId: config.groupId,
    logger: log,
    metrics,
    analyze: { canaries: config.canaries },
    fromBeginning: config.fromBeginning,
    partitionsConcurrently: config.partitionsConcurrently,
  }),
  watch: { topics: [topics.interactions] },
  prepare: () => {
    const compiling = performance.now();
    prepareDetectors();
    log.info({ ms: Math.round(performance.now() - compiling) }, 'detector rule sets compiled');
  },
}));
