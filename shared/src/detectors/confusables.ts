import { createRequire } from 'node:module';

/**
 * Homoglyph folding: letters of other scripts that imitate a Latin letter, and the letter they
 * imitate. Two sources:
 * - Unicode's confusables list (UTS #39), as the `unhomoglyph` package ships it: every letter of the
 *   scripts attackers borrow from (Greek, Cyrillic, Armenian, Cherokee, Lisu, Coptic, and the
 *   letter-like symbols) whose skeleton is one Latin letter. Latin letters with marks (ł, ø, đ)
 *   are left out: they are other languages' letters, not disguises. So are scripts whose look-alikes
 *   are a few strokes of real text (Arabic ا, Hebrew ו), which would fold words of those languages.
 * - the hand-written pairs below, which take precedence: the small capitals and Latin letters of the
 *   phonetic blocks, and where the list's skeleton is not the letter a reader sees (Greek capital
 *   iota is I to a reader, l in the list; τ and κ are t and k, not ᴛ and ĸ; ω, which the list
 *   leaves out, is w; the phonetic ʋ is v, not the list's u). Small-capital fonts draw F and Q as ꜰ
 *   and ꞯ or ǫ; ǫ is folded though it has a mark, as the Q of those fonts.
 * `FROM[i]` imitates `TO[i]`.
 */
const FROM =
  'авеёкмнорстухѕіїјһԁԛԝɡӏոսօАВЕКМНОРСТУХЅІЈαβεικνορτυχωΑΒΕΖΗΙΚΜΝΟΡΤΥΧıȷǀℓ∣ɑɩʏɾʋɛᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡᴢꜰꞯǫ';
const TO =
  'abeekmhopctyxsiijhdqwglnuoabekmhopctyxsijabeikvoptuxwabezhikmnoptyxijlllaiyrveabcdeghijklmnoprstuvwzfqq';

const SKELETONS = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;
const BORROWED =
  /^[\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Lisu}\p{Script=Coptic}\p{Script=Common}]$/u;

/** The Latin letter (lower-case) a character's confusable skeleton reduces to, if one. */
function latinSkeleton(ch: string): string | undefined {
  let t = SKELETONS[ch];
  // A skeleton may itself have one (η → n̩; the mark is dropped below).
  for (let hops = 0; t !== undefined && hops < 3 && SKELETONS[t] !== undefined; hops++) t = SKELETONS[t];
  if (t === undefined) return undefined;
  t = t.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return /^[a-z]$/.test(t) ? t : undefined;
}

export const confusableFold: ReadonlyMap<number, string> = (() => {
  const m = new Map<number, string>();
  for (const ch of Object.keys(SKELETONS)) {
    const cp = ch.codePointAt(0)!;
    if (ch.length > 2 || cp < 0x80 || String.fromCodePoint(cp) !== ch) continue;
    if (!/\p{L}/u.test(ch) || !BORROWED.test(ch)) continue;
    const latin = latinSkeleton(ch);
    if (latin) m.set(cp, latin);
  }
  const from = [...FROM];
  for (let i = 0; i < from.length; i++) m.set(from[i]!.codePointAt(0)!, TO[i]!);
  return m;
})();

/**
 * Enclosed Latin letters that NFKC leaves alone (negative circled and squared: 🅐, 🅰; regional
 * indicators: 🇦) or turns into
 * three characters (parenthesized: ⒜ is "(a)"), each with its letter. Circled and squared letters
 * NFKC folds itself.
 */
export function enclosedLetter(cp: number): string | undefined {
  for (const first of ENCLOSED_BLOCKS)
    if (cp >= first && cp < first + 26) return String.fromCharCode(97 + cp - first);
  return undefined;
}
// ⒜…⒵, 🄐…🄩 (parenthesized), 🅐…🅩 (negative circled), 🅰…🆉 (negative squared), 🇦…🇿 (regional
// indicators, which emoji fonts draw as boxed letters and two of which make a flag).
const ENCLOSED_BLOCKS = [0x249c, 0x1f110, 0x1f150, 0x1f170, 0x1f1e6];

/** Scripts whose letters, mixed into one Latin word, signal a homoglyph attack. */
export function isLookalikeScript(cp: number): boolean {
  return (
    (cp >= 0x0370 && cp <= 0x058f) ||
    (cp >= 0x13a0 && cp <= 0x13ff) ||
    (cp >= 0xab70 && cp <= 0xabbf) ||
    (cp >= 0xa4d0 && cp <= 0xa4ff) ||
    (cp >= 0x2c80 && cp <= 0x2cff) ||
    (cp >= 0x1d00 && cp <= 0x1d2b) ||
    cp === 0x0131 ||
    cp === 0x0237 ||
    cp === 0x2113
  );
}
