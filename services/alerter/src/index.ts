/** What tests may embed of the alerter: its consumer and its delivery loop, without the process around them. */
export { AlerterPipeline, type AlerterPipelineOptions } from './pipeline';
export { Dispatcher, type DispatcherOptions } from './dispatcher';
