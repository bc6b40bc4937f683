import RE2 from 're2';
import type { PiiMatch } from './pii';
import { textShape } from './text-shape';
import { eachMatch, utf8Of, type Utf8Text } from './utf8-text';

/**
 * PERSON and STREET_ADDRESS without a model: capitalised-name shapes near context words, titles,
 * and street-number + street-word patterns (English suffixes and common European street words).
 * These are heuristics with honest confidences, not validation.
 */

const NAME_TOKEN = "\\p{Lu}(?:\\p{Ll}|['’\\-]\\p{L})+";
const PARTICLE = '(?:van|de|der|den|von|da|di|del|della|la|le|du|dos|das|bin|al|ben|ter|ten|st\\.)';
/**
 * A plain JS RegExp, not RE2: it matches at almost every capitalised word and each RE2 exec costs
 * ~1 µs of call overhead (30× the JS cost). It is linear-time by construction: every alternative
 * starts with a distinct character class (upper-case letter, lower-case letter, apostrophe/hyphen,
 * space), so there is no ambiguous nesting to backtrack into, and the outer repeat is bounded {0,3}.
 */
const NAME = new RegExp(`${NAME_TOKEN}(?:[ \\t](?:\\p{Lu}\\.|${PARTICLE}|${NAME_TOKEN})){0,3}`, 'gu');
/**
 * NAME for text without a character outside ASCII, where \p{Lu}, \p{Ll} and \p{L} are [A-Z],
 * [a-z] and [A-Za-z]: the same matches, and V8 scans for a byte class instead of Unicode
 * properties (this scan is the largest part of the PII pass on English text).
 */
const NAME_ASCII_TOKEN = "[A-Z](?:[a-z]|['\\-][A-Za-z])+";
const NAME_ASCII = new RegExp(
  `${NAME_ASCII_TOKEN}(?:[ \\t](?:[A-Z]\\.|${PARTICLE}|${NAME_ASCII_TOKEN})){0,3}`,
  'g',
);

/** Capitalised words that start sentences or name things other than people. */
const STOP = new Set(
  (
    'the a an this that these those what why how when where who whom whose which i it its we you he she they my your our their his her ' +
    'please thanks thank hello hi hey dear yes no ok okay can could would should will shall may might must do does did is are was were be been ' +
    'if in on at for from to with by and but or so as after before since also then there here not all some any each every both either ' +
    'once while because although though unless until about above below over under into onto than just only even still now today tomorrow yesterday ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december ' +
    'mr mrs ms miss dr prof sir madam mister doctor professor lord lady king queen president minister captain ' +
    'street st avenue ave road rd lane drive boulevard court way place suite apt apartment unit box city state county country ' +
    'new old north south east west great big little saint san santa los las el la le de du des del di da ' +
    'god lord jesus christ christmas easter english french german spanish italian chinese japanese russian american british european african asian ' +
    'internet email phone website address name age date time company inc ltd llc corp group bank university school college hospital church ' +
    'ai api http https www com org net ceo cto cfo hr it id pdf faq usa uk eu un us ' +
    'personal info information employment education experience skills summary profile objective references contact details ' +
    'mobile desk fax office home work email e-mail billing shipping payment card account number phone tel ' +
    "sure great good nice well yeah oh wow hmm sorry excuse let lets let's make write tell give show find get help need want like love see look " +
    'one two three four five six seven eight nine ten first second third last next other another many much more most few several'
  ).split(' '),
);

// Context patterns run on short fixed slices (≤ 50 characters) only: plain JS RegExps are safe there.
const BEFORE_STRONG_WORDS = [
  'my name is',
  'name is',
  "name's",
  'names are',
  'name:',
  'i am',
  "i'm",
  'this is',
  'called',
  'named',
  'dear',
  'hi',
  'hello',
  'hey',
  'thanks',
  'regards',
  'sincerely',
  'cheers',
  'signed',
  'mr\\.?',
  'mrs\\.?',
  'ms\\.?',
  'miss',
  'dr\\.?',
  'prof\\.?',
  'sir',
  'madam',
  'mx\\.?',
  'attn:?',
  'contact',
  'patient',
  'customer',
  'client',
  'employee',
  'applicant',
  'tenant',
  'user',
  'candidate',
  'author',
  'directed by',
  'starring',
  'written by',
  'married',
  'son of',
  'daughter of',
  'wife',
  'husband',
  'brother',
  'sister',
  'mother',
  'father',
  'friend',
  'colleague',
  'boss',
  'manager',
  'nurse',
  'doctor',
];
const BEFORE_STRONG = new RegExp(`(?:${BEFORE_STRONG_WORDS.join('|')})[ \\t:,]*$`, 'iu');
/** Most UTF-16 units a BEFORE_STRONG word matches ("daughter of"): escapes and `?` do not count. */
const BEFORE_STRONG_MAX = Math.max(
  ...BEFORE_STRONG_WORDS.map((w) => w.replace(/\\(.)/g, '$1').replace(/\?/g, '').length),
);
/**
 * BEFORE_STRONG.test(before), on the only part of `before` a match can start in: the trailing run
 * of [ \t:,] plus BEFORE_STRONG_MAX characters. The pattern is end-anchored but V8 tries it from
 * every start position of the (up to 40-character) line; it has no look-behind or \b at its
 * start, so a match in the tail is a match in the whole and every match in the whole is in the tail.
 */
function beforeStrong(before: string): boolean {
  let i = before.length;
  for (
    let c = before.charCodeAt(i - 1);
    c === 32 || c === 9 || c === 58 || c === 44;
    c = before.charCodeAt(i - 1)
  )
    i--;
  return BEFORE_STRONG.test(i > BEFORE_STRONG_MAX ? before.slice(i - BEFORE_STRONG_MAX) : before);
}
// "…by ", "…with " at the end of the line before a name: the last ASCII word, then spaces or tabs.
// (A lookup, not an end-anchored alternation: V8 retries those at every start position.)
const WEAK_WORDS = new Set(
  'by with from to and told asked ask met meet saw visit call email for of'.split(' '),
);
/** What `\w` matches in a RegExp without the u flag: [A-Za-z0-9_]. */
export const isWordUnit = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
function beforeWeak(before: string): boolean {
  let i = before.length;
  while (i > 0 && (before[i - 1] === ' ' || before[i - 1] === '\t')) i--;
  if (i === before.length) return false;
  let j = i;
  while (j > 0 && isWordUnit(before.charCodeAt(j - 1))) j--;
  return WEAK_WORDS.has(before.slice(j, i).toLowerCase());
}
const AFTER_VERB = new RegExp(
  "^(?:'s\\b|’s\\b|[ \\t]+(?:is|was|has|had|said|says|told|asked|shouted|replied|lives|lived|works|worked|went|wrote|called|says|thinks|thought|wants|wanted|loves|loved|likes|liked|got|gets|became|died|married|joined|left|came|will|would|can|could|did|does|and [A-Z]|listed|played|plays|won|lost|made|created|founded|owns|owned|bought|sent|gave|took|walked|ran|looked|seemed|felt))",
  'u',
);

const EN_SUFFIX =
  'Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Highway|Hwy|Parkway|Pkwy|Square|Sq|Trail|Trl|Crescent|Cres|Close|Row|Alley|Plaza|Loop|Pike|Walk|Hill|Hills|Heights|Gardens|Grove|Mews|Green|Crossing|Ridge|Fort|Harbor|Harbour|Junction|Landing|Meadows?|Mill|Pass|Springs?|Station|Summit|Valley|Village|Ville|Vista|Wells?|Expressway|Freeway|Motorway|Estates?|Orchard|Park';
const EU_WORD =
  '(?:\\p{Lu}[\\p{L}\\-]*(?:katu|tie|kuja|polku|vej|gade|vägen|väg|gatan|gata|veien|vei|laan|straat|weg|steeg|plein|gracht|straße|strasse|str\\.|gasse|platz|allee|damm|utca|út|tér|ulica|ul\\.|ulice|cesta|iela|gatvė|tänav|sokak|sokağı|caddesi|odos|οδός)|Via|Viale|Piazza|Corso|Calle|Avenida|Rua|Rue|Boulevard|Chemin|Carrer|Plaza|Paseo|Travessa|Largo|Praça|Rruga|Ulitsa|ulitsa|Str)';
const UNIT =
  '(?:,?[ \\t]*(?:Apt\\.?|Apartment|Suite|Ste\\.?|Unit|#|Floor|Fl\\.?|Box)[ \\t]*[\\dA-Z][\\w\\-]*)?';

const ADDRESS_EN_SRC = `\\b\\d{1,6}[A-Za-z]?[ \\t]+(?:(?:[NSEW]\\.?|North|South|East|West)[ \\t]+)?(?:[\\p{Lu}\\d][\\p{L}'’.\\-]*[ \\t]+){0,3}(?:${EN_SUFFIX})\\b\\.?${UNIT}`;
const ADDRESS_EN = new RE2(ADDRESS_EN_SRC, 'gu');
const ADDRESS_EU_SRC = `(?:\\b\\d{3,6}[ \\t]+)?(?:${EU_WORD}[ \\t]+(?:[\\p{L}'’.\\-]+[ \\t]+){0,3}|\\p{Lu}[\\p{L}'’.\\-]*${EU_WORD}[ \\t]+|${EU_WORD}[ \\t]*)\\d{1,5}[A-Za-z]?\\b\\.?${UNIT}`;
const ADDRESS_EU = new RE2(ADDRESS_EU_SRC, 'gu');
// Faker-style "<zip or house no> <Words> <house no> [Apt. n]" seen in many locales.
const ADDRESS_NUMBERED_SRC = `\\b\\d{1,6}[ \\t]+\\p{Lu}[\\p{L}'’.\\-]+(?:[ \\t]+[\\p{L}'’.\\-]+){0,2}[ \\t]+\\d{1,5}[A-Za-z]?\\b\\.?${UNIT}`;
const ADDRESS_NUMBERED = new RE2(ADDRESS_NUMBERED_SRC, 'gu');
const ADDRESS_MILITARY_SRC =
  '\\b(?:PSC|Unit|USNS|USS|USNV|USCGC)[ \\t]+[\\p{L}\\d]+(?:[ \\t]+[\\p{L}]+)?,?[ \\t]+Box[ \\t]+\\d+';
const ADDRESS_MILITARY = new RE2(ADDRESS_MILITARY_SRC, 'gu');
const ADDRESS_CTX = new RegExp(
  'address|live[sd]?|living|located|resid|ship(?:ping)? to|deliver|billing|mail(?:ing)? to|office|drops? you|moved|street|visit',
  'iu',
);

/** STOP's words as a capitalised word starts a sentence ("The", "Please"): looked up as matched. */
const STOP_CAPITALISED = new Set([...STOP].map((w) => w.charAt(0).toUpperCase() + w.slice(1)));

function eachNameMatch(raw: string, fn: (m: RegExpExecArray) => void) {
  const re = textShape(raw).nonAscii ? NAME : NAME_ASCII;
  re.lastIndex = 0;
  for (let m = re.exec(raw); m; m = re.exec(raw)) fn(m);
}

/** Whether a token starts with an upper-case letter (ASCII by its code, others by \p{Lu}). */
function startsUpper(t: string): boolean {
  const c = t.charCodeAt(0);
  return c < 128 ? c >= 65 && c <= 90 : /^\p{Lu}/u.test(t);
}

function lineBefore(raw: string, start: number, max = 40): string {
  const from = Math.max(0, start - max);
  const s = raw.slice(from, start);
  const nl = s.lastIndexOf('\n');
  return nl >= 0 ? s.slice(nl + 1) : s;
}

function sentenceStart(raw: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && (raw[i] === ' ' || raw[i] === '\t' || raw[i] === '"' || raw[i] === '“' || raw[i] === '('))
    i--;
  return i < 0 || /[.!?\n:>-]/.test(raw[i]!);
}

/** One RE2.Set pass: which address patterns match at all (undefined: run them all). */
let addressSet: InstanceType<typeof RE2.Set> | null | undefined;
const ADDRESS_RES = [ADDRESS_EN, ADDRESS_EU, ADDRESS_NUMBERED, ADDRESS_MILITARY];
function matchingAddressPatterns(t: Utf8Text): Set<RE2> | undefined {
  if (addressSet === undefined) {
    try {
      addressSet = new RE2.Set(
        [ADDRESS_EN_SRC, ADDRESS_EU_SRC, ADDRESS_NUMBERED_SRC, ADDRESS_MILITARY_SRC],
        'u',
      );
    } catch {
      addressSet = null;
    }
  }
  if (!addressSet) return undefined;
  try {
    return new Set(addressSet.match(t.bytes).map((k) => ADDRESS_RES[k]!));
  } catch {
    return undefined;
  }
}

function addAddress(out: PiiMatch[], raw: string, m: RegExpExecArray, ruleId: string, base: number) {
  const text = m[0].replace(/[ \t,.]+$/, '');
  if (/^\d+$/.test(text)) return;
  const context = ADDRESS_CTX.test(raw.slice(Math.max(0, m.index - 50), m.index));
  const conf = Math.min(0.95, base + (context ? 0.15 : 0));
  out.push({
    entityType: 'STREET_ADDRESS',
    ruleId,
    start: m.index,
    end: m.index + text.length,
    confidence: conf,
    value: text,
    validated: false,
  });
}

function findAddresses(raw: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  if (!textShape(raw).digits) return out;
  const t = utf8Of(raw);
  const can = matchingAddressPatterns(t);
  if (!can || can.has(ADDRESS_EN))
    eachMatch(ADDRESS_EN, t, (m) => addAddress(out, raw, m, 'pii.street_address', 0.7));
  if (!can || can.has(ADDRESS_EU))
    eachMatch(ADDRESS_EU, t, (m) => addAddress(out, raw, m, 'pii.street_address_eu', 0.65));
  if (!can || can.has(ADDRESS_NUMBERED))
    eachMatch(ADDRESS_NUMBERED, t, (m) => {
      // Numbers that are the ends of times or decimals ("11:00 AM - 10:00 PM", "Gemini 1.5 Pro
      // surpasses Gemini 1.0") are not a house number and a postcode.
      const end = m.index + m[0].length;
      if (
        /\d[:.,]$/.test(raw.slice(Math.max(0, m.index - 2), m.index)) ||
        /^[:.,]\d/.test(raw.slice(end, end + 2))
      )
        return;
      // "in 2019 Apple released 3 phones" shapes: the middle must not be ordinary lower-case prose.
      const words = m[0].split(/[ \t]+/).slice(1, -1);
      if (words.some((w) => STOP.has(w.toLowerCase()))) return;
      addAddress(out, raw, m, 'pii.street_address_numbered', 0.5);
    });
  if (!can || can.has(ADDRESS_MILITARY))
    eachMatch(ADDRESS_MILITARY, t, (m) => addAddress(out, raw, m, 'pii.street_address_military', 0.7));
  return out;
}

/**
 * A word with a suffix that makes abstract nouns ("Distribution", "Biotechnology", "Metrics",
 * "Management"), which no given name or surname carries; "-ment" only after four letters or more,
 * so "Clement" stays a name.
 */
const ABSTRACT_NOUN =
  /^\p{Lu}\p{Ll}*(?:tions?|sions?|ness(?:es)?|ics|isms?|ogy|ogies|ships?|ities)$|^\p{Lu}\p{Ll}{4,}ments?$/u;
const isAbstractNoun = (token: string) => ABSTRACT_NOUN.test(token);

function findPersons(raw: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  eachNameMatch(raw, (m) => {
    // Most matches are one capitalised word that starts a sentence ("The", "Please"): a stop word.
    const whole = m[0];
    if (STOP_CAPITALISED.has(whole)) return;
    const single = whole.indexOf(' ') < 0 && whole.indexOf('\t') < 0;
    if (single && STOP.has(whole.toLowerCase())) return;
    // One word that is not a stop word stays as it is; longer matches are trimmed.
    let tokens = [whole];
    let start = m.index;
    let text = whole;
    if (!single) {
      tokens = whole.split(/[ \t]+/);
      // Drop leading capitalised stop words ("The", "Dear", "Mr") and trailing particles.
      while (tokens.length && STOP.has(tokens[0]!.replace(/\.$/, '').toLowerCase())) {
        start += tokens[0]!.length + 1;
        tokens = tokens.slice(1);
      }
      while (
        tokens.length &&
        (STOP.has(tokens[tokens.length - 1]!.toLowerCase()) || /^[a-z]/.test(tokens[tokens.length - 1]!))
      )
        tokens = tokens.slice(0, -1);
      if (!tokens.length) return;
      if (tokens.some((t) => STOP.has(t.toLowerCase()))) return;
      text = tokens.join(' ');
      if (raw.slice(start, start + text.length) !== text) return;
    }
    const end = start + text.length;
    // Capitalised terms and headings ("Human Resource Management", "Performance Metrics").
    if (tokens.some(isAbstractNoun)) return;
    // Context checks, strongest first: a later one runs only when the earlier ones did not decide.
    const before = lineBefore(raw, start);
    let caps = 0;
    for (const t of tokens) if (t.length > 2 && startsUpper(t)) caps++;
    const atStart = sentenceStart(raw, start);
    let conf = 0;
    if (beforeStrong(before)) conf = caps >= 2 ? 0.9 : 0.8;
    else if (AFTER_VERB.test(raw.slice(end, end + 24))) conf = caps >= 2 ? 0.75 : atStart ? 0.55 : 0.5;
    else if (beforeWeak(before)) conf = caps >= 2 ? 0.75 : atStart ? 0 : 0.4;
    else if (caps >= 2) conf = atStart ? 0.55 : 0.6;
    // Whole line is a name (signature blocks, forms).
    else if (atStart && /^[ \t]*(?:\n|$)/.test(raw.slice(end, end + 3)) && raw[start - 1] === '\n')
      conf = 0.45;
    // ALL-CAPS words and words glued to digits are not names.
    if (/\d/.test(raw[end] ?? '')) conf = 0;
    if (conf > 0)
      out.push({
        entityType: 'PERSON',
        ruleId: 'pii.person',
        start,
        end,
        confidence: conf,
        value: text,
        validated: false,
      });
  });
  return out;
}

export function findNamesAndAddresses(raw: string): PiiMatch[] {
  const addresses = findAddresses(raw);
  // Street words are capitalised too: a name inside an address span is not a person.
  const persons = findPersons(raw).filter((p) => !addresses.some((a) => p.start < a.end && a.start < p.end));
  return [...addresses, ...persons];
}
