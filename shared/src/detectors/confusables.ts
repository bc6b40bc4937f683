/**
 * Homoglyph folding for the letters attackers swap in most often (Cyrillic, Greek, Armenian and
 * small-capital look-alikes that NFKC leaves alone). Hand-written subset of the idea behind Unicode's
 * confusables list, kept small on purpose. `FROM[i]` imitates `TO[i]`.
 */
const FROM =
  'авеёкмнорстухѕіїјһԁԛԝɡӏոսօАВЕКМНОРСТУХЅІЈαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧıȷǀℓ∣ɑɩʏᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡᴢ';
const TO = 'abeekmhopctyxsiijhdqwglnuoabekmhopctyxsijabeikvoptuxabezhikmnoptyxijlllaiyabcdeghijklmnoprstuvwz';

export const confusableFold: ReadonlyMap<number, string> = (() => {
  const m = new Map<number, string>();
  const from = [...FROM];
  for (let i = 0; i < from.length; i++) m.set(from[i]!.codePointAt(0)!, TO[i]!);
  return m;
})();

/** Scripts whose letters, mixed into one Latin word, signal a homoglyph attack. */
export function isLookalikeScript(cp: number): boolean {
  return (
    (cp >= 0x0370 && cp <= 0x058f) ||
    (cp >= 0x1d00 && cp <= 0x1d2b) ||
    cp === 0x0131 ||
    cp === 0x0237 ||
    cp === 0x2113
  );
}
