/** What tests and benches may embed of the sink service: its pipeline, without the process around it. */
export { SinkPipeline, type SinkOptions } from './pipeline';
/** The insert step on its own, for tests against a real ClickHouse server. */
export { JsonLines } from './steps/batch';
export { insertRows, type RejectedRow, type WriteHooks } from './steps/write';
