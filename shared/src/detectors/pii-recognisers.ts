/**
 * The structured PII findPii knows, one recogniser a pattern: when its pattern can match (its
 * gate), the pattern, and what a match is (validation, context, confidence). findStructured runs
 * them in table order, which is also the order overlap resolution breaks confidence ties in.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { electronicFormatIBAN, countrySpecs, isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  aadhaarValid,
  base58CheckValid,
  bech32Valid,
  bsnValid,
  cardIssuer,
  cpfValid,
  deTaxIdValid,
  eip55Valid,
  esNifValid,
  fiPersonalIdValid,
  itFiscalCodeValid,
  luhnValid,
  peselValid,
  ssnValid,
  ukNinoValid,
} from './checksums';
import type { PiiMatch } from './pii';
import { isWordUnit } from './pii-names';
import type { TextShape } from './text-shape';

/** What the gates read of a text, computed once per text. */
export interface TextFacts {
  raw: string;
  shape: TextShape;
  hasAt: boolean;
}

/** A recognised match: by default it spans the whole match and has the recogniser's type and rule. */
export interface Recognised {
  confidence: number;
  validated: boolean;
  entityType?: string;
  ruleId?: string;
  start?: number;
  end?: number;
}

export interface Recogniser {
  entityType: string;
  ruleId: string;
  /** The full-text pattern (RE2 syntax, matched with the `u` flag), run over every match. */
  pattern: string;
  /**
   * The pattern is also a V8 RegExp with the same matches, linear in the text (bounded repeats, no
   * ambiguous nesting): its match loop runs in V8, whose match costs about a tenth of an RE2 exec's
   * (RE2 builds a result of Buffers for each). The RE2 set pass still says whether it runs at all.
   */
  linear?: true;
  /** Whether a text can hold a match at all: the pattern runs only if it does. */
  gate: (t: TextFacts) => boolean;
  /**
   * The highest confidence it gives, when below the other recognisers'. A candidate overlapping a
   * match above it found earlier would lose overlap resolution anyway, so `recognise` is handed
   * those matches (`surer`) to drop such a candidate before validating it.
   */
  ceiling?: number;
  /** What the match `m` in `raw` is, or undefined when it is not this PII. */
  recognise: (m: RegExpExecArray, raw: string, surer: readonly PiiMatch[]) => Recognised | undefined;
}

/** The highest confidence a phone number match gets (a valid international number). */
const PHONE_MAX_CONFIDENCE = 0.95;

// Context patterns only ever test short slices around a match (≤ ~80 characters): plain JS RegExps.
const ctx = (src: string) => new RegExp(src, 'iu');
const CARD_CTX = ctx(
  'card|\\bcc\\b|credit|debit|visa|master|amex|american express|payment|billing|charge|pan\\b',
);
const SSN_CTX = ctx('ssn|social security|social sec');
const IBAN_CTX = ctx('iban|bank|account|transfer|wire|sepa|swift|payee|remit');
// "phone" as a word's start: not "headphones", "microphone" or "iPhone", product names in a catalogue.
const PHONE_CTX = ctx(
  '(?<!\\p{L})phone|t[eé]l[eé]phone|tel\\b|tel:|tel\\.|call|mobile|cell|fax|desk|office|whatsapp|sms|text me|reach|contact|number|landline|hotline|ph\\.|ph:|mob\\b|messages? to|answering|registered|dial|ring me|text me',
);
const NOT_PHONE_CTX = ctx(
  'licen[cs]e|passport|order|invoice|tracking|serial|account|ssn|social security|iban|card|\\bid\\b|zip|postal',
);
const CRYPTO_CTX = ctx('btc|bitcoin|wallet|eth\\b|ethereum|crypto|send .{0,10}coins?');
const NINO_CTX = ctx('national insurance|\\bnino\\b|\\bni\\b|\\bni number');
const NIF_CTX = ctx('\\bdni\\b|\\bnif\\b|\\bnie\\b|documento|identidad');
const CF_CTX = ctx('codice fiscale|fiscal|\\bcf\\b');

function near(raw: string, start: number, end: number, re: RegExp, before = 48, after = 24): boolean {
  return re.test(raw.slice(Math.max(0, start - before), Math.min(raw.length, end + after)));
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

const onlyDigits = (s: string) => s.replace(/\D/g, '');

/** Blanks and the marks that part the cells of a row (tabs, commas, semicolons, pipes). */
const isCellGap = (c: string | undefined) => c === ' ' || c === '\t' || c === ',' || c === ';' || c === '|';

/** How far past a number `neighbour` looks for the next cell, and how much of that cell it reads. */
const CELL_GAP = 16;
const CELL_READ = 24;

/** What sits next to a number on its line (`neighbour`). */
interface Neighbour {
  /** Nothing (the line's edge, or only blanks), a cell holding a digit, or words. */
  kind: 'edge' | 'number' | 'word';
  /** Parted from the number by one blank alone (the joiner of a run of digit groups). */
  joined: boolean;
  /** The cell's length, read up to CELL_READ characters. */
  length: number;
}

/** What sits next to a number on its line, stepping from `i` by `step` (−1 or +1) past blanks and cell marks. */
function neighbour(raw: string, i: number, step: -1 | 1): Neighbour {
  const from = i;
  while (isCellGap(raw[i]) && Math.abs(i - from) < CELL_GAP) i += step;
  const joined = i === from + step && raw[from] === ' ';
  let length = 0;
  let digit = false;
  for (; length < CELL_READ; length++, i += step) {
    const d = raw[i];
    if (d === undefined || d === '\n' || d === '\r' || isCellGap(d)) break;
    if (isDigit(d)) digit = true;
  }
  return { kind: length === 0 ? 'edge' : digit ? 'number' : 'word', joined, length };
}

/** Numbers next to a number: any in the cells beside it, and whether it is one of many. */
interface NumberNeighbours {
  /** A cell holding a digit on either side of it, on its line. */
  beside: boolean;
  /**
   * Joined by a single blank to another group of digits (a slice of a run too long for the number
   * it looks like: a dump's bytes, a row of figures), or with numbers in the cells on both sides.
   */
  among: boolean;
  /**
   * Joined by a single blank to a group of four characters holding a digit: one of a run of fours
   * (a dump's 16-bit words, a long reference number printed in fours), not a card of its own.
   */
  inFours: boolean;
}

/** A group of four characters holding a digit, joined to the number by a single blank. */
const joinedFour = (n: Neighbour) => n.kind === 'number' && n.joined && n.length === 4;

function numberNeighbours(raw: string, start: number, end: number): NumberNeighbours {
  const before = neighbour(raw, start - 1, -1);
  const after = neighbour(raw, end, 1);
  const left = before.kind === 'number';
  const right = after.kind === 'number';
  return {
    beside: left || right,
    among: (left && (before.joined || right)) || (right && after.joined),
    inFours: joinedFour(before) || joinedFour(after),
  };
}

/**
 * IPv4 ranges no one is reached at from the internet (RFC 1918's private networks, loopback,
 * link-local, RFC 5737's documentation networks): still reported, at a lower confidence.
 */
const NOT_PUBLIC_V4 = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
] as const)
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');

const endOf = (m: RegExpExecArray) => m.index + m[0].length;

/** A bare run of digits (separators allowed), what `DIGIT_RUN_RULES` read of it. */
interface DigitRun {
  raw: string;
  start: number;
  end: number;
  /** The run as written, without trailing separators. */
  text: string;
  digits: string;
}

/** National ids written as bare digits: recognised only where their context names them. */
const NATIONAL_IDS = [
  {
    type: 'DE_TAX_ID',
    re: ctx('steuer|tax.?id|idnr|identifikationsnummer|tin\\b'),
    valid: deTaxIdValid,
    digits: [11],
  },
  { type: 'IN_AADHAAR', re: ctx('aadhaar|aadhar|uidai|आधार'), valid: aadhaarValid, digits: [12] },
  { type: 'PL_PESEL', re: ctx('pesel'), valid: peselValid, digits: [11] },
  { type: 'BR_CPF', re: ctx('\\bcpf\\b'), valid: cpfValid, digits: [11] },
  { type: 'NL_BSN', re: ctx('\\bbsn\\b|burgerservice|sofi'), valid: bsnValid, digits: [9] },
];

/**
 * Whether digits parted by blanks or dashes are grouped as cards are printed: fours, with a group of
 * six in the middle (American Express, Diners Club) and a shorter last group allowed.
 */
function groupedLikeCard(text: string): boolean {
  const groups = text.split(/[ -]/);
  if (groups.length === 1) return true;
  if (groups[0]!.length !== 4) return false;
  for (let i = 1; i < groups.length - 1; i++)
    if (groups[i]!.length !== 4 && groups[i]!.length !== 6) return false;
  return groups[groups.length - 1]!.length <= 5;
}

/** How cards are printed: all at once, in fours, or 4-6-5 and 4-6-4 (American Express, Diners Club). */
const CARD_SHAPES = [
  ...[19, 18, 17, 16, 15, 14, 13].map((n) => [n]),
  [4, 4, 4, 4, 3],
  [4, 4, 4, 4],
  [4, 6, 5],
  [4, 6, 4],
];

/** The longest run of digit groups read for a card at its edge (a card printed in groups is 23). */
const EDGE_RUN_MAX = 64;

/**
 * A card printed at the start or the end of a longer run of digit groups, which the run as a whole
 * is not: an expiry or a count after it ("4111 1111 1111 1111 12/27"), an amount before it
 * ("12.50 4111111111111111"). Only a number that passes both the checksum and an issuer's ranges,
 * and not fours that run on past it.
 */
function cardAtRunEdge(raw: string, runStart: number, text: string): Recognised | undefined {
  // A card and what is printed beside it on one line; a longer run is a table's or a dump's.
  if (text.length > EDGE_RUN_MAX) return undefined;
  const groups: Array<{ at: number; digits: string }> = [];
  for (const g of text.matchAll(/\d+/g)) groups.push({ at: g.index, digits: g[0] });
  if (groups.length < 2) return undefined;
  for (const shape of CARD_SHAPES) {
    const n = shape.length;
    if (n >= groups.length) continue;
    for (const first of [0, groups.length - n]) {
      const part = groups.slice(first, first + n);
      if (part.some((g, k) => g.digits.length !== shape[k])) continue;
      // Fours that run on past it are one long number grouped in fours (a parcel's, an invoice's).
      const next = groups[first === 0 ? n : first - 1]!;
      if (n > 1 && next.digits.length === 4) continue;
      const s = part[0]!.at;
      const e = part[n - 1]!.at + part[n - 1]!.digits.length;
      if (text.slice(s, e).includes('.')) continue;
      const d = part.map((g) => g.digits).join('');
      if (!luhnValid(d) || !cardIssuer(d)) continue;
      const context = near(raw, runStart + s, runStart + e, CARD_CTX, 48, 16);
      return { start: runStart + s, end: runStart + e, confidence: context ? 0.97 : 0.9, validated: true };
    }
  }
  return undefined;
}

/** Whether the group of letters and digits from `at` on (`step` 1) or back (-1) holds a digit in its first 16. */
function dashGroupHasDigit(raw: string, at: number, step: 1 | -1): boolean {
  for (let i = at, n = 0; n < 16 && isAlnum(raw[i]); i += step, n++) if (isDigit(raw[i])) return true;
  return false;
}

/** Words that make any key a phone's ("office_phone", "mobileNo"); PHONE_CTX's others only as its last word. */
const PHONE_KEY = ctx('(?<!\\p{L})phone|mobile|\\btel|fax|whatsapp|contact');

/**
 * Whether a key names a phone number: "phone", "mobile_no", "Desk" and "office" do; "Office Chair"
 * and "Desk Lamp", products keyed by name in a catalogue, do not (a key's last word says what it is).
 */
function phoneKey(key: string): boolean {
  return PHONE_KEY.test(key) || PHONE_CTX.test(lastWord(key));
}

/** A key's last word: "item_ids" → "ids", "trackingId" → "Id", "Desk Lamp" → "Lamp". */
function lastWord(key: string): string {
  const words = key.split(/[^\p{L}\p{N}]+|(?<=\p{Ll})(?=\p{Lu})/u);
  return words[words.length - 1] ?? '';
}

/** Whether a key names identifiers ("tracking_id", "itemIds", "uuid"): their values are no one's card. */
const idKey = (key: string) => /^(?:ids?|uuid|guid)$/i.test(lastWord(key));

/**
 * The key a number at `start`–`end` is the value of, in structured data: `pid=20871`,
 * `"item_id": 6200867091`, `"item_ids": ["6200867091", …]`; "" for a quoted string holding the
 * number alone (an array's later element); undefined in prose. Such a number's context is its key
 * alone: the record's other keys name other values ("Desk Lamp" is a product, not a phone's desk).
 */
function keyOf(raw: string, start: number, end: number): string | undefined {
  const quoted = raw[start - 1] === '"' && raw[end] === '"';
  let i = quoted ? start - 1 : start;
  if (raw[i - 1] === "'") i--;
  if (raw[i - 1] === '=') {
    let j = i - 1;
    while (j > 0 && isWordUnit(raw.charCodeAt(j - 1))) j--;
    if (j < i - 1) return raw.slice(j, i - 1);
  }
  while (raw[i - 1] === ' ' || raw[i - 1] === '\t') i--;
  if (raw[i - 1] === '[') i--;
  while (raw[i - 1] === ' ' || raw[i - 1] === '\t') i--;
  if (raw[i - 1] === ':' && raw[i - 2] === '"') {
    const open = raw.lastIndexOf('"', i - 3);
    if (open >= 0 && i - 2 - open <= 64) return raw.slice(open + 1, i - 2);
  }
  return quoted ? '' : undefined;
}

/**
 * What a bare digit run is, tried in this order, the first answer wins: a card, a national id its
 * context names, an Aadhaar number in its 4-4-4 grouping, a US SSN after SSN wording.
 */
const DIGIT_RUN_RULES: Array<(r: DigitRun) => Recognised | undefined> = [
  ({ raw, start, end, text, digits: d }) => {
    if (d.length < 12 || d.length > 19) return undefined;
    const luhn = luhnValid(d);
    const issuer = cardIssuer(d);
    const key = keyOf(raw, start, end);
    const context = key === undefined ? near(raw, start, end, CARD_CTX, 48, 16) : CARD_CTX.test(key);
    let conf = 0;
    if (luhn && issuer) conf = context ? 0.97 : 0.9;
    else if (luhn) conf = context ? 0.85 : 0.55;
    // Checksum fails (typos, synthetic data): a card-like number right after card wording.
    else if (context) conf = issuer ? 0.65 : 0.55;
    if (/^(\d)\1+$/.test(d)) conf = 0;
    // Without card wording: digits grouped as no card is printed or one of a run of fours, or a
    // checksum that passes without an issuer's prefix (one number in ten does) on a number beside
    // numbers or a value in structured data (whose key is its only context), or any number keyed
    // as an identifier.
    if (!context && conf > 0) {
      const grouped = text.length > d.length;
      if ((grouped && !groupedLikeCard(text)) || (key !== undefined && idKey(key))) conf = 0;
      // The neighbours are read only where they can decide (a card of one piece that passes both
      // checks, one of 40,000 in a field, reads none).
      else if (grouped || conf < 0.9) {
        const around = numberNeighbours(raw, start, end);
        if ((grouped && around.inFours) || (conf < 0.9 && (around.beside || key !== undefined))) conf = 0;
      }
    }
    if (conf === 0) return undefined;
    return {
      entityType: 'CREDIT_CARD',
      ruleId: luhn ? 'pii.credit_card' : 'pii.credit_card_format',
      confidence: conf,
      validated: luhn,
    };
  },
  ...NATIONAL_IDS.map((id) => ({ raw, start, end, digits: d }: DigitRun): Recognised | undefined => {
    if (!id.digits.includes(d.length) || !near(raw, start, end, id.re, 40, 10)) return undefined;
    const valid = id.valid(d);
    return {
      entityType: id.type,
      ruleId: `pii.${id.type.toLowerCase()}`,
      confidence: valid ? 0.9 : 0.45,
      validated: valid,
    };
  }),
  ({ text, digits: d }) =>
    d.length === 12 && /^\d{4}[ -]\d{4}[ -]\d{4}$/.test(text) && aadhaarValid(d)
      ? { entityType: 'IN_AADHAAR', ruleId: 'pii.in_aadhaar', confidence: 0.6, validated: true }
      : undefined,
  ({ raw, start, digits: d }) =>
    d.length === 9 && SSN_CTX.test(raw.slice(Math.max(0, start - 40), start)) && ssnValid(d)
      ? { entityType: 'US_SSN', ruleId: 'pii.us_ssn', confidence: 0.75, validated: true }
      : undefined,
];

export const RECOGNISERS: Recogniser[] = [
  {
    entityType: 'EMAIL_ADDRESS',
    ruleId: 'pii.email',
    pattern:
      '[A-Za-z0-9._%+\\-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,62}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,62}[A-Za-z0-9])?)*\\.[A-Za-z]{2,24}',
    gate: (t) => t.hasAt,
    recognise: (m, raw) =>
      // user:password@host inside a URL is a credential, not an address.
      /:\/\/[^\s/]*$/.test(raw.slice(Math.max(0, m.index - 80), m.index))
        ? undefined
        : { confidence: 0.95, validated: true },
  },
  {
    entityType: 'IP_ADDRESS',
    ruleId: 'pii.ipv4',
    pattern: '\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}',
    gate: (t) => t.shape.digits >= 4 && t.raw.includes('.'),
    recognise: (m, raw) => {
      const s = m.index;
      const e = endOf(m);
      const before = raw[s - 1];
      const after = raw[e];
      if (isDigit(before) || before === '.' || isDigit(after) || (after === '.' && isDigit(raw[e + 1])))
        return undefined;
      if (/(?:\bv|version|ver\.?)\s*$/i.test(raw.slice(Math.max(0, s - 12), s)) || !isIPv4(m[0]))
        return undefined;
      // A network written with its prefix length ("10.0.0.0/16") names no one's host.
      if (after === '/' && /^\/(?:[0-9]|[12]\d|3[01])(?!\d)/.test(raw.slice(e, e + 4))) return undefined;
      const special =
        m[0].startsWith('0.') || m[0] === '255.255.255.255' || NOT_PUBLIC_V4.check(m[0], 'ipv4');
      return { confidence: special ? 0.5 : 0.9, validated: true };
    },
  },
  {
    entityType: 'IP_ADDRESS',
    ruleId: 'pii.ipv6',
    pattern: '[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[0-9A-Za-z]{1,16})?',
    // Two of the pattern's colons with at most four hex digits between them (a bounded JS test).
    gate: (t) => t.shape.colons >= 2 && /:[0-9A-Fa-f]{0,4}:/.test(t.raw),
    recognise: (m, raw) => {
      const v = m[0];
      if (v.length < 6 || !isIPv6(v.split('%')[0]!) || !/[0-9a-fA-F]{2}/.test(v)) return undefined;
      if (isAlnum(raw[m.index - 1]) || isAlnum(raw[m.index + v.length])) return undefined;
      return { confidence: 0.9, validated: true };
    },
  },
  {
    entityType: 'US_SSN',
    ruleId: 'pii.us_ssn',
    pattern: '\\d{3}([\\- ])\\d{2}[\\- ]\\d{4}',
    gate: (t) => t.shape.maxDigitRun >= 3,
    recognise: (m, raw) => {
      const s = m.index;
      const e = endOf(m);
      if (isDigit(raw[s - 1]) || isDigit(raw[e]) || raw[s - 1] === '-' || raw[e] === '-') return undefined;
      const context = near(raw, s, e, SSN_CTX);
      if (!ssnValid(onlyDigits(m[0]))) return undefined;
      const conf =
        m[1] === '-' ? (context ? 0.95 : 0.8) : context ? 0.85 : numberNeighbours(raw, s, e).among ? 0 : 0.45;
      return { confidence: conf, validated: true };
    },
  },
  {
    entityType: 'IBAN_CODE',
    ruleId: 'pii.iban',
    pattern: '[A-Za-z]{2}\\d{2}(?:[ \\-]?[A-Za-z0-9]){11,32}',
    gate: (t) => t.shape.digits > 0 && t.shape.maxAlnumRun >= 4,
    recognise: (m, raw) => {
      if (isAlnum(raw[m.index - 1])) return undefined;
      const spec = (countrySpecs as Record<string, { chars?: number } | undefined>)[
        m[0].slice(0, 2).toUpperCase()
      ];
      if (!spec?.chars) return undefined;
      // The pattern may run into the next word: cut the raw match where the country's length ends.
      let count = 0;
      let cut = m[0].length;
      for (let i = 0; i < m[0].length; i++) {
        if (/[A-Za-z0-9]/.test(m[0][i]!)) count++;
        if (count === spec.chars) {
          cut = i + 1;
          break;
        }
      }
      if (count < spec.chars) return undefined;
      const value = m[0].slice(0, cut);
      if (isAlnum(raw[m.index + cut]) && !/[ -]/.test(m[0][cut] ?? '')) return undefined;
      const e = m.index + cut;
      const valid = isValidIBAN(electronicFormatIBAN(value) ?? '');
      const context = near(raw, m.index, e, IBAN_CTX, 60);
      // Synthetic and mistyped IBANs fail mod-97; right country length plus banking context still counts.
      const conf = valid ? 0.97 : context ? 0.65 : /^[A-Z]{2}\d{2}[A-Z]{4}/.test(value) ? 0.45 : 0;
      return { ruleId: valid ? 'pii.iban' : 'pii.iban_format', end: e, confidence: conf, validated: valid };
    },
  },
  {
    // Cards and national ids written as bare digits: one pattern, and DIGIT_RUN_RULES say which it
    // is (each names its own type and rule).
    entityType: 'CREDIT_CARD',
    ruleId: 'pii.credit_card',
    // Unbounded: one match per maximal run (bounded repeats matched every 19 digits of a long run).
    pattern: '\\d(?:[ \\-.]?\\d){8,}',
    gate: (t) => t.shape.digits >= 9,
    recognise: (m, raw) => {
      const start = m.index;
      let text = m[0];
      while (text.length && !isDigit(text[text.length - 1])) text = text.slice(0, -1);
      const end = start + text.length;
      if (isAlnum(raw[start - 1]) || isAlnum(raw[end]) || /[\d][.,]$/.test(raw.slice(start - 2, start)))
        return undefined;
      const digits = onlyDigits(text);
      // Dotted digit groups are IPs, versions or amounts, never cards.
      if (digits.length <= 19 && !text.includes('.')) {
        const run: DigitRun = { raw, start, end, text, digits };
        for (const rule of DIGIT_RUN_RULES) {
          const found = rule(run);
          if (found) return { ...found, end };
        }
      }
      return cardAtRunEdge(raw, start, text);
    },
  },
  {
    entityType: 'PHONE_NUMBER',
    ruleId: 'pii.phone',
    // RE2's \s, written out ([\t\n\f\r ]), so V8 reads the same pattern the same way. Linear in V8:
    // each repeat is bounded but \d{7,}, which a match ends or no later branch retries, and a digit
    // group ends only at a separator, so no group can be cut in two ways.
    pattern:
      '(?:\\+\\d{1,3}[\\t\\n\\f\\r .\\-]?)?(?:\\(\\d{1,5}\\)[\\t\\n\\f\\r .\\-]?)?(?:\\d{7,}|\\d{1,6}(?:[ .\\-]\\(?\\d{1,10}\\)?){1,5})(?:[\\t\\n\\f\\r ]?(?:x|ext\\.?|#)[\\t\\n\\f\\r ]?\\d{1,6})?',
    linear: true,
    gate: (t) => t.shape.digits >= 7,
    // A validated card or IBAN outranks any phone number: a candidate overlapping one is not parsed.
    ceiling: PHONE_MAX_CONFIDENCE,
    recognise: (m, raw, surer) => {
      let text = m[0];
      let s = m.index;
      while (text.length && /[\s.-]/.test(text[text.length - 1]!)) text = text.slice(0, -1);
      while (text.length && /[\s.-]/.test(text[0]!)) {
        text = text.slice(1);
        s++;
      }
      const e = s + text.length;
      const d = onlyDigits(text);
      if (d.length < 7 || d.length > 15) return undefined;
      // No phone number's digits start 000: a country code never starts with 0, so neither the
      // international prefix 00 nor a trunk prefix 0 is followed by one (a dump's offset "00000010").
      if (d.startsWith('000')) return undefined;
      if (surer.some((o) => s < o.end && o.start < e)) return undefined;
      if (
        isAlnum(raw[s - 1]) ||
        isAlnum(raw[e]) ||
        raw[e] === '@' ||
        raw[s - 1] === '.' ||
        raw[s - 1] === '/' ||
        // A piece of a longer run of groups with digits joined by dashes, which goes on past the
        // match with no blank: a hex dump ("6F-20-73-65-72-20-75-6E"), a UUID's parts, "HX7-55219-02"
        // ("082 490 1693-Office" is a phone and its label).
        (raw[e] === '-' && dashGroupHasDigit(raw, e + 1, 1)) ||
        (raw[s - 1] === '-' && dashGroupHasDigit(raw, s - 2, -1))
      )
        return undefined;
      // Dates, times, version-like runs and IPv4 addresses are not phone numbers (libphonenumber
      // took tens of µs to reject each address).
      if (
        /^\d{4}[-./]\d{1,2}[-./]\d{1,2}|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$|^\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(
          text,
        ) ||
        isIPv4(text)
      )
        return undefined;
      if (raw[e] === ':') return undefined;
      // A keyed value's context is its key, for and against: in `{"order_id": "7", "phone": …}`
      // the order names the 7. A bare array element ("" for key) and prose read the words before.
      const key = keyOf(raw, s, e);
      if (NOT_PHONE_CTX.test(key || raw.slice(Math.max(0, s - 32), s))) return undefined;
      const context = key === undefined ? near(raw, s, e, PHONE_CTX, 40, 12) : phoneKey(key);
      // Digits parted by blanks alone, among other numbers or as a value of a key that is not a
      // phone's, and with no word of phones near: a table's cells, a dump's bytes, a record's ids
      // (a plus, brackets, dashes or dots say "phone" by themselves).
      if (!context && /^[\d ]+$/.test(text) && (key !== undefined || numberNeighbours(raw, s, e).among))
        return undefined;
      let conf = 0;
      const intl = text.startsWith('+');
      const parsed = intl ? parsePhoneNumberFromString(text) : parsePhoneNumberFromString(text, 'US');
      // Validity matches the number against its country's metadata: asked once.
      const valid = parsed?.isValid() ?? false;
      if (valid) conf = intl ? PHONE_MAX_CONFIDENCE : /[\s().-]/.test(text) ? 0.8 : 0.55;
      else if (parsed?.isPossible()) conf = 0.5;
      if (context) conf = Math.max(conf, d.length >= 7 ? 0.75 : 0);
      if (!context && !/[\s().\-+]/.test(text)) conf = Math.min(conf, 0.45);
      return { start: s, end: e, confidence: conf, validated: valid };
    },
  },
  {
    entityType: 'CRYPTO',
    ruleId: 'pii.crypto_btc',
    pattern: '\\b(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{11,71})\\b',
    gate: (t) => t.shape.digits > 0 && t.shape.maxAlnumRun >= 14,
    recognise: (m, raw) => {
      const v = m[0];
      const valid = v.toLowerCase().startsWith('bc1') ? bech32Valid(v) : base58CheckValid(v);
      const conf = valid ? 0.95 : near(raw, m.index, endOf(m), CRYPTO_CTX) ? 0.45 : 0;
      return { confidence: conf, validated: valid };
    },
  },
  {
    entityType: 'CRYPTO',
    ruleId: 'pii.crypto_eth',
    pattern: '\\b0x[0-9a-fA-F]{40}\\b',
    gate: (t) => t.raw.includes('0x'),
    recognise: (m, raw) => {
      const hex = m[0].slice(2);
      const mixed = /[a-f]/.test(hex) && /[A-F]/.test(hex);
      const context = near(raw, m.index, endOf(m), CRYPTO_CTX);
      const conf = mixed ? (eip55Valid(m[0]) ? 0.95 : 0) : context ? 0.8 : 0.5;
      return { confidence: conf, validated: mixed };
    },
  },
  {
    entityType: 'UK_NINO',
    ruleId: 'pii.uk_nino',
    pattern: '\\b[A-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]\\b',
    gate: (t) => t.shape.digits >= 6,
    recognise: (m, raw) =>
      ukNinoValid(m[0])
        ? { confidence: near(raw, m.index, endOf(m), NINO_CTX) ? 0.9 : 0.6, validated: true }
        : undefined,
  },
  {
    entityType: 'ES_NIF',
    ruleId: 'pii.es_nif',
    pattern: '\\b[XYZ]?\\d{7,8}-?[A-Za-z]\\b',
    gate: (t) => t.shape.maxDigitRun >= 7,
    recognise: (m, raw) => {
      const valid = esNifValid(m[0]);
      const context = near(raw, m.index, endOf(m), NIF_CTX);
      return { confidence: valid ? (context ? 0.95 : 0.75) : context ? 0.45 : 0, validated: valid };
    },
  },
  {
    entityType: 'IT_FISCAL_CODE',
    ruleId: 'pii.it_fiscal_code',
    pattern:
      '\\b[A-Za-z]{6}[0-9LMNPQRSTUV]{2}[A-Za-z][0-9LMNPQRSTUV]{2}[A-Za-z][0-9LMNPQRSTUV]{3}[A-Za-z]\\b',
    gate: (t) => t.shape.digits > 0 && t.shape.maxAlnumRun >= 16,
    recognise: (m, raw) => {
      const valid = itFiscalCodeValid(m[0]);
      const context = near(raw, m.index, endOf(m), CF_CTX);
      return { confidence: valid ? 0.95 : context ? 0.45 : 0, validated: valid };
    },
  },
  {
    entityType: 'FI_PERSONAL_IDENTITY_CODE',
    ruleId: 'pii.fi_personal_identity_code',
    pattern: '\\b\\d{6}[-+A]\\d{3}[0-9A-Y]\\b',
    gate: (t) => t.shape.maxDigitRun >= 6,
    recognise: (m) => (fiPersonalIdValid(m[0]) ? { confidence: 0.9, validated: true } : undefined),
  },
  {
    entityType: 'BR_CPF',
    ruleId: 'pii.br_cpf',
    pattern: '\\b\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}\\b',
    gate: (t) => t.shape.digits >= 11,
    recognise: (m) => (cpfValid(onlyDigits(m[0])) ? { confidence: 0.9, validated: true } : undefined),
  },
];
