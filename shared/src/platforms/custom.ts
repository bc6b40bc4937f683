import { normalizeDelivery, type PlatformShape } from './delivery';
import type { DeliveryQuery, Normalized } from './types';

/** Custom apps send the contract's record; there is no native shape to map. */
const customShape: PlatformShape = {
  textKeys: ['prompt', 'response'],
  agentIds: () => [],
  mapNativeFields: () => {},
};

export function normalizeCustomPayload(body: Record<string, unknown>, query?: DeliveryQuery): Normalized {
  return normalizeDelivery(body, query, customShape);
}
