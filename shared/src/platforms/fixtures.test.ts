import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../paths';
import { InteractionRecord, PlatformEvent, liftMetadataIds } from '../schemas/interaction';
import { normalizePlatformPayload, platforms, type Normalized, type Platform } from './index';

/** The shared platform examples (see their README); WARDEN_FIXTURES_DIR points elsewhere for a copy. */
const fixturesDir =
  process.env.WARDEN_FIXTURES_DIR ?? resolve(repoRoot, '..', 'shared', 'fixtures', 'platforms');

interface PlatformFixture {
  endpoint: string;
  description: string;
  body: Record<string, unknown>;
  expect: Record<string, unknown>;
}

const fixtureFiles = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.json'))
  .sort();

function readFixture(name: string): PlatformFixture {
  return JSON.parse(readFileSync(resolve(fixturesDir, name), 'utf8')) as PlatformFixture;
}

/** `/integrations/{platform}/telemetry?agentId=…` → the platform and the query the route would pass. */
function deliveryOf(endpoint: string): { platform: Platform; query: { agentId?: string } } {
  const url = new URL(endpoint, 'http://warden.invalid');
  const segment = /^\/integrations\/([^/]+)\/telemetry$/.exec(url.pathname)?.[1];
  if (!platforms.includes(segment as Platform))
    throw new Error(`fixture endpoint names no platform: ${endpoint}`);
  const agentId = url.searchParams.get('agentId');
  return { platform: segment as Platform, query: agentId === null ? {} : { agentId } };
}

/** What ingest would accept: a record passing the record schema, or a well-formed event. */
function accepted(out: Normalized): boolean {
  return out.kind === 'event'
    ? Value.Check(PlatformEvent, out.event)
    : Value.Check(InteractionRecord, liftMetadataIds(out.record));
}

function assertExpectation(out: Normalized, key: string, want: unknown): void {
  const stored: Record<string, unknown> = out.kind === 'interaction' ? out.record : { ...out.event };
  switch (key) {
    case 'status':
      expect(accepted(out)).toBe(want === 200);
      return;
    case 'kind':
      expect(out.kind).toBe(want);
      return;
    case 'toolCalls': {
      const calls = stored.toolCalls ?? (out.kind === 'event' ? out.event.data.toolCalls : undefined);
      expect(Array.isArray(calls) ? calls.length : undefined).toBe(want);
      return;
    }
    default:
      expect(stored[key]).toEqual(want);
  }
}

describe('platform fixtures', () => {
  it('finds the fixtures', () => {
    expect(fixtureFiles.length).toBeGreaterThan(0);
  });

  it.each(fixtureFiles)('%s', (name) => {
    const fixture = readFixture(name);
    const { platform, query } = deliveryOf(fixture.endpoint);
    const before = structuredClone(fixture.body);

    const out = normalizePlatformPayload(platform, fixture.body, query);

    expect(fixture.body).toEqual(before);
    if (fixture.expect.status === undefined || fixture.expect.status === 200)
      expect(accepted(out)).toBe(true);
    for (const [key, want] of Object.entries(fixture.expect)) assertExpectation(out, key, want);
  });
});
