import { resolve } from 'node:path';

/** Repository root, derived from this file's location (shared/src/paths.ts). */
export const repoRoot = resolve(import.meta.dirname, '..', '..');
