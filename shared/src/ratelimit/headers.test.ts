import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './headers';
import { scaleLimits } from './limiter';

describe('rate-limit headers', () => {
  const free = { ratePerMinute: 100, burst: 200 };

  it('announces the burst as quota and the refill time as window', () => {
    const headers = rateLimitHeaders(
      { allowed: true, remaining: 150, resetSeconds: 30.2, retryAfterSeconds: 0 },
      free,
    );
    expect(headers).toEqual({
      'RateLimit-Policy': '"default";q=200;w=120',
      RateLimit: '"default";r=150;t=31',
    });
  });

  it('adds Retry-After (whole seconds, at least 1) on refusal', () => {
    const headers = rateLimitHeaders(
      { allowed: false, remaining: 0, resetSeconds: 120, retryAfterSeconds: 0.2 },
      free,
    );
    expect(headers['Retry-After']).toBe('1');
    expect(headers.RateLimit).toBe('"default";r=0;t=120');
    expect(
      rateLimitHeaders({ allowed: false, remaining: 0, resetSeconds: 9, retryAfterSeconds: 2.4 }, free)[
        'Retry-After'
      ],
    ).toBe('3');
  });

  it('refuses a policy name that would break the structured field', () => {
    expect(() =>
      rateLimitHeaders({ allowed: true, remaining: 1, resetSeconds: 1, retryAfterSeconds: 0 }, free, 'a"b'),
    ).toThrow();
  });
});

describe('rate scale', () => {
  it('scales rate and burst, keeping burst ≥ 1', () => {
    expect(scaleLimits({ ratePerMinute: 100, burst: 200 }, 0.05)).toEqual({ ratePerMinute: 5, burst: 10 });
    expect(scaleLimits({ ratePerMinute: 100, burst: 2 }, 0.01).burst).toBe(1);
  });
});
