import { normalizeCustomPayload } from './custom';
import { normalizeDifyPayload } from './dify';
import { normalizeFlowisePayload } from './flowise';
import { normalizeN8nPayload } from './n8n';
import type { DeliveryQuery, Normalized, Platform } from './types';

export { platforms } from './types';
export type { DeliveryQuery, Normalized, Platform, PlatformEvent } from './types';
export { normalizeCustomPayload, normalizeDifyPayload, normalizeFlowisePayload, normalizeN8nPayload };

const normalizers: Record<Platform, (body: Record<string, unknown>, query?: DeliveryQuery) => Normalized> = {
  flowise: normalizeFlowisePayload,
  n8n: normalizeN8nPayload,
  dify: normalizeDifyPayload,
  custom: normalizeCustomPayload,
};

/**
 * Turns what a platform posts to `/integrations/{platform}/telemetry` into an interaction record (to be
 * validated by the caller) or a lifecycle event. Pure: never throws on odd input, never mutates `body`.
 */
export function normalizePlatformPayload(
  platform: Platform,
  body: Record<string, unknown>,
  query: DeliveryQuery,
): Normalized {
  // An unknown segment should be refused by the route; here it is read as the plain contract record.
  const normalize = Object.hasOwn(normalizers, platform) ? normalizers[platform] : normalizeCustomPayload;
  return normalize(body, query);
}
