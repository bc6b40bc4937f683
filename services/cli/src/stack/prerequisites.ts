import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadStackConfig } from '@warden/shared/config';
import { findExecutable } from './process';

export class MissingPrerequisiteError extends Error {
  constructor(what: string, fix: string) {
    super(`${what} is missing. Fix: ${fix}`);
    this.name = 'MissingPrerequisiteError';
  }
}

let aptUpdated = false;

/** Root on a Debian-like machine may install packages itself unless WARDEN_NO_INSTALL=1. */
function canAutoInstall(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !loadStackConfig().noInstall;
}

/**
 * Returns the path of the first executable found; if none, installs the Debian package when allowed,
 * else throws naming the package and the command that installs it.
 */
export function ensureExecutable(
  what: string,
  candidates: string[],
  debianPackage: string,
  progress: (line: string) => void,
): string {
  const found = findExecutable(candidates);
  if (found) return found;
  const fix = `sudo apt-get update && sudo apt-get install -y ${debianPackage}`;
  if (!canAutoInstall()) throw new MissingPrerequisiteError(what, fix);
  progress(`installing Debian package ${debianPackage} (set WARDEN_NO_INSTALL=1 to skip)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    aptUpdated = true;
  }
  const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', debianPackage], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  const after = findExecutable(candidates);
  if (res.status !== 0 || !after) {
    throw new MissingPrerequisiteError(
      what,
      `${fix} (automatic install failed: ${res.stderr?.toString().trim()})`,
    );
  }
  return after;
}
