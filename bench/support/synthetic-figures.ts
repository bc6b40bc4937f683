/**
 * Numbers that are not PII, and PII among numbers, for the PII section of eval:detectors. Tool
 * outputs are full of figures: tables, byte dumps, CSV exports, logs, matrices, lists of ids. A digit
 * run in them looks like a phone number, a card or an SSN by chance, and a report of one there is a
 * false alarm on every such output. The second set puts real-looking phones, cards and SSNs in the
 * rows such outputs hold (beside an age, an amount, a year), which must still be found. Seeded; every
 * row is drawn here.
 */
import { luhnValid } from '@warden/shared/detectors/checksums';
import { int, pick, rng, type Rand } from './rng';

/** A text of figures of one kind. */
export interface FigureText {
  kind: string;
  text: string;
}

/** A row holding one planted value of `type`. */
export interface PiiAmongFigures {
  kind: string;
  type: 'PHONE_NUMBER' | 'CREDIT_CARD' | 'US_SSN';
  text: string;
  value: string;
}

/** Products of a shop's catalogue, some named with words of phones' and cards' contexts. */
const PRODUCTS = [
  'Desk Lamp',
  'Office Chair',
  'Headphones',
  'Cycling Helmet',
  'Gift Card',
  'Tea Kettle',
  'Smart Watch',
];
const digits = (r: Rand, n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join('');
const byte = (r: Rand) => int(r, 0, 255).toString(16).padStart(2, '0');
const lines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join('\n');

const FIGURES: Record<string, (r: Rand) => string> = {
  'od byte dump': (r) =>
    lines(
      30,
      (i) =>
        `${(i * 16).toString(8).padStart(7, '0')} ${Array.from({ length: 16 }, () => byte(r)).join(' ')}`,
    ),
  'xxd dump': (r) =>
    lines(
      30,
      (i) =>
        `${(i * 16).toString(16).padStart(8, '0')}: ${Array.from({ length: 8 }, () => byte(r) + byte(r)).join(' ')}  ................`,
    ),
  'figures, one blank apart': (r) =>
    lines(30, () => Array.from({ length: 8 }, () => String(int(r, 0, 10 ** int(r, 1, 5) - 1))).join(' ')),
  'figures in aligned columns': (r) =>
    lines(30, () => Array.from({ length: 8 }, () => String(int(r, 0, 99999)).padStart(6)).join('')),
  'tab-separated ids': (r) =>
    lines(30, (i) => [i + 1, digits(r, 10), digits(r, 7), int(r, 1, 500)].join('\t')),
  'CSV readings': (r) =>
    'id,ts,temp,humidity\n' +
    lines(30, (i) => `${i + 1},${1715000000 + i * 60},${(20 + r() * 3).toFixed(1)},${int(r, 35, 45)}`),
  'log lines with ids': (r) =>
    lines(
      30,
      () =>
        `2026-11-${int(r, 10, 28)}T${int(r, 10, 23)}:${int(r, 10, 59)}:${int(r, 10, 59)}.${digits(r, 3)}Z INFO ` +
        `pid=${int(r, 1000, 99999)} req=${digits(r, 12)} latency_ms=${int(r, 1, 999)} bytes=${int(r, 100, 99999)} status=200`,
    ),
  'matrix print': (r) =>
    '[' +
    lines(
      20,
      () => '[' + Array.from({ length: 10 }, () => String(int(r, 0, 999)).padStart(4)).join(' ') + ']',
    ).replace(/\n/g, '\n ') +
    ']',
  'epoch milliseconds': (r) => Array.from({ length: 40 }, () => '17' + digits(r, 11)).join(' '),
  'JSON records with ids': (r) =>
    JSON.stringify(
      Array.from({ length: 8 }, () => ({
        order_id: `#W${digits(r, 7)}`,
        items: Array.from({ length: int(r, 1, 3) }, () => ({
          name: pick(r, PRODUCTS),
          product_id: digits(r, 10),
          item_id: digits(r, 10),
          price: Number((r() * 500).toFixed(2)),
        })),
        tracking_id: [digits(r, 12)],
        item_ids: Array.from({ length: int(r, 1, 4) }, () => digits(r, 10)),
        stock: Object.fromEntries(Array.from({ length: 3 }, () => [pick(r, PRODUCTS), digits(r, 10)])),
      })),
    ),
};

/** `perKind` texts of each kind of figures. */
export function figureTexts(seed = 5, perKind = 20): FigureText[] {
  const r = rng(seed);
  const out: FigureText[] = [];
  for (const [kind, make] of Object.entries(FIGURES))
    for (let i = 0; i < perKind; i++) out.push({ kind, text: make(r) });
  return out;
}

function card(r: Rand): string {
  for (;;) {
    const prefix = pick(r, ['4', '51', '55', '37', '6011']);
    const n = prefix === '37' ? 15 : 16;
    const d = prefix + digits(r, n - prefix.length);
    if (luhnValid(d)) return d;
  }
}

const PHONES: Array<(r: Rand) => string> = [
  (r) => `${int(r, 201, 989)} ${int(r, 201, 989)} ${int(r, 1000, 9999)}`,
  (r) => `${int(r, 201, 989)}-${int(r, 201, 989)}-${int(r, 1000, 9999)}`,
  (r) => `0${int(r, 1, 7)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`,
  (r) => `+44 20 ${int(r, 7000, 7999)} ${digits(r, 4)}`,
];
const NAMES = ['Alice Smith', 'Bob Jones', 'Chen Wei', 'Dana Ortiz', 'Emil Novak', 'Fatima Khan'];

const AMONG: Record<string, [PiiAmongFigures['type'], (r: Rand) => [text: string, value: string]]> = {
  'phone, then an age (tabs)': [
    'PHONE_NUMBER',
    (r) => {
      const v = pick(r, PHONES)(r);
      return [`${pick(r, NAMES)}\t${v}\t${int(r, 18, 90)}`, v];
    },
  ],
  'an age, then a phone (CSV)': [
    'PHONE_NUMBER',
    (r) => {
      const v = pick(r, PHONES)(r);
      return [`${pick(r, NAMES)},${int(r, 18, 90)},${v}`, v];
    },
  ],
  'phone in aligned columns': [
    'PHONE_NUMBER',
    (r) => {
      const v = pick(r, PHONES)(r);
      return [`${pick(r, NAMES).padEnd(14)}${v.padEnd(20)}${int(r, 1, 99)}`, v];
    },
  ],
  'card beside an amount (CSV)': [
    'CREDIT_CARD',
    (r) => {
      const v = card(r);
      return [`${int(r, 1, 999)},${pick(r, NAMES)},${v},${int(r, 1, 500)}.${digits(r, 2)}`, v];
    },
  ],
  'card in fours, then an expiry': [
    'CREDIT_CARD',
    (r) => {
      const d = card(r);
      // American Express prints 4-6-5; the others in fours.
      const v =
        d.length === 15
          ? `${d.slice(0, 4)} ${d.slice(4, 10)} ${d.slice(10)}`
          : d.replace(/(\d{4})(?=\d)/g, '$1 ');
      return [`${pick(r, NAMES)} ${v} ${int(r, 1, 12)}/${int(r, 27, 31)}`, v];
    },
  ],
  'phone in a JSON record': [
    'PHONE_NUMBER',
    (r) => {
      const v = pick(r, PHONES)(r).replace(/ /g, pick(r, ['', ' ']));
      return [
        JSON.stringify({ id: digits(r, 8), name: pick(r, NAMES), [pick(r, ['phone', 'mobile', 'tel'])]: v }),
        v,
      ];
    },
  ],
  'card in a JSON record': [
    'CREDIT_CARD',
    (r) => {
      const v = card(r);
      return [
        JSON.stringify({
          order_id: digits(r, 9),
          amount: int(r, 1, 500),
          [pick(r, ['card_number', 'payment_card', 'cc'])]: v,
        }),
        v,
      ];
    },
  ],
  'SSN, then a year (tabs)': [
    'US_SSN',
    (r) => {
      const v = `${int(r, 100, 665)}-${int(r, 10, 99)}-${int(r, 1000, 9999)}`;
      return [`${pick(r, NAMES)}\t${v}\t${int(r, 1950, 2005)}`, v];
    },
  ],
  // Last, so the kinds above keep their rows: another key's word ("order", "account") just before.
  'phone in a JSON record after an order key': [
    'PHONE_NUMBER',
    (r) => {
      const v = pick(r, PHONES)(r).replace(/ /g, pick(r, ['', ' ', '-']));
      const before = pick(r, ['order_id', 'account', 'invoice_no', 'tracking', 'card_last4', 'zip']);
      return [
        JSON.stringify({ [before]: digits(r, int(r, 4, 9)), [pick(r, ['phone', 'mobile', 'tel'])]: v }),
        v,
      ];
    },
  ],
};

/** `perKind` rows of each kind, each holding one phone, card or SSN among other numbers. */
export function piiAmongFigures(seed = 9, perKind = 100): PiiAmongFigures[] {
  const r = rng(seed);
  const out: PiiAmongFigures[] = [];
  for (const [kind, [type, make]] of Object.entries(AMONG))
    for (let i = 0; i < perKind; i++) {
      const [text, value] = make(r);
      out.push({ kind, type, text, value });
    }
  return out;
}
