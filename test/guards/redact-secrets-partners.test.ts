import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/guards/redact-secrets.js';
import { A62, B64, generator, HEX, LOWER, DIGITS, URLSAFE } from './corpus/secrets-examples.js';

// The partner formats added with issue 27: a fake token of each shape (generated, seeded; never a
// real key) is redacted, and a look-alike that breaks the shape in one way comes back unchanged.
const g = generator(2727);
const p = g.pick;
const uuid = () => [p(HEX, 8), p(HEX, 4), p(HEX, 4), p(HEX, 4), p(HEX, 12)].join('-');

const cases: { rule: string; token: string; lookalikes: string[] }[] = [
  {
    rule: 'adobe-client-secret',
    token: ['p8e', p(A62, 30) + p(DIGITS, 2)].join('-'),
    lookalikes: [['p8e', p(A62, 20)].join('-'), 'xp8e-' + p(A62, 30) + '12', ['p8e', p(A62, 40)].join('-')],
  },
  {
    rule: 'adyen-api-key',
    token: ['AQE', p(LOWER + DIGITS, 7), '.', p(A62, 60)].join(''),
    lookalikes: [['AQE', p(LOWER + DIGITS, 7), '.', p(A62, 20)].join(''), ['AQE', p(LOWER + DIGITS, 7), p(A62, 60)].join('')],
  },
  {
    rule: 'clickhouse-cloud-key',
    token: ['4b1d', p(A62, 36), 'Qz'].join(''),
    lookalikes: [['4b1d', p(HEX, 38)].join(''), ['4b1d', p(A62, 30)].join(''), ['a4b1d', p(A62, 38)].join('')],
  },
  {
    rule: 'hubspot-token',
    token: ['pat', 'na1', uuid()].join('-'),
    lookalikes: [['pat', 'us1', uuid()].join('-'), ['pat', 'na1', p(HEX, 32)].join('-'), 'path-na1-' + uuid()],
  },
  {
    rule: 'pinecone-key',
    token: ['pcsk', p(A62, 6), p(A62, 63)].join('_'),
    lookalikes: [['pcsk', p(A62, 6), p(A62, 20)].join('_'), ['pcsk', p(A62, 69)].join('_')],
  },
  // Azure identifiable keys: a signature at a fixed offset of a base64 key (the keyword the
  // prefilter finds); the look-alikes move the signature by one, break the checksum-position
  // character or the padding, or sit inside longer base64 data.
  {
    rule: 'azure-identifiable-key',
    token: [p(A62, 52), 'JQQJ99', p(A62, 1), 'B', p(A62, 16), 'Q', p(A62, 7)].join(''),
    lookalikes: [[p(A62, 51), 'JQQJ99', p(A62, 1), 'B', p(A62, 16), 'Q', p(A62, 7)].join(''), [p(A62, 52), 'JQQJ99', p(A62, 1), 'M', p(A62, 16), 'Q', p(A62, 7)].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(B64, 76), '+ASt', p(B64, 5), 'g=='].join(''),
    lookalikes: [[p(B64, 75), '+ASt', p(B64, 5), 'g=='].join(''), [p(B64, 76), '+ASt', p(B64, 5), 'B=='].join(''), ['x/', p(B64, 76), '+ASt', p(B64, 5), 'g=='].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(B64, 76), 'APIM', p(B64, 5), 'A=='].join(''),
    lookalikes: [[p(B64, 76), 'APIM', p(B64, 5), 'A='].join(''), 'the APIM gateway key rotated'],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(B64, 33), 'AzCa', 'K', p(B64, 5), '='].join(''),
    lookalikes: [[p(B64, 33), 'AzCa', 'Z', p(B64, 5), '='].join(''), [p(B64, 33), 'AzCa', 'K', p(B64, 5)].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(B64, 33), '+ASb', 'C', p(B64, 5), '='].join(''),
    lookalikes: [[p(B64, 32), '+ASb', 'C', p(B64, 5), '='].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(URLSAFE, 44), 'AzFu', p(URLSAFE, 5), 'w=='].join(''),
    lookalikes: [[p(URLSAFE, 43), 'AzFu', p(URLSAFE, 5), 'w=='].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(A62, 42), 'AzSe', 'D', p(A62, 5)].join(''),
    lookalikes: [[p(A62, 42), 'AzSe', 'E', p(A62, 5)].join(''), [p(A62, 42), 'AzSe', 'D', p(A62, 6)].join('')],
  },
  {
    rule: 'azure-identifiable-key',
    token: [p(B64, 42), '+ACR', 'A', p(B64, 5)].join(''),
    lookalikes: [[p(B64, 42), '+ACR', 'F', p(B64, 5)].join('')],
  },
];

describe('redact-secrets partner formats (issue 27)', () => {
  for (const [n, { rule, token, lookalikes }] of cases.entries()) {
    it(`${rule} (${n}): the token is redacted in an env line and in JSON, look-alikes are not`, () => {
      const line = `EXPORTED_VALUE=${token}\n`;
      const result = redactText(line);
      expect(result.text).toBe(`EXPORTED_VALUE=[REDACTED:${rule}]\n`);
      expect(redactText(JSON.stringify({ data: token })).text).not.toContain(token);
      for (const lookalike of lookalikes) {
        const text = `build id ${lookalike} ok`;
        expect(redactText(text).text, lookalike).toBe(text);
      }
    });
  }
});

// Review (hostile, main..lead differential): the old engine redacted a labelled value whole; the new
// partner rules now match a token inside the value, the label's generic span overlaps that specific
// span and is dropped whole (_chooseSpans), so the value's head before the token survives. Found by
// fuzzing main's engine against lead's. Expected to FAIL until overlapping generic spans keep their
// uncovered part.
describe('review: a labelled value that ends in a partner token is redacted whole', () => {
  const rg = generator(4242);
  const head = ['Zq9', rg.pick(A62, 12), '7x'].join('');
  const tails: [string, string][] = [
    ['clickhouse-cloud-key', ['4b1d', rg.pick(A62, 36), 'Qz'].join('')],
    ['adobe-client-secret', ['p8e', rg.pick(A62, 30) + rg.pick(DIGITS, 2)].join('-')],
  ];
  it.each(tails)('password=<head>.<%s token>: the head does not survive', (_rule, tail) => {
    for (const text of [`DB_PASSWORD=${head}.${tail}\n`, `{"password": "${head}.${tail}"}`]) {
      const out = redactText(text).text;
      expect(out).not.toContain(tail);
      expect(out).not.toContain(head);
    }
  });
});
