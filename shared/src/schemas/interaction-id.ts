/**
 * Interaction ids Warden assigns are recognisable, so a client cannot send one back as its own
 * `interactionId` and have a second record replace the first (which would hide its findings).
 *
 * A Warden id is a UUIDv7 whose last 32 bits (the random tail of `rand_b`) are a check over its
 * first 96 bits (time, version and the generator's 42-bit counter). Client ids are only ever
 * claimed when they do NOT carry the check, so no client id can equal an id Warden assigned, before
 * or after. The check needs no secret: forging it only gets the forger's own id refused. A client's
 * own UUIDv7 carries it by chance with probability 2^-32. Two ingest processes could assign the same
 * id only when they draw the same random 42-bit counter start within the same millisecond.
 *
 * The check is murmur3's 32-bit mix over three words, written here for speed: marking costs ~13 ns
 * an id (generating one ~400 ns), where an HMAC through node:crypto costs ~3 µs, on every record
 * ingest stores. Recognising a client's id costs ~0.75 µs, paid only by records that carry one.
 */

const CANONICAL_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function mix(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function check(w0: number, w1: number, w2: number): number {
  // The seed, "Ward", names the id space.
  let h = mix(mix(mix(0x57617264, w0), w1), w2) ^ 12;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const word = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

/** Writes Warden's check into the last 4 bytes of a UUIDv7's 16. */
export function markWardenId(bytes: Uint8Array): void {
  const tag = check(word(bytes, 0), word(bytes, 4), word(bytes, 8));
  bytes[12] = tag >>> 24;
  bytes[13] = tag >>> 16;
  bytes[14] = tag >>> 8;
  bytes[15] = tag;
}

/** True for an id Warden assigned (in any letter case): a client may not claim it as its own. */
export function isWardenInteractionId(id: string): boolean {
  if (id.length !== 36 || !CANONICAL_V7.test(id)) return false;
  const hex = (from: number, to: number) => parseInt(id.slice(from, to), 16);
  const w1 = (hex(9, 13) * 0x10000 + hex(14, 18)) >>> 0;
  const w2 = (hex(19, 23) * 0x10000 + hex(24, 28)) >>> 0;
  return check(hex(0, 8), w1, w2) === hex(28, 36);
}
