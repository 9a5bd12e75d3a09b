import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, redactText } from '../../src/guards/redact-secrets.js';
import { _chooseSpans, type Span } from '../../src/guards/redact-secrets/engine.js';
import { A62, DIGITS, generator } from './corpus/secrets-examples.js';

// Review finding 1: when two rules' matches overlap, no byte of either may be left in clear. The
// engine used to keep one match and drop the other whole, printing the dropped match's other part.
const params = { seed: 20261127, numRuns: 400, interruptAfterTimeLimit: 8_000 };

const spanArb = fc.record({
  start: fc.nat({ max: 60 }),
  length: fc.integer({ min: 1, max: 25 }),
  order: fc.nat({ max: 5 }),
  generic: fc.boolean(),
});

describe('_chooseSpans: overlapping matches', () => {
  it('property: every byte of every match is covered, nothing else is, and the spans do not overlap', () => {
    fc.assert(
      fc.property(fc.array(spanArb, { maxLength: 12 }), (raw) => {
        const spans: Span[] = raw.map(({ start, length, order, generic }) => ({ rule: `r${order}${generic ? 'g' : ''}`, start, end: start + length, order, generic }));
        const want = new Set<number>();
        for (const s of spans) for (let i = s.start; i < s.end; i++) want.add(i);
        const chosen = _chooseSpans(spans.map((s) => ({ ...s })));
        const got = new Set<number>();
        for (const [i, s] of chosen.entries()) {
          if (i > 0) expect(s.start).toBeGreaterThanOrEqual(chosen[i - 1]!.end);
          for (let j = s.start; j < s.end; j++) got.add(j);
          // A format rule that took part names the union; a label rule only when none did.
          const inside = spans.filter((x) => x.start < s.end && s.start < x.end);
          if (inside.some((x) => !x.generic)) expect(s.generic).toBe(false);
          expect(inside.map((x) => x.rule)).toContain(s.rule);
        }
        expect([...got].sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
      }),
      params,
    );
  });

  it('a format rule inside a label value names the whole value', () => {
    const chosen = _chooseSpans([
      { rule: 'secret-assignment', start: 12, end: 60, order: 9, generic: true },
      { rule: 'clickhouse-cloud-key', start: 20, end: 60, order: 3, generic: false },
    ]);
    expect(chosen).toEqual([{ rule: 'clickhouse-cloud-key', start: 12, end: 60, order: 3, generic: false }]);
  });
});

describe('labelled values that hold a format token', () => {
  const g = generator(1127);
  const tokens = [
    ['4b1d', g.pick(A62, 36), 'Qz'].join(''),
    ['p8e', g.pick(A62, 30) + g.pick(DIGITS, 2)].join('-'),
    'ghp_' + g.pick(A62, 36),
  ];
  const head = fc.string({ unit: fc.constantFrom(...A62), minLength: 8, maxLength: 30 });
  // The label rule judges the value as a whole (a placeholder such as `AAAAAAAA` is not a secret):
  // the property is that a format token at its end never brings back a head the label would redact.
  it('property: neither the head nor the token survives, in an env line or in JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom('DB_PASSWORD=', 'api_secret: ', 'export AUTH_TOKEN='), head, fc.constantFrom('.', '-', '_', ''), fc.constantFrom(...tokens), (label, h, sep, token) => {
        fc.pre(!redactText(`${label}${h}${sep}Xy7Qw3Zr\n`).text.includes(h));
        for (const text of [`${label}${h}${sep}${token}\n`, JSON.stringify({ password: `${h}${sep}${token}` })]) {
          const out = redactText(text).text;
          expect(out).not.toContain(token);
          expect(out).not.toContain(h);
        }
      }),
      { ...params, numRuns: 150 },
    );
  });

  it('a token in a URL user name still keeps the host and path in clear', () => {
    const token = tokens[2]!;
    expect(redactText(`git clone https://x-access-token:${token}@github.com/o/r.git`).text).toBe('git clone https://x-access-token:[REDACTED:github-token]@github.com/o/r.git');
  });
});

// Review finding 6: a value whose forms are too long for one V8 regex literal is looked for with indexOf.
describe('over-long secret values', () => {
  const g = generator(606);
  const token = g.pick(A62, 32);
  const value = `${token}${'€'.repeat(5000)}`;
  it('are redacted where the rule found them and everywhere else, as is and percent-encoded', () => {
    const text = `//npm.pkg.example.com/:_authToken=${value}\nagain: ${value} end\nurl ?t=${encodeURIComponent(value)}&x=1\n`;
    const { text: out, findings } = createRedactor().text(text);
    expect(out).not.toContain(token);
    expect(out).not.toContain(encodeURIComponent(value).slice(0, 200));
    expect(out).toContain(' end\n');
    expect(out).toContain('&x=1\n');
    expect(findings.length).toBe(3);
  });
  it('in a structured output, every field holding the value is redacted', () => {
    const { value: out } = createRedactor().value({ npmrc: `//r.example.com/:_authToken=${value}`, echoed: `x ${value} y` });
    expect(JSON.stringify(out)).not.toContain(token);
    expect((out as { echoed: string }).echoed).toMatch(/^x \[REDACTED:[^\]]+\] y$/);
  });
});
