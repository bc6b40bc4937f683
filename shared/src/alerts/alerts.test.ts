import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { loadAlerterConfig } from '../config';
import type { DetectionAnalysis, Finding } from '../schemas/detection';
import { DEFAULT_RULE, dedupKey, raisedAlerts, slackMessage, threatPayload, type AlertRule } from './payload';
import { decryptSecret, encryptSecret, generateWebhookSecret, loadSecretKey } from './secrets';
import { checkTargetUrl, refusedAddress, signedHeaders } from './send';

const run = promisify(execFile);

const finding = (over: Partial<Finding>): Finding => ({
  detector: 'injection',
  detectorVersion: '1',
  ruleId: 'inj.ignore',
  threatType: 'prompt_injection',
  severity: 'high',
  confidence: 0.9,
  field: 'prompt',
  start: 0,
  end: 5,
  view: 'raw',
  explanation: 'asks to ignore previous instructions',
  ...over,
});

const analysis = (findings: Finding[], agentId = 'support'): DetectionAnalysis => ({
  schemaVersion: 1,
  interactionId: 'int_1',
  accountId: 'prj_a',
  agentId,
  receivedAt: '2026-01-01T00:00:00.000Z',
  analyzedAt: '2026-01-01T00:00:01.000Z',
  detectorVersion: '1',
  platform: 'custom',
  findings,
});

describe('alert rules', () => {
  it('the default rule alerts on high and critical only, once per threat type, with the most severe finding', () => {
    const raised = raisedAlerts(
      analysis([
        finding({ severity: 'medium', threatType: 'pii_leak' }),
        finding({ severity: 'high', confidence: 0.7 }),
        finding({ severity: 'critical', confidence: 0.6, explanation: 'the critical one' }),
      ]),
      [DEFAULT_RULE],
    );
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      severity: 'critical',
      description: 'the critical one',
      threatType: 'prompt_injection',
    });
  });

  it('applies minimum severity, threat types and agents; a dedup key per project, agent, threat type and rule', () => {
    const rule: AlertRule = {
      id: 'r1',
      minSeverity: 'medium',
      threatTypes: ['pii_leak'],
      agents: ['billing'],
      windowSeconds: 60,
    };
    const pii = finding({ severity: 'medium', threatType: 'pii_leak' });
    expect(raisedAlerts(analysis([pii], 'support'), [rule])).toEqual([]);
    expect(raisedAlerts(analysis([finding({})], 'billing'), [rule])).toEqual([]);
    const [a] = raisedAlerts(analysis([pii], 'billing'), [rule]);
    expect(a!.dedupKey).toBe(dedupKey('prj_a', 'billing', 'pii_leak', 'r1'));
    expect(a!.dedupKey).not.toBe(dedupKey('prj_a', 'billing', 'pii_leak', 'r2'));
    expect(a!.dedupKey).not.toBe(dedupKey('prj_b', 'billing', 'pii_leak', 'r1'));
  });

  it('the payload carries the contract fields exactly plus the grouping and link fields', () => {
    const [a] = raisedAlerts(analysis([finding({})]), [DEFAULT_RULE]);
    const payload = threatPayload(a!, 3, 'https://warden.example.com');
    expect(Object.keys(payload).sort()).toEqual(
      [
        'agentId',
        'count',
        'dedupKey',
        'details',
        'event',
        'interactionId',
        'link',
        'projectId',
        'ruleId',
        'severity',
        'threatType',
        'timestamp',
      ].sort(),
    );
    expect(payload.details).toEqual({ confidence: 0.9, description: 'asks to ignore previous instructions' });
    expect(payload.link).toBe('https://warden.example.com/interactions/int_1');
  });
});

describe('webhook secrets', () => {
  it('encrypts with AES-256-GCM bound to the endpoint; another key or endpoint does not decrypt', () => {
    const key = randomBytes(32);
    const secret = generateWebhookSecret();
    const sealed = encryptSecret(key, secret, 'whe_1');
    expect(sealed).not.toContain(secret.slice(6));
    expect(decryptSecret(key, sealed, 'whe_1')).toBe(secret);
    expect(() => decryptSecret(key, sealed, 'whe_2')).toThrow(/does not decrypt with this WARDEN_SECRET_KEY/);
    expect(() => decryptSecret(randomBytes(32), sealed, 'whe_1')).toThrow(/share the key/);
  });

  it('production requires WARDEN_SECRET_KEY; locally a key is generated once under the stack dir (0600)', () => {
    expect(() => loadSecretKey({ NODE_ENV: 'production' })).toThrow(
      /WARDEN_SECRET_KEY is not set.*openssl rand -base64 32/,
    );
    expect(() => loadSecretKey({ WARDEN_SECRET_KEY: 'short' })).toThrow(/not a 32-byte key/);
    const dir = mkdtempSync(join(tmpdir(), 'warden-key-'));
    const first = loadSecretKey({ WARDEN_STACK_DIR: dir });
    expect(loadSecretKey({ WARDEN_STACK_DIR: dir })).toEqual(first);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(dir, 'secret.key'), 'utf8').trim(), 'base64')).toEqual(first);
  });

  it('services generating the local key at once all read the same whole key, and leave no drafts', async () => {
    // The race seen in CI: the alerter read secret.key while the API was still writing it (0 bytes).
    // Eight processes a round, each waiting once loaded for the same instant (START_AT), so their
    // first looks at the key meet; with the key created in place this failed in each of two runs.
    const module = new URL('./secrets.ts', import.meta.url).href;
    const code = `const { loadSecretKey } = await import(${JSON.stringify(module)}); while (Date.now() < Number(process.env.START_AT)); process.stdout.write(loadSecretKey(process.env).toString('base64'));`;
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'warden-key-race-'));
      const startAt = Date.now() + 4000;
      const keys = await Promise.all(
        Array.from({ length: 8 }, () =>
          run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
            env: {
              ...process.env,
              WARDEN_STACK_DIR: dir,
              WARDEN_SECRET_KEY: '',
              NODE_ENV: 'development',
              START_AT: String(startAt),
            },
          }).then((r) => r.stdout),
        ),
      );
      expect(new Set(keys).size).toBe(1);
      expect(Buffer.from(keys[0]!, 'base64')).toHaveLength(32);
      expect(readdirSync(dir)).toEqual(['secret.key']);
    }
  }, 60_000);

  it('signs per Standard Webhooks: the package verifies, with either secret during a rotation', () => {
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"event":"threat_detected"}';
    const headers = signedHeaders({ id: 'msg_1', body, secrets: [a, b] });
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(a).verify(body, headers)).toEqual({ event: 'threat_detected' });
    expect(new Webhook(b).verify(body, headers)).toEqual({ event: 'threat_detected' });
    expect(() => new Webhook(a).verify(body.replace('threat', 'x'), headers)).toThrow();
  });
});

describe('webhook targets', () => {
  it('refuses private, loopback, link-local and other non-public ranges, IPv4-mapped IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
      '0.0.0.0',
    ])
      expect(refusedAddress(address), address).toBeDefined();
    for (const address of ['93.184.216.34', '2606:4700::6810:85e5'])
      expect(refusedAddress(address), address).toBeUndefined();
    expect(checkTargetUrl('https://user:pw@hooks.example.com/', false)).toMatch(/credentials/);
    expect(checkTargetUrl('http://app.localhost/', false)).toMatch(/loopback/);
  });
});

describe('alerter config', () => {
  it('reads the retry schedule, timeout and private-target flag; a bad value says how to fix it', () => {
    const c = loadAlerterConfig({
      WARDEN_WEBHOOK_RETRY_SCHEDULE: '1s, 2m',
      WARDEN_WEBHOOK_ALLOW_PRIVATE: '1',
    });
    expect(c.retrySchedule).toEqual([1000, 120_000]);
    expect(c.allowPrivate).toBe(true);
    expect(loadAlerterConfig({}).retrySchedule).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 864e5]);
    expect(loadAlerterConfig({}).timeoutMs).toBe(10_000);
    expect(() => loadAlerterConfig({ WARDEN_WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(
      /not a list of durations.*5s,5m/,
    );
  });
});

describe('Slack format', () => {
  it('turns a threat payload into one mrkdwn text, escaping what the client sent', () => {
    const body = JSON.stringify({
      event: 'threat_detected',
      agentId: 'bot<1>',
      threatType: 'prompt_injection',
      severity: 'high',
      details: { confidence: 0.9, description: 'asks to ignore previous instructions & more' },
      count: 3,
      link: 'https://warden.example.com/interactions/i1',
    });
    expect(JSON.parse(slackMessage(body))).toEqual({
      text:
        ':rotating_light: *high* prompt_injection on agent `bot&lt;1&gt;` (3 detections)\n' +
        'asks to ignore previous instructions &amp; more\n' +
        '<https://warden.example.com/interactions/i1|Open the interaction in Warden>',
    });
    expect(JSON.parse(slackMessage(JSON.stringify({ event: 'test' })))).toEqual({
      text: "Warden test: this endpoint receives Warden's alerts.",
    });
  });
});
