import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/** Luhn (payment cards, IMEI). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

/** Issuer ranges (IIN) with their lengths; a card number that matches one is a strong format signal. */
export function cardIssuer(d: string): string | undefined {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  const p6 = Number(d.slice(0, 6));
  if (d[0] === '4' && (n === 13 || n === 16 || n === 19)) return 'visa';
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n === 16) return 'mastercard';
  if ((p2 === 34 || p2 === 37) && n === 15) return 'amex';
  if (
    (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) &&
    n >= 16 &&
    n <= 19
  )
    return 'discover';
  if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) return 'jcb';
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39 || p3 === 309)
    return n >= 14 && n <= 19 ? 'diners' : undefined;
  if (p2 === 62 && n >= 16 && n <= 19) return 'unionpay';
  if ((p2 === 50 || (p2 >= 56 && p2 <= 69)) && n >= 12 && n <= 19) return 'maestro';
  return undefined;
}

/** US SSN area/group/serial rules (SSA): never 000, 666 or 9xx area, 00 group, 0000 serial. */
export function ssnValid(d: string): boolean {
  if (!/^\d{9}$/.test(d)) return false;
  const area = d.slice(0, 3);
  if (area === '000' || area === '666' || area[0] === '9') return false;
  if (d.slice(3, 5) === '00' || d.slice(5) === '0000') return false;
  // Publicly used example numbers.
  return d !== '078051120' && d !== '219099999' && d !== '123456789';
}

/** Spain DNI/NIF (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter): mod 23 letter. */
export function esNifValid(s: string): boolean {
  const v = s.toUpperCase().replace(/[\s-]/g, '');
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(v);
  if (!m) return false;
  const prefix = m[1] ? String('XYZ'.indexOf(m[1])) : '';
  const num = Number(prefix + m[2]);
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[num % 23] === m[3];
}

const IT_ODD: Record<string, number> = {};
'1 0 5 7 9 13 15 17 19 21 2 4 18 20 11 3 6 8 12 14 16 10 22 25 24 23'.split(' ').forEach((v, i) => {
  IT_ODD[String.fromCharCode(65 + i)] = Number(v);
  if (i < 10) IT_ODD[String(i)] = Number(v);
});

/** Italy codice fiscale: 16 characters, last one a check letter over odd/even position tables. */
export function itFiscalCodeValid(s: string): boolean {
  const v = s.toUpperCase();
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(v))
    return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = v[i]!;
    if (i % 2 === 0) sum += IT_ODD[ch] ?? 0;
    else sum += ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === v[15];
}

/** Germany Steuer-IdNr: 11 digits, no leading 0, ISO 7064 MOD 11,10 check digit. */
export function deTaxIdValid(d: string): boolean {
  if (!/^[1-9]\d{10}$/.test(d)) return false;
  let product = 10;
  for (let i = 0; i < 10; i++) {
    let sum = (Number(d[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(d[10]);
}

/**
 * Verhoeff's tables, computed rather than typed out: D is multiplication in the dihedral group D5
 * (rotations 0-4, reflections 5-9), and row i of P is the permutation (1 5 7 6 2 8 3 0 9 4) applied
 * i times.
 */
const mod5 = (n: number) => ((n % 5) + 5) % 5;
const VERHOEFF_D = Array.from({ length: 10 }, (_, j) =>
  Array.from({ length: 10 }, (_, k) => {
    const sum = j < 5 ? j + k : j - k; // a reflection reverses the rotation that follows it
    return j < 5 === k < 5 ? mod5(sum) : 5 + mod5(sum);
  }),
);
const VERHOEFF_P = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]];
for (let i = 1; i < 8; i++)
  VERHOEFF_P.push(VERHOEFF_P[i - 1]!.map((v) => [1, 5, 7, 6, 2, 8, 3, 0, 9, 4][v]!));

/** India Aadhaar: 12 digits, first not 0/1, Verhoeff check digit. */
export function aadhaarValid(d: string): boolean {
  if (!/^[2-9]\d{11}$/.test(d)) return false;
  let c = 0;
  for (let i = 0; i < d.length; i++) {
    const digit = Number(d[d.length - 1 - i]);
    c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![digit]!]!;
  }
  return c === 0;
}

/** Poland PESEL: 11 digits, weights 1-3-7-9. */
export function peselValid(d: string): boolean {
  if (!/^\d{11}$/.test(d)) return false;
  const w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(d[i]) * w[i]!;
  return (10 - (sum % 10)) % 10 === Number(d[10]);
}

/** Brazil CPF: 11 digits, two mod-11 check digits, not all the same digit. */
export function cpfValid(d: string): boolean {
  if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(d[len])) return false;
  }
  return true;
}

/** Netherlands BSN: 9 digits, "11-proof" with the last weight -1. */
export function bsnValid(d: string): boolean {
  if (!/^\d{9}$/.test(d) || d === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(d[i]) * (9 - i);
  sum -= Number(d[8]);
  return sum % 11 === 0;
}

/** Finland henkilötunnus: DDMMYY + century sign + 3 digits + mod-31 check character. */
export function fiPersonalIdValid(s: string): boolean {
  const m = /^(\d{6})[-+ABCDEFUVWXY](\d{3})([0-9A-Y])$/.exec(s.toUpperCase());
  if (!m) return false;
  return '0123456789ABCDEFHJKLMNPRSTUVWXY'[Number(m[1]! + m[2]!) % 31] === m[3];
}

/** UK National Insurance number: format and the prefixes HMRC never issues. */
export function ukNinoValid(s: string): boolean {
  const v = s.toUpperCase().replace(/\s/g, '');
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(v)) return false;
  return !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(v.slice(0, 2));
}

const base58check = createBase58check(sha256);

/**
 * Bitcoin legacy/P2SH address: base58check (double-SHA256 checksum) over 21 bytes, a version byte
 * and a 20-byte hash. The decoder throws on a bad checksum or character.
 */
export function base58CheckValid(s: string): boolean {
  try {
    return base58check.decode(s).length === 21;
  } catch {
    return false;
  }
}

/**
 * Bitcoin SegWit address: a bech32 (v0) or bech32m (v1+) checksum. Either checksum is taken for any
 * witness version, and the address is matched lower-cased (a mixed-case one still counts).
 */
export function bech32Valid(s: string): boolean {
  const v = s.toLowerCase();
  return bech32.decodeUnsafe(v) !== undefined || bech32m.decodeUnsafe(v) !== undefined;
}

/** EIP-55 Ethereum address: in a mixed-case one each letter is upper-case iff its keccak nibble is ≥ 8. */
export function eip55Valid(address: string): boolean {
  const hex = address.replace(/^0x/, '');
  const hash = keccak_256(utf8ToBytes(hex.toLowerCase()));
  for (let i = 0; i < 40; i++) {
    const ch = hex[i]!;
    if (!/[a-fA-F]/.test(ch)) continue;
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    if (nibble >= 8 !== (ch >= 'A' && ch <= 'F')) return false;
  }
  return true;
}
