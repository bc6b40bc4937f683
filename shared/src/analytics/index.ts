export { agents, type AgentSummary } from './agents';
export {
  detectionsForInteraction,
  detectionsPage,
  streamDetectionLines,
  streamDetections,
  type DetectionCursor,
  type DetectionListFilters,
  type DetectionListItem,
  detectorVersions,
  injectionAttemptsBySession,
  injectionAttemptsByUser,
  piiLeaksByType,
  type DetectorVersionCoverage,
  type FindingRow,
  type InjectionAttempts,
  type PiiLeakBucket,
} from './detections';
export {
  eventCounts,
  interactionById,
  interactionsPage,
  type InteractionCursor,
  type InteractionListFilters,
  type InteractionListItem,
  type InteractionDetail,
  latencyPercentiles,
  toolCallFailures,
  type EventCount,
  type LatencyPercentiles,
  type ToolFailures,
} from './interactions';
export {
  detectionsByPlatform,
  hourlyActivity,
  overview,
  tokensByModel,
  topAgentsByDetections,
  type AgentDetections,
  type HourlyActivity,
  type ModelTokens,
  type Overview,
  type PlatformDetections,
} from './overview';
export type { AccountRange } from './scope';
export { TOP_DIMENSIONS, topByDetections, type TopDimension, type TopItem, type TopScope } from './top';
