import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import {
  aadhaarValid,
  base58CheckValid,
  bech32Valid,
  cardIssuer,
  cpfValid,
  deTaxIdValid,
  eip55Valid,
  esNifValid,
  itFiscalCodeValid,
  luhnValid,
  peselValid,
  ssnValid,
  ukNinoValid,
} from './checksums';
import { detectText } from './index';
import { findPii } from './pii';
import { RECOGNISERS } from './pii-recognisers';

const types = (text: string) => findPii(text).map((m) => m.entityType);
const one = (text: string, type: string) => findPii(text).find((m) => m.entityType === type);

describe('checksums', () => {
  it('validates cards, SSNs and national ids, and rejects near misses', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(cardIssuer('378282246310005')).toBe('amex');
    expect(ssnValid('078051120')).toBe(false); // the Woolworth wallet example number
    expect(ssnValid('536224510')).toBe(true);
    for (const bad of ['000123456', '666123456', '900123456', '123004567', '123450000'])
      expect(ssnValid(bad)).toBe(false);
    expect(esNifValid('12345678Z')).toBe(true);
    expect(esNifValid('12345678A')).toBe(false);
    expect(esNifValid('X1234567L')).toBe(true);
    expect(itFiscalCodeValid('RSSMRA85T10A562S')).toBe(true);
    expect(itFiscalCodeValid('RSSMRA85T10A562T')).toBe(false);
    expect(deTaxIdValid('86095742719')).toBe(true);
    expect(deTaxIdValid('86095742718')).toBe(false);
    expect(aadhaarValid('234123412346')).toBe(true);
    expect(aadhaarValid('234123412347')).toBe(false);
    expect(peselValid('44051401359')).toBe(true);
    expect(peselValid('44051401358')).toBe(false);
    expect(cpfValid('52998224725')).toBe(true);
    expect(cpfValid('11111111111')).toBe(false);
    expect(ukNinoValid('AB123456C')).toBe(true);
    expect(ukNinoValid('GB123456C')).toBe(false);
  });

  it('validates crypto addresses (base58check, bech32, EIP-55)', () => {
    expect(base58CheckValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true);
    expect(base58CheckValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBe(false);
    expect(bech32Valid('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(true);
    expect(bech32Valid('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx')).toBe(false);
    expect(eip55Valid('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    expect(eip55Valid('0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('structured PII', () => {
  it('finds emails, international phones, cards, IBANs, SSNs and IPs with raw offsets', () => {
    const text =
      'Mail jane.doe@example.com or call +44 20 7946 0958. Card 4111 1111 1111 1111, ' +
      'IBAN DE89 3704 0044 0532 0130 00, SSN 536-22-4510, from 203.0.113.9 and 2001:db8::8a2e:370:7334.';
    const found = findPii(text);
    expect(found.map((m) => m.entityType).sort()).toEqual(
      [
        'CREDIT_CARD',
        'EMAIL_ADDRESS',
        'IBAN_CODE',
        'IP_ADDRESS',
        'IP_ADDRESS',
        'PHONE_NUMBER',
        'US_SSN',
      ].sort(),
    );
    const email = found.find((m) => m.entityType === 'EMAIL_ADDRESS')!;
    expect(text.slice(email.start, email.end)).toBe('jane.doe@example.com');
    expect(found.every((m) => m.validated)).toBe(true);
  });

  it('gives checksum failures with context a lower confidence, and drops them without context', () => {
    expect(one('my card 4111 1111 1111 1112', 'CREDIT_CARD')?.confidence).toBeLessThan(0.7);
    expect(one('order 4111 1111 1111 1112 shipped', 'CREDIT_CARD')).toBeUndefined();
    expect(one('my IBAN is GB94BARC10201530093458', 'IBAN_CODE')?.validated).toBe(false);
    expect(one('ref GB94BARC10201530093458', 'IBAN_CODE')?.confidence ?? 0).toBeLessThan(0.5);
  });

  it('rejects SSNs in never-issued ranges and non-PII look-alikes', () => {
    expect(types('SSN 666-12-3456 and 900-12-3456')).not.toContain('US_SSN');
    expect(types('version 1.2.3.4 released on 2024-01-15 12:30')).toEqual([]);
    expect(types('order id 2270-66-1551')).not.toContain('PHONE_NUMBER');
    expect(types('999.1.1.1 is not an address')).not.toContain('IP_ADDRESS');
    // A dotted quad is an address or a version, never a phone number, even beside "call".
    expect(types('Upgraded to version 10.20.30.40, call me if it breaks.')).toEqual([]);
  });

  it("reads a network as no one's address, and private and documentation addresses as less sure", () => {
    expect(types('subnets 10.0.0.0/16 and 172.17.0.0/16, ingress 0.0.0.0/0')).not.toContain('IP_ADDRESS');
    expect(one('connection refused host=10.0.4.12 port=5432', 'IP_ADDRESS')?.confidence).toBe(0.5);
    expect(one('failed login from 185.220.101.4 (attempt 1)', 'IP_ADDRESS')?.confidence).toBe(0.9);
  });

  it('finds national ids with checksums and context', () => {
    expect(types('Mi DNI es 12345678Z')).toContain('ES_NIF');
    expect(types('codice fiscale RSSMRA85T10A562S')).toContain('IT_FISCAL_CODE');
    expect(types('Steuer-ID: 86095742719')).toContain('DE_TAX_ID');
    expect(types('Aadhaar 2341 2341 2346')).toContain('IN_AADHAAR');
    expect(types('PESEL 44051401359')).toContain('PL_PESEL');
    expect(types('NI number AB 12 34 56 C')).toContain('UK_NINO');
  });

  it('finds crypto wallets only when they validate', () => {
    expect(types('send to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toContain('CRYPTO');
    expect(types('send to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toContain('CRYPTO');
    expect(types('hash 0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).not.toContain('CRYPTO');
  });
});

describe('patterns matched in V8', () => {
  // Every string of up to four of these parts: digits, each separator the patterns read, and the
  // blanks V8's \s knows and RE2's does not (no-break space, vertical tab).
  const PARTS = [
    '+1',
    '415',
    '1234567',
    ' ',
    '\u00a0',
    '\v',
    '\t',
    '\n',
    '-',
    '.',
    '(20)',
    '(',
    'x12',
    ' ext. 7',
    '#3',
    'a',
  ];
  const strings = (depth: number): string[] =>
    depth === 0 ? [''] : strings(depth - 1).flatMap((s) => (s.length > 60 ? [s] : PARTS.map((p) => s + p)));
  const texts = [...new Set(strings(4))];
  const matches = (
    re: { exec(s: string | Buffer): RegExpExecArray | null; lastIndex: number },
    text: string,
  ) => {
    const out: string[] = [];
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) out.push(`${m.index}:${m[0]}`);
    return out;
  };

  it('finds what RE2 finds with a recogniser marked linear', () => {
    const linear = RECOGNISERS.filter((r) => r.linear);
    expect(linear.map((r) => r.ruleId)).toContain('pii.phone');
    for (const r of linear) {
      const v8 = new RegExp(r.pattern, 'g');
      const re2 = new RE2(r.pattern, 'gu');
      for (const text of texts) expect(matches(v8, text), JSON.stringify(text)).toEqual(matches(re2, text));
    }
  });
});

describe('numbers among numbers', () => {
  const notPii = (text: string) =>
    expect(types(text).filter((t) => ['PHONE_NUMBER', 'CREDIT_CARD', 'US_SSN'].includes(t))).toEqual([]);

  it('reads tables of figures, dumps and logged ids as data, not phones, cards or SSNs', () => {
    notPii('43229 44702 28328 38238 47670 89198 87008 34579\n3517 2465 12139 21061 60197 75186 27301 97072');
    notPii(
      '0000020 69 85 80 37 98 a1 24 2c 80 da 00 8b 9e 4b 83 f2\n0000040 ae d2 5b 10 ab 94 9f 4e 0a 35 86 26 63 33 b6 0f',
    );
    notPii('id,ts,temp\n1,1715000060,21.3\n2,1715000120,21.4\n3,1715000180,21.5');
    notPii('2026-11-02T10:00:05Z INFO pid=20871 req=4155550132 txn=9459308728863 status=200');
    notPii('17 424 10 2077 3 552 35 6736 90');
    // Luhn passes, but no card is printed in groups of two, or glued to a letter.
    notPii('batch 49 96 97 69 19 14 32 25 48 done');
    notPii("My driver's license number is U62928788557186");
    // A record's ids: the key is a value's only context ("Office Chair" is a product, not an office).
    notPii(
      '{"name": "Desk Lamp", "product_id": "6817146515", "item_id": "9879255677", "price": 288.82, ' +
        '"tracking_id": ["694935202168"], "item_ids": ["5206946487", "3704016729"], "stock": ' +
        '{"Office Chair": "4794339885", "Headphones": "6992792935"}, "created": 1741622400}',
    );
    // Fours that run on: a dump's 16-bit words, a parcel's number.
    notPii('00000040: 706F 6E73 6162 696C 6964 6164 2079 2073');
    notPii('Numer przesyłki: 6208 4411 9302 7755 1834 00');
    // Pieces of longer runs of groups joined by dashes: a hex dump, a passphrase in numbers.
    notPii('54-72-61-64-75-7A-63-61-20-61-6C-20-72-75-73-6F-20-22-70-61-72-61-20-73-65-72-20-75-6E-20');
    notPii('As numbers (A=1, B=2…): 7-18-1-14-9-20-5 is the passphrase.');
    // No phone's digits start 000 (no country code starts with 0): a form's placeholder, a dump's offsets.
    notPii('Phone: 000-000-0000');
    notPii('00000010  20 22 70 61 72 61 20 73  65 72 20 75 6E 20 73 65\n00000020  72 20 68 75 6D 61 6E 6F');
  });

  it('still finds a phone, card or SSN in a row beside a number', () => {
    expect(types('Bob Jones,50,692 440 4746')).toContain('PHONE_NUMBER');
    expect(types('Mobile: 0044 7700 900123')).toContain('PHONE_NUMBER');
    expect(types('Hungary 34796\n082 490 1693-Office\\,+447700 208 815-Fax')).toEqual([
      'PHONE_NUMBER',
      'PHONE_NUMBER',
    ]);
    expect(types('Dana Ortiz\t01 84 17 61 18\t78')).toContain('PHONE_NUMBER');
    expect(types('call 415 555 0132 24 7')).toContain('PHONE_NUMBER');
    expect(types('17,Chen Wei,4111111111111111,42.50')).toContain('CREDIT_CARD');
    expect(types('{"id": "20871", "name": "Dana Ortiz", "phone": "4155550132"}')).toContain('PHONE_NUMBER');
    expect(types('{"officePhone": "415 555 0132", "age": 41}')).toContain('PHONE_NUMBER');
    // Another key's word ("order") names its own value, not the phone's.
    expect(types('{"order_id": "7", "phone": "4155550132"}')).toContain('PHONE_NUMBER');
    expect(types('{"order_id": "7", "phone": "415-555-0132"}')).toContain('PHONE_NUMBER');
    expect(types('{"order_id": "7", "tracking": "415-555-0132"}')).not.toContain('PHONE_NUMBER');
    expect(types('{"order_id": "731920442", "card_number": "4111111111111111"}')).toContain('CREDIT_CARD');
    expect(types('Les réservations se font par téléphone au 04 72 10 30 30.')).toContain('PHONE_NUMBER');
    // A card at the start or end of a longer run of digit groups.
    expect(one('Chen Wei 4111 1111 1111 1111 12/27', 'CREDIT_CARD')?.value).toBe('4111 1111 1111 1111');
    expect(one('charge ok amount=481.00 5500005555555559 ref=7', 'CREDIT_CARD')?.value).toBe(
      '5500005555555559',
    );
    expect(types('Jane Doe\t536-22-4510\t1985')).toContain('US_SSN');
  });
});

describe('names and addresses', () => {
  it('finds people from context and titles', () => {
    expect(one('My name is Rubija', 'PERSON')?.value).toBe('Rubija');
    expect(one('Hello, this is Dr. Kyle Kuefer. Who are you?', 'PERSON')?.value).toBe('Kyle Kuefer');
    expect(types('The Weather Is Nice Today')).not.toContain('PERSON');
    // Capitalised terms and headings carry the suffixes of abstract nouns; names do not.
    for (const term of [
      'Human Resource Management',
      'Content Extraction',
      'Performance Metrics',
      'Biotechnology',
    ])
      expect(types(`Our team reviewed ${term} yesterday.`)).not.toContain('PERSON');
    expect(one('Dear Grace Clement, thanks for the notes.', 'PERSON')?.value).toBe('Grace Clement');
  });

  it('finds street addresses (English and European shapes)', () => {
    expect(one('Ship it to 1600 Pennsylvania Avenue, Washington', 'STREET_ADDRESS')?.value).toContain(
      '1600 Pennsylvania Avenue',
    );
    expect(one('I now live at Hauptstraße 5 in Berlin', 'STREET_ADDRESS')?.value).toBe('Hauptstraße 5');
    expect(types('We sold 300 units in March')).not.toContain('STREET_ADDRESS');
    // The ends of times and decimals are not a house number and a postcode.
    expect(types('operating_hours: 11:00 AM - 10:00 PM, open daily')).not.toContain('STREET_ADDRESS');
    expect(types('Gemini 1.5 Pro surpasses Gemini 1.0 Pro on most benchmarks')).not.toContain(
      'STREET_ADDRESS',
    );
  });
});

describe('PII findings never carry the clear value', () => {
  it('masks values in findings', () => {
    const text = 'card 4111 1111 1111 1111, mail jane.doe@example.com';
    const out = JSON.stringify(detectText(text));
    expect(out).not.toContain('4111 1111 1111 1111');
    expect(out).not.toContain('jane.doe@example.com');
    expect(out).toContain('****1111');
  });
});
