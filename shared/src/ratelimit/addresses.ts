import { LocalGcra, type GcraDecision, type GcraLimits } from './gcra';

/**
 * Requests without a valid API key (none, malformed, unknown, revoked, expired) are limited per
 * client address, so neither floods of them nor random keys — each of which would cost a key lookup
 * in Redis — go unchecked. The limit is held in each ingest process (no Redis round trip: the
 * traffic it limits is the traffic that must stay cheap), so N processes admit up to N × the limit
 * from one address. IPv6 addresses count by their /64, the block one host usually holds.
 */
export const defaultAddressLimits: GcraLimits = { ratePerMinute: 60, burst: 60 };

export class AddressLimiter {
  private readonly gcra: LocalGcra;

  constructor(
    readonly limits: GcraLimits = defaultAddressLimits,
    maxAddresses = 100_000,
  ) {
    this.gcra = new LocalGcra(maxAddresses);
  }

  /** Charges one request without a valid key to `address` (as Node reports it, e.g. `req.ip`). */
  allow(address: string, nowMs = Date.now()): GcraDecision {
    return this.gcra.allow(addressBlock(address), this.limits, 1, nowMs);
  }
}

/** The unit an address is counted in: itself for IPv4, its /64 for IPv6. */
export function addressBlock(address: string): string {
  if (!address.includes(':')) return address;
  // IPv4 clients on a dual-stack socket: ::ffff:192.0.2.1.
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::');
  const groups = head === '' ? [] : head.split(':');
  if (tail !== undefined) {
    // `::` stands for as many zero groups as are missing; only the first four matter here.
    const after = tail === '' ? [] : tail.split(':');
    while (groups.length + after.length < 8) groups.push('0');
    groups.push(...after);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
