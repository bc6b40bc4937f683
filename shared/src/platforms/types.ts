import type { InteractionRecord, PlatformEvent } from '../schemas/interaction';

export type { PlatformEvent };

/** Path segment of `/integrations/{platform}/telemetry`. */
export type Platform = 'flowise' | 'n8n' | 'dify' | 'custom';

export const platforms: readonly Platform[] = Object.freeze(['flowise', 'n8n', 'dify', 'custom'] as const);

/** Query string of a platform delivery: webhooks can name the agent only there. */
export interface DeliveryQuery {
  agentId?: string;
}

/**
 * What a platform body becomes. `record` is shaped like an interaction but not validated: the caller
 * runs the normal record validation on it, which reports what is missing or wrongly typed.
 */
export type Normalized =
  { kind: 'interaction'; record: InteractionRecord } | { kind: 'event'; event: PlatformEvent };
