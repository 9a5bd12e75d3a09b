import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/guards/redact-secrets.js';
import { A62, generator, HEX, LOWER, DIGITS } from './corpus/secrets-examples.js';

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
];

describe('redact-secrets partner formats (issue 27)', () => {
  for (const { rule, token, lookalikes } of cases) {
    it(`${rule}: the token is redacted in an env line and in JSON, look-alikes are not`, () => {
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
