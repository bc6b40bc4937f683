import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** Repository root, derived from this file's location (shared/src/paths.ts). */
export const repoRoot = resolve(import.meta.dirname, '..', '..');

/** Runtime state of the local stack (data, logs, pids); git-ignored. */
export const stackDir = process.env.WARDEN_STACK_DIR ?? resolve(repoRoot, '.stack');

/** Downloads that survive a fresh clone (Maven-resolved Kafka jars). Outside git. */
export const cacheDir = process.env.WARDEN_CACHE_DIR ?? resolve(homedir(), '.cache', 'warden');
