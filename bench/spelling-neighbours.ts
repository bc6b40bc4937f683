/**
 * Prints the English words one edit from a word of the detector's spelling lexicon
 * (shared/src/detectors/spelling.ts), which it must never respell: the NEIGHBOURS list there.
 * Reads a word list, one word a line (Debian's wamerican-large: `apt-get download wamerican-large`
 * and `dpkg-deb -x` it anywhere, or install it):
 *
 *   npx tsx bench/spelling-neighbours.ts [/usr/share/dict/american-english-large]
 */
import { readFileSync } from 'node:fs';
import { respelling } from '@warden/shared/detectors/spelling';

const path = process.argv[2] ?? '/usr/share/dict/american-english-large';
const words = new Set(
  readFileSync(path, 'utf8')
    .split('\n')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => /^[a-z]+$/.test(w)),
);
const found = [...words].filter((w) => respelling(w, new Set()) !== undefined).sort();
process.stderr.write(`${found.length} of ${words.size} words are one edit from a lexicon word\n`);
process.stdout.write(`${JSON.stringify(found)}\n`);
