/** What tests and benches may embed of the detector service: its pipeline, without the process around it. */
export { DetectorPipeline, type DetectorOptions } from './pipeline';
