import { describe, expect, it } from 'vitest';
import { AddressLimiter, addressBlock } from './addresses';

describe('AddressLimiter', () => {
  it('limits each address on its own, refilling at the rate', () => {
    const limiter = new AddressLimiter({ ratePerMinute: 60, burst: 3 });
    const at = (address: string, now: number) => limiter.allow(address, now).allowed;
    expect([at('192.0.2.1', 0), at('192.0.2.1', 0), at('192.0.2.1', 0), at('192.0.2.1', 0)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(at('192.0.2.2', 0)).toBe(true);
    expect(limiter.allow('192.0.2.1', 0).retryAfterSeconds).toBeCloseTo(1, 6);
    expect(at('192.0.2.1', 1000)).toBe(true);
  });

  it('counts an IPv6 address by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressBlock('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
    expect(addressBlock('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBlock('192.0.2.1')).toBe('192.0.2.1');
    const limiter = new AddressLimiter({ ratePerMinute: 60, burst: 1 });
    expect(limiter.allow('2001:db8:1:2::1', 0).allowed).toBe(true);
    expect(limiter.allow('2001:db8:1:2::2', 0).allowed).toBe(false);
  });
});
