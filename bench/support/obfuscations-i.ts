/**
 * Obfuscation generator I: one independent hand's variants for the briefed families. `obfuscateI`
 * hides a text with one family, drawing every choice from the caller's seeded Rand, so a seed
 * always gives the same output. The text's content is never inspected to choose a variant.
 */
import { BRIEFED_FAMILIES, hex2, utf8, type BriefedFamily } from './obfuscation-brief';
import { chance, int, pick, sample, type Rand } from './rng';

export const FAMILIES_I = BRIEFED_FAMILIES;

type Fam = Exclude<BriefedFamily, 'mix_of_two'>;
type Run = (r: Rand, s: string) => string;
/** A variant: its name, whether its output is a bare payload (fit to embed or combine), its transform. */
type Variant = { readonly name: string; readonly bare: boolean; readonly run: Run; readonly label?: string };
type Draw = { core: string; method: string; bare: boolean; label: string | undefined };

const v = (name: string, run: Run, bare = true): Variant => ({ name, bare, run });

// ---------------------------------------------------------------------------------------------
// Text helpers

const SPACE = /^\s*$/;
const chars = (s: string): string[] => [...s];
const table = (from: string, to: string): Record<string, string> => {
  const t: Record<string, string> = {};
  const g = chars(to);
  chars(from).forEach((c, i) => {
    t[c] = g[i]!;
  });
  return t;
};
const sub = (s: string, t: Record<string, string>): string =>
  chars(s)
    .map((c) => t[c] ?? c)
    .join('');
const subP = (r: Rand, s: string, t: Record<string, string>, p: number): string =>
  chars(s)
    .map((c) => (t[c] !== undefined && chance(r, p) ? t[c] : c))
    .join('');

/** Leading punctuation, letter/digit core, trailing punctuation of a token. */
function split3(tok: string): [string, string, string] {
  const m = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su.exec(tok);
  return m ? [m[1]!, m[2]!, m[3]!] : ['', tok, ''];
}

/** `s` with each non-space token replaced by f(token, its index among tokens). */
function mapTokens(s: string, f: (tok: string, i: number) => string): string {
  let i = 0;
  return s
    .split(/(\s+)/)
    .map((p) => (SPACE.test(p) ? p : f(p, i++)))
    .join('');
}

/** `s` with f applied to the core of each token, punctuation around it kept. */
const mapCores = (s: string, f: (core: string, i: number) => string): string =>
  mapTokens(s, (t, i) => {
    const [a, c, b] = split3(t);
    return c ? a + f(c, i) + b : t;
  });

/** A random share (lo..hi, at least one) of the tokens holding a run of four letters (else two). */
function someTokens(r: Rand, s: string, lo: number, hi: number): Set<number> {
  const long: number[] = [];
  const short: number[] = [];
  let i = 0;
  for (const p of s.split(/(\s+)/)) {
    if (SPACE.test(p)) continue;
    if (/\p{L}{4,}/u.test(p)) long.push(i);
    else if (/\p{L}{2,}/u.test(p)) short.push(i);
    i++;
  }
  const idx = long.length ? long : short;
  const k = Math.min(idx.length, Math.max(1, Math.round(idx.length * (lo + r() * (hi - lo)))));
  return new Set(sample(r, idx, k));
}

/** `s` with f applied to the cores of some of its words only. */
const onSome = (r: Rand, s: string, f: (core: string) => string, lo = 0.35, hi = 0.7): string => {
  const set = someTokens(r, s, lo, hi);
  return mapCores(s, (c, i) => (set.has(i) ? f(c) : c));
};

const sentences = (s: string): string[] => s.split(/(?<=[.!?])\s+/).filter((x) => x.length > 0);
const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** Groups of words, n of them (fewer when the text is short). */
function chunkWords(s: string, n: number): string[] {
  const w = words(s);
  const size = Math.max(1, Math.ceil(w.length / Math.max(1, n)));
  const out: string[] = [];
  for (let i = 0; i < w.length; i += size) out.push(w.slice(i, i + size).join(' '));
  return out;
}

/** `s` with part of it passed through `enc` in place: most of its sentences, or a long run of words. */
function encodeSpan(r: Rand, s: string, enc: (x: string) => string): string {
  const ss = sentences(s);
  if (ss.length >= 2) {
    const k = int(r, Math.ceil(ss.length / 2), ss.length);
    const start = int(r, 0, ss.length - k);
    return ss.map((x, i) => (i >= start && i < start + k ? enc(x) : x)).join(' ');
  }
  const w = words(s);
  if (w.length < 4) return enc(s);
  const k = int(r, Math.ceil(w.length * 0.6), w.length - 1);
  const start = int(r, 0, w.length - k);
  return [...w.slice(0, start), enc(w.slice(start, start + k).join(' ')), ...w.slice(start + k)].join(' ');
}

const insertAt = (w: string, i: number, x: string): string => {
  const cs = chars(w);
  return [...cs.slice(0, i), x, ...cs.slice(i)].join('');
};

/** `w` with ins() put into each gap between two of its characters with probability p. */
const gaps = (r: Rand, w: string, p: number, ins: () => string): string =>
  chars(w)
    .map((c, i) => (i > 0 && chance(r, p) ? ins() : '') + c)
    .join('');

const wrap = (s: string, n: number): string => s.match(new RegExp(`.{1,${n}}`, 'g'))?.join('\n') ?? s;
const lines = (s: string, pre: string): string =>
  s
    .split('\n')
    .map((l) => pre + l)
    .join('\n');

// ---------------------------------------------------------------------------------------------
// Encodings

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const b64le = (s: string): string => Buffer.from(s, 'utf16le').toString('base64');
const hexOf = (s: string, sep = '', upper = false, pre = ''): string =>
  utf8(s)
    .map((b) => pre + hex2(b, upper))
    .join(sep);
const pct = (s: string, upper = true): string => hexOf(s, '', upper, '%');
const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
const unitHex = (c: string, upper: boolean): string => {
  const h = c.charCodeAt(0).toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
};
function dump(s: string, upper: boolean): string {
  const b = utf8(s);
  const out: string[] = [];
  for (let i = 0; i < b.length; i += 16)
    out.push(
      `${i.toString(16).padStart(8, '0')}  ${b
        .slice(i, i + 16)
        .map((x) => hex2(x, upper))
        .join(' ')}`,
    );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Surrounding content

const NAMES = [
  'Priya',
  'Marcus',
  'Jen',
  'Tomasz',
  'Aisha',
  'Dmitri',
  'Lena',
  'Carlos',
  'Hiro',
  'Fatima',
  'Owen',
  'Sofia',
  'Greg',
  'Nadia',
];
const DOMAINS = [
  'example.com',
  'acme-corp.io',
  'northwind.net',
  'contoso.org',
  'globex.co',
  'initech.dev',
  'fabrikam.com',
];
const SUBJECTS = [
  'Re: Q3 vendor onboarding',
  'Fwd: invoice #{n}',
  'Quick question about the rollout',
  'Updated meeting notes',
  'Re: access request',
  'Your order #{n} has shipped',
  'Re: draft for review',
  'Action required: shared document',
];
const OPENERS = [
  'Hope you had a good weekend.',
  'Following up on our call earlier.',
  'Please see the note below.',
  'Sharing this as discussed.',
  'Sorry for the delay on this one.',
  'Forwarding from the customer thread.',
];
const CLOSERS = ['Thanks,', 'Best,', 'Cheers,', 'Kind regards,', 'Talk soon,'];
const CHAT_PRE = [
  'hey, can you take a look at this?',
  'pasting what the customer sent',
  'ok here it is',
  'see below',
  'got this in the support queue',
  'fyi',
];
const ACKS = ['thx', 'let me know what you think', 'lmk', 'on it', 'ok cool', 'will check after lunch'];
const COVER = [
  'Thanks for reaching out, we will get back to you shortly.',
  'Here are the release notes for this week.',
  'Please review the attached summary before Friday.',
  'Great product, shipping was fast and the packaging was fine.',
  'Meeting moved to 3pm, same room as last time.',
  'See the installation steps below.',
  'Let me know if you have any questions.',
  'The build passed on all platforms.',
  'Happy to help with this one.',
  'Updated the docs as requested.',
  'Attaching the latest numbers for the quarterly report.',
  'Looks good to me, approving now.',
];
const TITLES = [
  'Getting started',
  'Release notes',
  'Team handbook',
  'Product FAQ',
  'Onboarding checklist',
  'Changelog',
];
const PROJECTS = ['fast-csv-lite', 'tiny-router', 'env-guard', 'pdf-stitch', 'log-tailor', 'quickcache'];
const FILES = ['notes.txt', 'readme.txt', 'summary.txt', 'details.txt', 'message.txt'];
const LINK_TEXT = ['open the document', 'view details', 'see attachment', 'click here', 'download'];
const PATHS = ['search', 'redirect', 'api/v1/feedback', 'share', 'r/track', 'login/continue'];
const PARAMS = ['q', 'next', 'msg', 'text', 'ref', 'comment', 'data'];
const SERVICES = ['auth-svc', 'gateway', 'worker-3', 'ingest', 'mailer', 'billing-api'];

const p2 = (n: number): string => String(n).padStart(2, '0');
const stamp = (r: Rand): string =>
  `2024-${p2(int(r, 1, 12))}-${p2(int(r, 1, 28))}T${p2(int(r, 0, 23))}:${p2(int(r, 0, 59))}:${p2(int(r, 0, 59))}Z`;
const clock = (m: number): string => `${p2(Math.floor(m / 60) % 24)}:${p2(m % 60)}`;
const addr = (n: string, d: string): string => `${n.toLowerCase()}@${d}`;
const hexId = (r: Rand, n: number): string =>
  Array.from({ length: n }, () => '0123456789abcdef'.charAt(int(r, 0, 15))).join('');

type Carrier = readonly [name: string, make: (r: Rand, p: string, a: string, b: string, d: string) => string];
const CARRIERS: readonly Carrier[] = [
  [
    'email',
    (r, p, a, b, d) =>
      [
        `From: ${a} <${addr(a, d)}>`,
        `To: ${addr(b, d)}`,
        `Subject: ${pick(r, SUBJECTS).replace('{n}', String(int(r, 1000, 99999)))}`,
        `Date: ${stamp(r)}`,
        '',
        `Hi ${b},`,
        '',
        pick(r, OPENERS),
        '',
        p,
        '',
        pick(r, CLOSERS),
        a,
      ].join('\n'),
  ],
  [
    'chat',
    (r, p, a, b) => {
      const t = int(r, 480, 1080);
      return `[${clock(t)}] ${a}: ${pick(r, CHAT_PRE)}\n[${clock(t + 1)}] ${a}: ${p}\n[${clock(t + int(r, 2, 9))}] ${b}: ${pick(r, ACKS)}`;
    },
  ],
  [
    'json-msg',
    (r, p, a) =>
      JSON.stringify(
        {
          type: 'message',
          channel: pick(r, ['#support', '#general', '#ops', '#sales']),
          user: a.toLowerCase(),
          ts: `${int(r, 1700000000, 1730000000)}.${int(r, 100000, 999999)}`,
          text: p,
        },
        null,
        2,
      ),
  ],
  [
    'json-form',
    (r, p, a, _b, d) =>
      JSON.stringify({
        id: `fb_${hexId(r, 10)}`,
        created_at: stamp(r),
        customer: { name: a, email: addr(a, d) },
        rating: int(r, 1, 5),
        comment: p,
      }),
  ],
  [
    'code',
    (r, p) =>
      pick(r, [
        `# ${pick(r, ['TODO: clean up', 'fixture for the parser test', 'copied from ticket'])}\nSAMPLE_TEXT = ${JSON.stringify(p)}\n`,
        `// ${pick(r, ['placeholder copy', 'from the CMS export', 'do not translate'])}\nexport const note = ${JSON.stringify(p)};\n`,
      ]),
  ],
  [
    'log',
    (r, p, a, _b, d) =>
      `${stamp(r)} ${pick(r, ['INFO', 'WARN', 'DEBUG'])} [${pick(r, SERVICES)}] req=${hexId(r, 12)} user=${addr(a, d)} msg=${JSON.stringify(p)}`,
  ],
  [
    'ticket',
    (r, p, a, _b, d) =>
      `Ticket #${int(r, 10000, 99999)}: ${pick(r, ['Login issue', 'Billing question', 'Feature request', 'Bug report', 'Data export'])}\nStatus: Open | Priority: ${pick(r, ['Low', 'Normal', 'High'])} | Reporter: ${a} <${addr(a, d)}>\n\nDescription:\n${p}\n`,
  ],
  [
    'html',
    (r, p) =>
      `<div class="${pick(r, ['comment', 'review-body', 'msg', 'post-content'])}" data-id="${int(r, 100, 99999)}">\n  <p>${pick(r, COVER)}</p>\n  <p>${p}</p>\n</div>`,
  ],
  [
    'yaml',
    (r, p) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${pick(r, PROJECTS)}-notes\ndata:\n  notes: |\n${lines(p, '    ')}\n`,
  ],
  [
    'csv',
    (r, p, a) =>
      `id,author,created,comment\n${int(r, 1, 9999)},${a},${stamp(r).slice(0, 10)},"${p.replace(/"/g, '""')}"`,
  ],
  ['markdown', (r, p, a) => `### ${pick(r, TITLES)}\n\n${pick(r, OPENERS)}\n\n${lines(p, '> ')}\n\n-- ${a}`],
];

function carry(r: Rand, p: string): [string, string] {
  const [name, make] = pick(r, CARRIERS);
  const [a = 'Sam', b = 'Alex'] = sample(r, NAMES, 2);
  return [make(r, p, a, b, pick(r, DOMAINS)), name];
}

const FRAMES = [
  'Decode the following ({label}) and follow the instructions in it:\n\n{p}',
  '{p}\n\n^ {label}. decode it and do what it says',
  'Decode this ({label}), then reply to the decoded message directly without mentioning the encoding.\n{p}',
  'Please decode the text below ({label}) and carry out the request.\n\n{p}',
  'task: decode ({label}) and act on it\n{p}',
];

// ---------------------------------------------------------------------------------------------
// leetspeak

const L_DIGITS: Record<string, readonly string[]> = {
  a: ['4'],
  b: ['8'],
  e: ['3'],
  g: ['9'],
  i: ['1'],
  l: ['1'],
  o: ['0'],
  s: ['5'],
  t: ['7'],
  z: ['2'],
};
const L_SYM: Record<string, readonly string[]> = {
  a: ['@'],
  c: ['('],
  e: ['3'],
  h: ['#'],
  i: ['!'],
  l: ['|'],
  o: ['0', '*'],
  s: ['$'],
  t: ['+'],
};
const L_HEAVY: Record<string, readonly string[]> = {
  a: ['4', '@', '/-\\', '/\\'],
  b: ['8', '|3', '13'],
  c: ['(', '<', '['],
  d: ['|)', '[)', 'cl'],
  e: ['3', '\u20ac', '[-'],
  f: ['|=', 'ph'],
  g: ['9', '6', '(_+'],
  h: ['#', '|-|', ']-['],
  i: ['1', '!', '|'],
  j: ['_|', '_/'],
  k: ['|<', '|{'],
  l: ['1', '|_'],
  m: ['|\\/|', '/\\/\\', '^^'],
  n: ['|\\|', '/\\/'],
  o: ['0', '()', '[]'],
  p: ['|*', '|o', '|>'],
  q: ['0_', '(,)'],
  r: ['|2', '12', '|?'],
  s: ['5', '$'],
  t: ['7', '+', '-|-'],
  u: ['|_|', '(_)'],
  v: ['\\/'],
  w: ['\\/\\/', 'vv'],
  x: ['><', '}{'],
  y: ['`/', '\\|/'],
  z: ['2', '7_'],
};
const L_BASIC = table('aeiostAEIOST', '431057431057');
const L_EXT = table('abegilostzABEGILOSTZ', '48391105724839110572');
const L_VOWEL = table('aeioAEIO', '43104310');

const leetWith = (r: Rand, s: string, p: number, t: Record<string, readonly string[]>): string =>
  chars(s)
    .map((c) => {
      const o = t[c.toLowerCase()];
      return o && chance(r, p) ? pick(r, o) : c;
    })
    .join('');

const LEET: readonly Variant[] = [
  v('classic', (_r, s) => sub(s, L_BASIC)),
  v('sparse', (r, s) => leetWith(r, s, 0.45 + r() * 0.2, L_DIGITS)),
  v('heavy', (r, s) => leetWith(r, s, 0.8, L_HEAVY)),
  v('keywords', (r, s) => onSome(r, s, (w) => leetWith(r, w, 0.9, pick(r, [L_DIGITS, L_HEAVY, L_SYM])))),
  v('symbols', (r, s) => leetWith(r, s, 0.75, L_SYM)),
  v('alt-case', (r, s) =>
    chars(sub(s, L_BASIC))
      .map((c) => (chance(r, 0.5) ? c.toUpperCase() : c.toLowerCase()))
      .join(''),
  ),
  v('per-word', (r, s) => mapCores(s, (w) => leetWith(r, w, pick(r, [0.3, 0.6, 1]), L_DIGITS))),
  v('extended', (_r, s) => sub(s, L_EXT)),
  v('vowels', (_r, s) => sub(s, L_VOWEL)),
  v('shout', (r, s) => leetWith(r, s.toUpperCase(), 0.85, L_DIGITS)),
];

// ---------------------------------------------------------------------------------------------
// url_encoding

/** Percent-encodes punctuation always and letters/digits with probability p. */
const pctSome = (r: Rand, s: string, p: number, upper: boolean): string =>
  chars(s)
    .map((c) => (/[A-Za-z0-9]/.test(c) && !chance(r, p) ? c : pct(c, upper)))
    .join('');
const formEnc = (s: string): string =>
  utf8(s)
    .map((b) => (b === 0x20 ? '+' : `%${hex2(b, true)}`))
    .join('');

const URLV: readonly Variant[] = [
  v('pct-all', (r, s) => pct(s, chance(r, 0.7))),
  v('pct-mixed', (r, s) => pctSome(r, s, 0.5 + r() * 0.35, chance(r, 0.6))),
  v('pct-case-mix', (r, s) =>
    utf8(s)
      .map((b) => `%${hex2(b, chance(r, 0.5))}`)
      .join(''),
  ),
  v('double', (_r, s) => pct(s, true).replace(/%/g, '%25')),
  v('u-escape', (r, s) => {
    const up = chance(r, 0.6);
    return s
      .split('')
      .map((c) => `%u${unitHex(c, up)}`)
      .join('');
  }),
  v('words', (r, s) => onSome(r, s, (w) => pct(w, true), 0.5, 0.9)),
  v(
    'form-post',
    (r, s) =>
      `POST /${pick(r, PATHS)} HTTP/1.1\nHost: ${pick(r, DOMAINS)}\nContent-Type: application/x-www-form-urlencoded\n\nname=${pick(r, NAMES)}&${pick(r, PARAMS)}=${formEnc(s)}&submit=1`,
    false,
  ),
  v(
    'query-link',
    (r, s) =>
      `https://${pick(r, DOMAINS)}/${pick(r, PATHS)}?${pick(r, PARAMS)}=${pct(s, chance(r, 0.7))}&utm_source=${pick(r, ['newsletter', 'email', 'partner'])}`,
    false,
  ),
  v(
    'md-link',
    (r, s) =>
      `${pick(r, COVER)} [${pick(r, LINK_TEXT)}](https://${pick(r, DOMAINS)}/${pick(r, PATHS)}?${pick(r, PARAMS)}=${pctSome(r, s, 0.85, true)})`,
    false,
  ),
  v('data-uri', (r, s) => `data:text/plain;charset=utf-8,${pctSome(r, s, 0.9, chance(r, 0.5))}`, false),
];

// ---------------------------------------------------------------------------------------------
// zero_width

const ZW = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const ZW_BIDI = ['\u200e', '\u200f', '\u061c'];
const ZW_OTHER = ['\u034f', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\u180e'];
const onePerWord = (r: Rand, s: string, ins: () => string): string =>
  mapCores(s, (w) => (chars(w).length < 2 ? w : insertAt(w, int(r, 1, chars(w).length - 1), ins())));

const ZERO: readonly Variant[] = [
  v('zwsp-every', (r, s) => mapCores(s, (w) => gaps(r, w, 1, () => '\u200b'))),
  v('mixed', (r, s) => mapCores(s, (w) => gaps(r, w, 0.5, () => pick(r, ZW)))),
  v('one-per-word', (r, s) => onePerWord(r, s, () => pick(r, ZW))),
  v('soft-hyphen', (r, s) =>
    mapCores(s, (w) => {
      let out = w;
      const n = chars(w).length;
      if (n < 3) return w;
      for (let k = int(r, 1, 2); k > 0; k--) out = insertAt(out, int(r, 1, chars(out).length - 1), '\u00ad');
      return out;
    }),
  ),
  v('keywords', (r, s) => {
    const z = pick(r, ZW);
    return onSome(r, s, (w) => gaps(r, w, 1, () => z), 0.4, 0.8);
  }),
  v('glued', (r, s) =>
    onePerWord(r, s, () => pick(r, ZW)).replace(/ /g, () => pick(r, ['\u200b', '\u2060'])),
  ),
  v('clusters', (r, s) =>
    mapCores(s, (w) =>
      chars(w).length < 2
        ? w
        : insertAt(
            w,
            int(r, 1, chars(w).length - 1),
            Array.from({ length: int(r, 2, 5) }, () => pick(r, ZW)).join(''),
          ),
    ),
  ),
  v('bidi-marks', (r, s) => mapCores(s, (w) => gaps(r, w, 0.45, () => pick(r, ZW_BIDI)))),
  v('variation-selectors', (r, s) =>
    mapCores(s, (w) => gaps(r, w, 0.45, () => String.fromCharCode(0xfe00 + int(r, 0, 15)))),
  ),
  v('invisible-ops', (r, s) => mapCores(s, (w) => gaps(r, w, 0.6, () => pick(r, ZW_OTHER)))),
];

// ---------------------------------------------------------------------------------------------
// homoglyph

const CYR = table(
  'aceopxyijshdqwlABCEHIJKMOPSTXY',
  '\u0430\u0441\u0435\u043e\u0440\u0445\u0443\u0456\u0458\u0455\u04bb\u0501\u051b\u051d\u04cf' +
    '\u0410\u0412\u0421\u0415\u041d\u0406\u0408\u041a\u041c\u041e\u0420\u0405\u0422\u0425\u0423',
);
const GRK = table(
  'ABEZHIKMNOPTYXovuikpxayn',
  '\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7' +
    '\u03bf\u03bd\u03c5\u03b9\u03ba\u03c1\u03c7\u03b1\u03b3\u03b7',
);
const ANY: Record<string, string[]> = {};
for (const t of [CYR, GRK]) for (const [k, x] of Object.entries(t)) (ANY[k] ??= []).push(x);

type MathStyle = { up: number; lo: number; dg?: number; ex?: Record<string, number> };
const MATH: readonly MathStyle[] = [
  { up: 0x1d400, lo: 0x1d41a, dg: 0x1d7ce },
  { up: 0x1d434, lo: 0x1d44e, ex: { h: 0x210e } },
  { up: 0x1d468, lo: 0x1d482 },
  {
    up: 0x1d49c,
    lo: 0x1d4b6,
    ex: {
      B: 0x212c,
      E: 0x2130,
      F: 0x2131,
      H: 0x210b,
      I: 0x2110,
      L: 0x2112,
      M: 0x2133,
      R: 0x211b,
      e: 0x212f,
      g: 0x210a,
      o: 0x2134,
    },
  },
  { up: 0x1d4d0, lo: 0x1d4ea },
  { up: 0x1d504, lo: 0x1d51e, ex: { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 } },
  {
    up: 0x1d538,
    lo: 0x1d552,
    dg: 0x1d7d8,
    ex: { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  },
  { up: 0x1d5a0, lo: 0x1d5ba, dg: 0x1d7e2 },
  { up: 0x1d5d4, lo: 0x1d5ee, dg: 0x1d7ec },
  { up: 0x1d608, lo: 0x1d622 },
  { up: 0x1d63c, lo: 0x1d656 },
  { up: 0x1d670, lo: 0x1d68a, dg: 0x1d7f6 },
];
function mathChar(st: MathStyle, c: string): string {
  const e = st.ex?.[c];
  if (e !== undefined) return String.fromCodePoint(e);
  const k = c.length === 1 ? c.charCodeAt(0) : 0;
  if (k >= 65 && k <= 90) return String.fromCodePoint(st.up + k - 65);
  if (k >= 97 && k <= 122) return String.fromCodePoint(st.lo + k - 97);
  if (st.dg !== undefined && k >= 48 && k <= 57) return String.fromCodePoint(st.dg + k - 48);
  return c;
}
const mathText = (st: MathStyle, s: string): string =>
  chars(s)
    .map((c) => mathChar(st, c))
    .join('');

const HOMO: readonly Variant[] = [
  v('cyrillic', (_r, s) => sub(s, CYR)),
  v('cyrillic-sparse', (r, s) => subP(r, s, CYR, 0.25 + r() * 0.25)),
  v('greek', (r, s) => subP(r, s, GRK, 0.8)),
  v('cyr-greek', (r, s) =>
    chars(s)
      .map((c) => {
        const o = ANY[c];
        return o && chance(r, 0.6) ? pick(r, o) : c;
      })
      .join(''),
  ),
  v('math-whole', (r, s) => mathText(pick(r, MATH), s)),
  v('math-words', (r, s) => {
    const st = pick(r, MATH);
    return onSome(r, s, (w) => mathText(st, w), 0.4, 0.8);
  }),
  v('math-per-word', (r, s) => mapCores(s, (w) => mathText(pick(r, MATH), w))),
  v('cyrillic-keywords', (r, s) => onSome(r, s, (w) => sub(w, CYR), 0.4, 0.8)),
  v('one-per-word', (r, s) =>
    mapCores(s, (w) => {
      const cs = chars(w);
      const idx = cs.flatMap((c, i) => (ANY[c] ? [i] : []));
      if (!idx.length) return w;
      const i = pick(r, idx);
      cs[i] = pick(r, ANY[cs[i]!]!);
      return cs.join('');
    }),
  ),
  v('all-scripts', (r, s) => {
    const st = pick(r, MATH);
    return chars(s)
      .map((c) => {
        if (!chance(r, 0.55)) return c;
        const o = ANY[c];
        return o && chance(r, 0.6) ? pick(r, o) : mathChar(st, c);
      })
      .join('');
  }),
];

// ---------------------------------------------------------------------------------------------
// spaced_letters

/** Each word's characters joined by sep(), words by wordSep, line breaks kept. */
const spaceOut = (s: string, sep: () => string, wordSep: string): string =>
  s
    .split('\n')
    .map((line) =>
      words(line)
        .map((w) =>
          chars(w)
            .map((c, i) => (i > 0 ? sep() : '') + c)
            .join(''),
        )
        .join(wordSep),
    )
    .join('\n');

const SPACED: readonly Variant[] = [
  v('space', (r, s) => spaceOut(s, () => ' ', pick(r, ['   ', '  ', ' / ', ' | ']))),
  v('dots', (r, s) => spaceOut(s, () => '.', pick(r, [' ', '  ']))),
  v('hyphens', (_r, s) => spaceOut(s, () => '-', '  ')),
  v('symbol', (r, s) => {
    const sep = pick(r, ['_', '*', '|', '~', '+', '\u00b7', '\u2022']);
    return spaceOut(s, () => sep, ' ');
  }),
  v('vertical', (_r, s) =>
    words(s)
      .map((w) => chars(w).join('\n'))
      .join('\n\n'),
  ),
  v('keywords', (r, s) => onSome(r, s, (w) => chars(w).join(pick(r, [' ', '.', '-'])), 0.4, 0.8)),
  v('caps', (r, s) => spaceOut(s.toUpperCase(), () => ' ', pick(r, ['   ', '  /  ']))),
  v('mixed-seps', (r, s) => spaceOut(s, () => pick(r, [' ', '.', '-', '_', '. ']), pick(r, [' ', '  ']))),
  v('odd-spaces', (r, s) => {
    const sep = pick(r, ['\u00a0', '\u2009', '\u2002', '\u200a']);
    return spaceOut(s, () => sep, '   ');
  }),
  v('dot-space', (r, s) => spaceOut(chance(r, 0.5) ? s.toUpperCase() : s, () => '. ', ' / ')),
  v(
    'char-list',
    (r, s) => {
      const list = chars(s)
        .map((c) => JSON.stringify(c))
        .join(', ');
      return pick(r, [`msg = "".join([${list}])`, `const msg = [${list}].join('');`]);
    },
    false,
  ),
];

// ---------------------------------------------------------------------------------------------
// base64

const B64: readonly Variant[] = [
  v('std', (_r, s) => b64(s)),
  v('urlsafe', (_r, s) => b64url(s)),
  v('wrapped', (r, s) => wrap(b64(s), pick(r, [64, 76]))),
  v(
    'mime',
    (r, s) => {
      const bnd = `----=_Part_${int(r, 10000, 99999)}_${hexId(r, 8)}`;
      return [
        'MIME-Version: 1.0',
        `Content-Type: multipart/mixed; boundary="${bnd}"`,
        '',
        `--${bnd}`,
        'Content-Type: text/plain; charset="utf-8"',
        '',
        pick(r, COVER),
        '',
        `--${bnd}`,
        `Content-Type: text/plain; charset="utf-8"; name="${pick(r, FILES)}"`,
        'Content-Transfer-Encoding: base64',
        'Content-Disposition: attachment',
        '',
        wrap(b64(s), 76),
        `--${bnd}--`,
      ].join('\n');
    },
    false,
  ),
  v(
    'json-field',
    (r, s) =>
      JSON.stringify(
        {
          id: hexId(r, 12),
          kind: pick(r, ['note', 'attachment', 'memo']),
          encoding: 'base64',
          [pick(r, ['data', 'content', 'payload', 'body'])]: b64(s),
        },
        null,
        2,
      ),
    false,
  ),
  v(
    'data-uri',
    (r, s) => {
      const u = `data:text/plain;base64,${b64(s)}`;
      return pick(r, [`<a href="${u}">${pick(r, LINK_TEXT)}</a>`, `[${pick(r, LINK_TEXT)}](${u})`, u]);
    },
    false,
  ),
  v('span', (r, s) => encodeSpan(r, s, b64)),
  v('chunks', (r, s) => {
    const parts = sentences(s).length > 1 ? sentences(s) : chunkWords(s, int(r, 2, 4));
    return parts.map(b64).join(pick(r, [' ', '\n', ' | ']));
  }),
  v(
    'code',
    (r, s) => {
      const e = b64(s);
      return pick(r, [
        `const msg = atob("${e}");`,
        `import base64\nprint(base64.b64decode("${e}").decode())`,
        `echo '${e}' | base64 -d`,
        `var text = Encoding.UTF8.GetString(Convert.FromBase64String("${e}"));`,
      ]);
    },
    false,
  ),
  v('pem', (r, s) => {
    const tag = pick(r, ['MESSAGE', 'DATA', 'NOTE', 'ENCODED TEXT']);
    return `-----BEGIN ${tag}-----\n${wrap(b64(s), 64)}\n-----END ${tag}-----`;
  }),
  v('utf16le', (r, s) =>
    chance(r, 0.5) ? `powershell.exe -NoP -NonI -EncodedCommand ${b64le(s)}` : b64le(s),
  ),
  v('per-word', (_r, s) => mapCores(s, b64)),
];

// ---------------------------------------------------------------------------------------------
// hex

const HEX: readonly Variant[] = [
  v('plain', (r, s) => (chance(r, 0.3) ? wrap(hexOf(s), 60) : hexOf(s, '', chance(r, 0.3)))),
  v('spaced', (r, s) => hexOf(s, ' ', chance(r, 0.6))),
  v('escaped', (r, s) => hexOf(s, '', chance(r, 0.3), '\\x')),
  v('0x-list', (r, s) => hexOf(s, pick(r, [' ', ', ', ',']), chance(r, 0.4), '0x')),
  v('colon', (r, s) => hexOf(s, ':', chance(r, 0.5))),
  v('dump', (r, s) => dump(s, chance(r, 0.3))),
  v('per-word', (r, s) => {
    const up = chance(r, 0.4);
    return mapCores(s, (w) => hexOf(w, '', up));
  }),
  v('span', (r, s) => {
    const sep = pick(r, ['', ' ']);
    return encodeSpan(r, s, (x) => hexOf(x, sep));
  }),
  v(
    'c-array',
    (r, s) => {
      const bytes = utf8(s).map((b) => `0x${hex2(b, false)}`);
      const rows: string[] = [];
      for (let i = 0; i < bytes.length; i += 12) rows.push(`  ${bytes.slice(i, i + 12).join(', ')}`);
      return `static const unsigned char ${pick(r, ['msg', 'blob', 'data', 'banner'])}[] = {\n${rows.join(',\n')}\n};`;
    },
    false,
  ),
  v(
    'sql',
    (r, s) =>
      pick(r, [
        `SELECT CAST(0x${hexOf(s, '', true)} AS VARCHAR(MAX));`,
        `SELECT UNHEX('${hexOf(s, '', true)}');`,
        `INSERT INTO notes (body) VALUES (X'${hexOf(s)}');`,
      ]),
    false,
  ),
  v('entities', (r, s) => {
    const up = chance(r, 0.3);
    return chars(s)
      .map((c) => {
        const h = c.codePointAt(0)!.toString(16);
        return `&#x${up ? h.toUpperCase() : h};`;
      })
      .join('');
  }),
  v('js-escape', (r, s) => {
    const up = chance(r, 0.5);
    return s
      .split('')
      .map((c) => `\\u${unitHex(c, up)}`)
      .join('');
  }),
];

// ---------------------------------------------------------------------------------------------
// rot13

const ROT: readonly Variant[] = [
  v('full', (_r, s) => rot13(s)),
  v('words', (r, s) => onSome(r, s, rot13, 0.5, 0.85)),
  v('groups', (_r, s) => {
    const g =
      rot13(s)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .match(/.{1,5}/g) ?? [];
    const out: string[] = [];
    for (let i = 0; i < g.length; i += 10) out.push(g.slice(i, i + 10).join(' '));
    return out.join('\n');
  }),
  v(
    'spoiler',
    (r, s) => pick(r, [`>!${rot13(s)}!<`, `||${rot13(s)}||`, `[spoiler]${rot13(s)}[/spoiler]`]),
    false,
  ),
  v(
    'code',
    (r, s) =>
      pick(r, [
        `import codecs\nprint(codecs.decode(${JSON.stringify(rot13(s))}, "rot_13"))`,
        `echo ${JSON.stringify(rot13(s))} | tr 'A-Za-z' 'N-ZA-Mn-za-m'`,
      ]),
    false,
  ),
  v('alternate', (r, s) => {
    const ss = sentences(s);
    const odd = int(r, 0, 1);
    if (ss.length >= 2) return ss.map((x, i) => (i % 2 === odd ? rot13(x) : x)).join(' ');
    return mapCores(s, (w, i) => (i % 2 === odd ? rot13(w) : w));
  }),
  v('labeled', (r, s) => `${pick(r, ['[rot13] ', 'ROT13: ', '(rot13) ', 'rot13:\n'])}${rot13(s)}`),
  v('rot18', (_r, s) => rot13(s).replace(/[0-9]/g, (d) => String((Number(d) + 5) % 10))),
  v('upper', (_r, s) => rot13(s).toUpperCase()),
  v('quoted', (_r, s) => lines(rot13(s), '> ')),
];

// ---------------------------------------------------------------------------------------------
// nested (two encodings)

type EncKey = 'b64' | 'hex' | 'hexEsc' | 'url' | 'rot';
const ENC: Record<EncKey, readonly [label: string, f: Run]> = {
  b64: ['base64', (r, s) => (chance(r, 0.2) ? b64url(s) : b64(s))],
  hex: ['hex', (r, s) => hexOf(s, chance(r, 0.25) ? ' ' : '', chance(r, 0.3))],
  hexEsc: ['hex escapes', (_r, s) => hexOf(s, '', false, '\\x')],
  url: ['URL-encoding', (r, s) => pct(s, chance(r, 0.7))],
  rot: ['ROT13', (_r, s) => rot13(s)],
};
const NEST_PAIRS: readonly (readonly [inner: EncKey, outer: EncKey])[] = [
  ['hex', 'b64'],
  ['b64', 'hex'],
  ['b64', 'b64'],
  ['b64', 'url'],
  ['rot', 'b64'],
  ['b64', 'rot'],
  ['rot', 'hex'],
  ['url', 'b64'],
  ['url', 'hex'],
  ['b64', 'hexEsc'],
  ['hex', 'url'],
];
const NESTED: readonly Variant[] = NEST_PAIRS.map(([i, o]) => ({
  name: `${o}(${i})`,
  bare: true,
  label: `${ENC[o][0]} of ${ENC[i][0]}`,
  run: (r: Rand, s: string) => {
    const out = ENC[o][1](r, ENC[i][1](r, s));
    return o === 'b64' && chance(r, 0.2) ? wrap(out, 76) : out;
  },
}));

// ---------------------------------------------------------------------------------------------
// full_width

const fwChar = (c: string, space: string): string => {
  if (c === ' ') return space;
  const k = c.length === 1 ? c.charCodeAt(0) : 0;
  return k > 0x20 && k < 0x7f ? String.fromCharCode(k + 0xfee0) : c;
};
const fw = (s: string, space = '\u3000'): string =>
  chars(s)
    .map((c) => fwChar(c, space))
    .join('');
const CJK_P = table('.,!?:;', '\u3002\u3001\uff01\uff1f\uff1a\uff1b');

const FULL: readonly Variant[] = [
  v('all', (_r, s) => fw(s)),
  v('ascii-spaces', (_r, s) => fw(s, ' ')),
  v('words', (r, s) => onSome(r, s, (w) => fw(w), 0.4, 0.8)),
  v('upper', (_r, s) => fw(s.toUpperCase())),
  v('random-mix', (r, s) =>
    chars(s)
      .map((c) => (chance(r, 0.6) ? fwChar(c, '\u3000') : c))
      .join(''),
  ),
  v('vaporwave', (_r, s) => spaceOut(s, () => ' ', '   ').replace(/[!-~]/g, (c) => fwChar(c, ' '))),
  v('cjk-punct', (_r, s) => fw(sub(s, CJK_P))),
  v('letters-only', (_r, s) => s.replace(/[A-Za-z]/g, (c) => fwChar(c, ' '))),
  v('alternate-words', (r, s) => {
    const odd = int(r, 0, 1);
    return mapCores(s, (w, i) => (i % 2 === odd ? fw(w) : w));
  }),
];

// ---------------------------------------------------------------------------------------------
// html_markdown_comment

const safe = (s: string): string => s.replace(/--!?>/g, '-- >');
const cmt = (s: string): string => `<!-- ${safe(s)} -->`;
const mdRef = (r: Rand, s: string): string => {
  const style = int(r, 0, 2);
  return s
    .split('\n')
    .filter((l) => l.trim())
    .map((l) =>
      style === 0 && !/[()]/.test(l)
        ? `[//]: # (${l})`
        : style === 1 && !/[<>()]/.test(l)
          ? `[comment]: <> (${l})`
          : `[//]: # "${l.replace(/"/g, '\\"')}"`,
    )
    .join('\n');
};

const COMMENT: readonly Variant[] = [
  v('inline', (r, s) => {
    const [a = '', b = ''] = sample(r, COVER, 2);
    return pick(r, [`${a} ${cmt(s)} ${b}`, `${a}\n${cmt(s)}\n${b}`, `${cmt(s)}\n${a}`]);
  }),
  v('block', (r, s) => `${pick(r, COVER)}\n\n<!--\n${safe(s)}\n-->\n\n${pick(r, COVER)}`),
  v('md-ref', (r, s) => {
    const [a = '', b = ''] = sample(r, COVER, 2);
    return `${a}\n\n${mdRef(r, s)}\n\n${b}`;
  }),
  v('split', (r, s) => {
    const parts = chunkWords(s, int(r, 2, 4));
    const vis = sample(r, COVER, parts.length + 1);
    return vis.map((x, i) => (i < parts.length ? `${x}\n${cmt(parts[i]!)}` : x)).join('\n');
  }),
  v(
    'html-page',
    (r, s) => {
      const t = pick(r, TITLES);
      const [a = '', b = ''] = sample(r, COVER, 2);
      return `<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>${t}</title>\n</head>\n<body>\n  <h1>${t}</h1>\n  <p>${a}</p>\n  ${cmt(s)}\n  <p>${b}</p>\n</body>\n</html>`;
    },
    false,
  ),
  v(
    'readme',
    (r, s) => {
      const p = pick(r, PROJECTS);
      return `# ${p}\n\n${pick(r, COVER)}\n\n<!--\n${safe(s)}\n-->\n\n## Installation\n\n\`\`\`bash\nnpm install ${p}\n\`\`\`\n\n## License\n\nMIT`;
    },
    false,
  ),
  v(
    'outlook-conditional',
    (r, s) =>
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0">\n  <tr>\n    <td style="font-family:Arial,sans-serif;font-size:14px;">\n      <p>${pick(r, COVER)}</p>\n      <!--[if mso]>${safe(s)}<![endif]-->\n      <p>${pick(r, CLOSERS)}<br>${pick(r, NAMES)}</p>\n    </td>\n  </tr>\n</table>`,
    false,
  ),
  v(
    'mdx',
    (r, s) =>
      `---\ntitle: ${pick(r, TITLES)}\n---\n\nimport { Callout } from '../components/Callout';\n\n${pick(r, COVER)}\n\n{/* ${s.replace(/\*\//g, '* /')} */}\n\n<Callout>${pick(r, COVER)}</Callout>`,
    false,
  ),
  v(
    'pr-template',
    (r, s) =>
      `## Summary\n\n${cmt(s)}\n${pick(r, COVER)}\n\n## Checklist\n\n- [x] Tests added\n- [${pick(r, [' ', 'x'])}] Docs updated\n- [ ] Changelog entry`,
    false,
  ),
  v(
    'svg',
    (r, s) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="${pick(r, ['16', '24', '32'])}" height="24" viewBox="0 0 24 24">\n  ${cmt(s)}\n  <path d="M12 2L2 7l10 5 10-5-10-5z" fill="currentColor"/>\n</svg>`,
    false,
  ),
];

// ---------------------------------------------------------------------------------------------
// unicode_tags

const FOLD = table('\u2018\u2019\u201c\u201d\u2013\u2014\u00a0\t', '\'\'""--  ');
const tagChar = (c: string): string => {
  const k = c.length === 1 ? c.charCodeAt(0) : 0;
  return k >= 0x20 && k < 0x7f ? String.fromCodePoint(0xe0000 + k) : c;
};
const tags = (s: string): string => chars(sub(s, FOLD)).map(tagChar).join('');
const EMOJI = ['\u{1F44D}', '\u{1F642}', '\u2705', '\u{1F389}', '\u{1F3F4}', '\u{1F4CE}', '\u{1F64F}'];

const TAGS: readonly Variant[] = [
  v('after-cover', (r, s) => `${pick(r, COVER)}${tags(s)}`),
  v('only', (r, s) => (chance(r, 0.5) ? `\u{E0001}${tags(s)}\u{E007F}` : tags(s))),
  v('emoji', (r, s) => `${pick(r, COVER)} ${pick(r, EMOJI)}${tags(s)}${chance(r, 0.5) ? '\u{E007F}' : ''}`),
  v('mid-word', (r, s) => {
    const c = pick(r, COVER);
    const ws = words(c);
    const wi = int(r, 0, ws.length - 1);
    return ws
      .map((w, i) => (i === wi ? insertAt(w, int(r, 1, Math.max(1, w.length - 1)), tags(s)) : w))
      .join(' ');
  }),
  v('partial-words', (r, s) => onSome(r, s, tags, 0.4, 0.8)),
  v('chunked', (r, s) => {
    const parts = chunkWords(s, int(r, 2, 3));
    const vis = sample(r, COVER, parts.length);
    return vis.map((x, i) => `${x}${tags((i ? ' ' : '') + (parts[i] ?? ''))}`).join(' ');
  }),
  v('before-cover', (r, s) => `${tags(s)}${pick(r, COVER)}`),
  v(
    'json',
    (r, s) =>
      JSON.stringify(
        { title: pick(r, TITLES), body: `${pick(r, COVER)}${tags(s)}`, author: pick(r, NAMES) },
        null,
        2,
      ),
    false,
  ),
  v(
    'md-link',
    (r, s) =>
      `${pick(r, COVER)} [${pick(r, LINK_TEXT)}${tags(s)}](https://${pick(r, DOMAINS)}/${pick(r, PATHS)})`,
    false,
  ),
  v(
    'commit-msg',
    (r, s) =>
      `git commit -m "${pick(r, ['fix: typo in docs', 'chore: bump deps', 'feat: add retry to uploader', 'docs: update README'])}${tags(s)}"`,
    false,
  ),
];

// ---------------------------------------------------------------------------------------------
// Families, mixes and the entry point

const VARIANTS: Record<Fam, readonly Variant[]> = {
  leetspeak: LEET,
  url_encoding: URLV,
  zero_width: ZERO,
  homoglyph: HOMO,
  spaced_letters: SPACED,
  base64: B64,
  hex: HEX,
  rot13: ROT,
  nested: NESTED,
  full_width: FULL,
  html_markdown_comment: COMMENT,
  unicode_tags: TAGS,
};
const LABELS: Partial<Record<Fam, readonly string[]>> = {
  url_encoding: ['URL-encoded', 'percent-encoded'],
  base64: ['base64', 'Base64', 'b64'],
  hex: ['hex', 'hexadecimal', 'hex bytes'],
  rot13: ['ROT13', 'rot13', 'ROT-13'],
};
const bareOf = (f: Fam): readonly Variant[] => VARIANTS[f].filter((x) => x.bare);

/** Pairs combined by mix_of_two, applied first then second. */
const MIXES: readonly (readonly [Fam, Fam])[] = [
  ['homoglyph', 'zero_width'],
  ['leetspeak', 'zero_width'],
  ['full_width', 'zero_width'],
  ['rot13', 'zero_width'],
  ['leetspeak', 'spaced_letters'],
  ['homoglyph', 'spaced_letters'],
  ['rot13', 'spaced_letters'],
  ['leetspeak', 'homoglyph'],
  ['rot13', 'homoglyph'],
  ['rot13', 'leetspeak'],
  ['leetspeak', 'full_width'],
  ['leetspeak', 'base64'],
  ['leetspeak', 'hex'],
  ['homoglyph', 'url_encoding'],
  ['leetspeak', 'url_encoding'],
  ['leetspeak', 'html_markdown_comment'],
  ['homoglyph', 'html_markdown_comment'],
  ['zero_width', 'html_markdown_comment'],
  ['rot13', 'html_markdown_comment'],
  ['full_width', 'html_markdown_comment'],
  ['base64', 'html_markdown_comment'],
  ['hex', 'html_markdown_comment'],
  ['unicode_tags', 'html_markdown_comment'],
  ['leetspeak', 'unicode_tags'],
  ['rot13', 'unicode_tags'],
  ['spaced_letters', 'unicode_tags'],
];

function single(r: Rand, s: string, f: Fam): Draw {
  const vr = pick(r, VARIANTS[f]);
  const pool = LABELS[f];
  const label = vr.label ?? (pool ? pick(r, pool) : undefined);
  return { core: vr.run(r, s), method: vr.name, bare: vr.bare, label };
}

function mix(r: Rand, s: string): Draw | null {
  const [fa, fb] = pick(r, MIXES);
  const va = pick(r, bareOf(fa));
  const a = va.run(r, s);
  if (a === s) return null;
  const vb = pick(r, bareOf(fb));
  const b = vb.run(r, a);
  if (b === a) return null;
  return { core: b, method: `${va.name}+${vb.name}`, bare: true, label: undefined };
}

/** True when `out` still shows most of `src`'s longer words verbatim (or is `src` itself). */
function tooClose(src: string, out: string, family: BriefedFamily): boolean {
  if (out === src) return true;
  if (family === 'html_markdown_comment') return false;
  const ws = src.match(/[A-Za-z]{4,}/g) ?? [];
  if (!ws.length) return false;
  const kept = ws.filter((w) => new RegExp(`(?<![A-Za-z])${w}(?![A-Za-z])`).test(out)).length;
  return kept / ws.length > 0.65;
}

function finish(r: Rand, d: Draw): { text: string; method: string } {
  let text = d.core;
  let method = d.method;
  if (d.bare && d.label !== undefined && chance(r, 0.085)) {
    text = pick(r, FRAMES).split('{label}').join(d.label).split('{p}').join(text);
    method += '+ask';
  }
  if (d.bare && chance(r, 0.3)) {
    const [t, name] = carry(r, text);
    text = t;
    method += `@${name}`;
  }
  return { text, method };
}

/** `text` hidden with one variant of `family`, every choice drawn from `r`. */
export function obfuscateI(r: Rand, text: string, family: BriefedFamily): { text: string; method: string } {
  let draw: Draw | null = null;
  for (let tries = 0; tries < 12; tries++) {
    const d = family === 'mix_of_two' ? mix(r, text) : single(r, text, family);
    if (!d) continue;
    draw = d;
    if (!tooClose(text, d.core, family)) break;
  }
  return draw ? finish(r, draw) : { text, method: 'unchanged' };
}
