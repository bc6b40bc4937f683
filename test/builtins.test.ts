import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from '@warden/shared/paths';
import { describe, expect, it } from 'vitest';

/**
 * Every process that runs the detectors (the detector service, the CLI's `detect` and `replay`, the
 * benches) reads strings through String.prototype's methods on every character. A module that
 * defines `class X extends String` (or calls `Object.create(String.prototype)`) turns
 * String.prototype into a dictionary-mode object for the life of the process: V8 then stops
 * inlining charCodeAt, slice, indexOf and startsWith (2-7x slower each, measured), and the
 * detectors take about 35% more CPU a record. ioredis 6 did it on import, and again on the first
 * RESP3 verbatim-string reply (the INFO of its ready check); patches/ioredis+6.0.0.patch keeps it
 * from doing either. These load what the services and the CLI load, talk to Redis, and ask V8.
 */
const MODULES = [
  'services/detector/src/index.ts',
  'services/ingest/src/index.ts',
  'services/api/src/index.ts',
  'services/sink/src/index.ts',
  'services/alerter/src/index.ts',
  'services/cli/src/index.ts',
  'services/cli/src/commands/detect.ts',
  'services/cli/src/commands/keys.ts',
  'services/cli/src/commands/projects.ts',
  'services/cli/src/commands/replay.ts',
  'services/cli/src/commands/stack.ts',
  'services/cli/src/commands/start.ts',
  'services/cli/src/commands/users.ts',
  'bench/support/load.ts',
  'shared/src/detectors/index.ts',
].map((m) => resolve(repoRoot, m));

/** Whether each built-in prototype has fast properties after `script` (an ES module body) ran. */
function fastPrototypesAfter(script: string): Record<string, boolean> {
  const check = [
    script,
    'const fast = (o) => new Function("o", "return %HasFastProperties(o)")(o);',
    'console.log(JSON.stringify({ String: fast(String.prototype), Array: fast(Array.prototype), RegExp: fast(RegExp.prototype), Object: fast(Object.prototype) }));',
  ].join('\n');
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', check],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, boolean>;
}

const allFast = { String: true, Array: true, RegExp: true, Object: true };

describe('built-in prototypes in the processes that run the detectors', () => {
  it('stay in fast mode after every service and CLI module is loaded', () => {
    const script = MODULES.map((m) => `await import(${JSON.stringify(m)});`).join('\n');
    expect(fastPrototypesAfter(script)).toEqual(allFast);
  }, 60_000);

  it('stay in fast mode after a service connection to Redis has answered INFO (a RESP3 verbatim string)', () => {
    const script = [
      `const { serviceRedis } = await import(${JSON.stringify(resolve(repoRoot, 'shared/src/redis.ts'))});`,
      `const log = { info() {}, warn() {}, error() {}, debug() {} };`,
      `const redis = serviceRedis(${JSON.stringify(process.env.REDIS_URL)}, log);`,
      `await redis.connect();`,
      `if (!(await redis.info('server')).includes('redis_version')) throw new Error('no INFO reply');`,
      `await redis.quit();`,
    ].join('\n');
    expect(fastPrototypesAfter(script)).toEqual(allFast);
  }, 60_000);

  it('would show a module that subclasses String', () => {
    expect(fastPrototypesAfter('globalThis.subclass = class extends String {};').String).toBe(false);
  }, 60_000);
});
