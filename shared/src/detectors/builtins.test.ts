import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../paths';

/**
 * Every process that runs the detectors (the detector service, the CLI's `detect` and `replay`, the
 * benches) reads strings through String.prototype's methods on every character. Loading a module
 * that defines `class X extends String` (or calls `Object.create(String.prototype)`) turns
 * String.prototype into a dictionary-mode object for the life of the process: V8 then stops
 * inlining charCodeAt, slice, indexOf and startsWith (2-7x slower each, measured), and the
 * detectors take about 35% more CPU a record. ioredis 6 did it on import (patched in
 * patches/ioredis+6.0.0.patch). This loads what the services and the CLI load and asks V8.
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
];

/** Whether each built-in prototype has fast properties after `modules` are imported. */
function fastPrototypes(modules: string[]): Record<string, boolean> {
  const script = [
    ...modules.map((m) => `await import(${JSON.stringify(m)});`),
    'const fast = (o) => new Function("o", "return %HasFastProperties(o)")(o);',
    'console.log(JSON.stringify({ String: fast(String.prototype), Array: fast(Array.prototype), RegExp: fast(RegExp.prototype), Object: fast(Object.prototype) }));',
  ].join('\n');
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, boolean>;
}

describe('built-in prototypes in the processes that run the detectors', () => {
  it('stay in fast mode after every service and CLI module is loaded', () => {
    expect(fastPrototypes(MODULES.map((m) => resolve(repoRoot, m)))).toEqual({
      String: true,
      Array: true,
      RegExp: true,
      Object: true,
    });
  }, 60_000);

  it('would show a module that subclasses String', () => {
    const subclass = 'data:text/javascript,globalThis.__w = class extends String {}';
    expect(fastPrototypes([subclass]).String).toBe(false);
  }, 60_000);
});
