// Property tests (seeded, bounded in runs and time): the ANSI stripper and the cap read untrusted tool output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A62, generator } from './corpus/secrets-examples.js';
import { createBudget, cutText, MIN_SHARE, shareOf, sizeOf, stripAnsi } from '../../src/guards/output-budget.js';

const params = { seed: 20261122, numRuns: 300, interruptAfterTimeLimit: 8_000 };
const INTRODUCERS = /[\x1b\x90\x98\x9b-\x9f]/;

/** Text without escape introducers: what the stripper must leave alone. */
const plain = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => s.replace(/[\x1b\x90\x98\x9b-\x9f]/g, ''));
const param = fc.stringMatching(/^[0-9;:<=>?]{0,8}$/);
const oscBody = fc.string({ maxLength: 20 }).map((s) => s.replace(/[\x07\x1b\x9c\x90\x98\x9b-\x9f]/g, ''));
/** One well-formed escape sequence, in any of the forms the stripper knows. */
const sequence = fc.oneof(
  fc.tuple(param, fc.stringMatching(/^[ -/]{0,2}$/), fc.integer({ min: 0x40, max: 0x7e })).map(([p, i, f]) => `\x1b[${p}${i}${String.fromCharCode(f)}`),
  fc.tuple(param, fc.integer({ min: 0x40, max: 0x7e })).map(([p, f]) => `\x9b${p}${String.fromCharCode(f)}`),
  fc.tuple(fc.constantFrom('\x1b]', '\x1bP', '\x1bX', '\x1b^', '\x1b_', '\x9d', '\x90', '\x98', '\x9e', '\x9f'), oscBody, fc.constantFrom('\x07', '\x1b\\', '\x9c')).map(([a, b, c]) => a + b + c),
  fc.tuple(fc.stringMatching(/^[ -/]{0,2}$/), fc.integer({ min: 0x30, max: 0x7e })).filter(([i, f]) => !(i === '' && [0x5b, 0x5d, 0x50, 0x58, 0x5e, 0x5f].includes(f))).map(([i, f]) => `\x1b${i}${String.fromCharCode(f)}`),
);
/** Anything at all, escapes cut short included. */
const noisy = fc.array(fc.oneof(plain, sequence, fc.constantFrom('\x1b', '\x1b[', '\x1b]0;unterminated', '\x9b', '\x9c', '\x1b[12', '\x1b[1;\x1b[m')), { maxLength: 12 }).map((parts) => parts.join(''));

describe('stripAnsi (properties)', () => {
  it('text without introducers comes back unchanged, the same string', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(stripAnsi(text)).toEqual({ text, removed: 0 });
      }),
      params,
    );
  });

  it('well-formed sequences between plain texts: exactly the plain text remains, and each is counted', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plain, sequence), { maxLength: 10 }), plain, (pairs, last) => {
        const input = pairs.map(([t, s]) => t + s).join('') + last;
        expect(stripAnsi(input)).toEqual({ text: pairs.map(([t]) => t).join('') + last, removed: pairs.length });
      }),
      params,
    );
  });

  it('whatever the input, the output holds no ESC and no C1 introducer, and stripping again changes nothing', () => {
    fc.assert(
      fc.property(noisy, (text) => {
        const once = stripAnsi(text).text;
        expect(INTRODUCERS.test(once)).toBe(false);
        expect(stripAnsi(once)).toEqual({ text: once, removed: 0 });
      }),
      params,
    );
  });

  it('never adds a character: the output is a subsequence of the input', () => {
    fc.assert(
      fc.property(noisy, (text) => {
        const out = stripAnsi(text).text;
        let j = 0;
        for (let i = 0; i < text.length && j < out.length; i++) if (text[i] === out[j]) j++;
        expect(j).toBe(out.length);
      }),
      params,
    );
  });
});

const anyText = fc.string({ unit: 'binary', maxLength: 300 });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MARK = '\u0000CUT:';
const marker = (cut: number) => `${MARK}${cut}\u0000`;

describe('cutText (properties)', () => {
  it('never exceeds the budget plus the marker; cuts exactly what it says; never splits a character', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 400 }), fc.constantFrom('bytes', 'chars') as fc.Arbitrary<'bytes' | 'chars'>, fc.constantFrom('head', 'head-tail') as fc.Arbitrary<'head' | 'head-tail'>, (text, budget, unit, keep) => {
        const { text: out, cut } = cutText(text, budget, unit, keep, marker);
        const size = sizeOf(text, unit);
        if (size <= budget) {
          expect(out).toBe(text);
          expect(cut).toBe(0);
          return;
        }
        const m = marker(cut);
        const at = out.indexOf(m);
        expect(at).toBeGreaterThanOrEqual(0);
        expect(out.indexOf(MARK, at + 1)).toBe(-1); // exactly one marker
        const head = out.slice(0, at);
        const tail = out.slice(at + m.length);
        if (keep === 'head') expect(tail).toBe('');
        expect(sizeOf(head, unit) + sizeOf(tail, unit)).toBeLessThanOrEqual(budget);
        expect(sizeOf(head, unit) + sizeOf(tail, unit) + cut).toBe(size);
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        // Valid UTF-16 in, valid UTF-16 out: no surrogate pair is cut in half, so the UTF-8 stays valid.
        expect(LONE_SURROGATE.test(head) || LONE_SURROGATE.test(tail)).toBe(false);
        expect(Buffer.from(head + tail, 'utf8').toString('utf8')).toBe(head + tail);
        // Nothing of the budget is wasted but less than one character at each cut.
        expect(budget - sizeOf(head, unit) - sizeOf(tail, unit)).toBeLessThanOrEqual(keep === 'head' ? 3 : 6);
      }),
      params,
    );
  });
});

describe('the budget over a whole tool output (properties)', () => {
  const leaves = fc.array(fc.string({ unit: 'binary', maxLength: 400 }), { minLength: 1, maxLength: 8 });
  it('the strings together never exceed max (or 64 per string, the least a string keeps) plus one marker per cut string; the marker count is exact', () => {
    fc.assert(
      fc.property(leaves, fc.integer({ min: 1, max: 500 }), fc.constantFrom('bytes', 'chars') as fc.Arbitrary<'bytes' | 'chars'>, (strings, max, unit) => {
        const output = { content: strings.map((text) => ({ text })), isError: false };
        const budget = createBudget({ max, unit, keep: 'head-tail', ansi: false, marker: '\u0000{cut}\u0000', redact: false });
        const reply = budget(output);
        const sizes = strings.map((s) => sizeOf(s, unit));
        const total = sizes.reduce((n, s) => n + s, 0);
        const share = shareOf(sizes, max);
        if (total <= max || sizes.every((s) => s <= MIN_SHARE)) {
          expect(reply).toBeUndefined();
          return;
        }
        const out = reply!.updatedOutput as typeof output;
        expect(out.isError).toBe(false);
        expect(out.content).toHaveLength(strings.length);
        let kept = 0;
        let markers = 0;
        let cut = 0;
        out.content.forEach(({ text }, i) => {
          const parts = text.split('\u0000');
          if (parts.length === 1) {
            expect(text).toBe(strings[i]);
            kept += sizeOf(text, unit);
          } else {
            expect(parts).toHaveLength(3);
            markers++;
            cut += Number(parts[1]);
            kept += sizeOf(parts[0]! + parts[2]!, unit);
          }
        });
        const floor = Math.max(share!, MIN_SHARE);
        expect(kept).toBeLessThanOrEqual(share! >= MIN_SHARE ? max : sizes.reduce((n, s) => n + Math.min(s, floor), 0));
        expect(markers).toBe(sizes.filter((s) => s > floor).length);
        expect(kept + cut).toBe(total);
        expect(reply!.reason).toBe(`output-budget: cut ${cut} ${unit} from ${markers} string(s) to fit ${max}`);
      }),
      params,
    );
  });

  it('shareOf: the shares fit the budget and no string under the share is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 20 }), fc.integer({ min: 1, max: 5000 }), (sizes, budget) => {
        const share = shareOf(sizes, budget);
        const total = sizes.reduce((a, b) => a + b, 0);
        if (share === undefined) {
          expect(total).toBeLessThanOrEqual(budget);
          return;
        }
        expect(sizes.reduce((n, s) => n + Math.min(s, share), 0)).toBeLessThanOrEqual(budget);
        // One more unit for each cut string would not fit: the share is as large as it can be.
        expect(sizes.reduce((n, s) => n + Math.min(s, share + 1), 0)).toBeGreaterThan(budget);
      }),
      params,
    );
  });
});

describe('redaction around the cut (properties)', () => {
  const { pick } = generator(99);
  const tokens = Array.from({ length: 6 }, () => 'ghp_' + pick(A62, 36));
  // Filler without letters or digits: no piece of a token can appear in it by chance.
  const filler = fc.string({ unit: fc.constantFrom(' ', '.', '\n', '-', ','), maxLength: 120 });
  const text = fc.array(fc.tuple(filler, fc.nat(tokens.length - 1)), { minLength: 1, maxLength: 20 }).map((parts) => parts.map(([f, t]) => f + ' ' + tokens[t] + ' ').join(''));
  it('a secret is kept whole or redacted, never in part, with windows smaller than the string (margin 100)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 900 }), fc.constantFrom('head', 'head-tail') as fc.Arbitrary<'head' | 'head-tail'>, (input, max, keep) => {
        const reply = createBudget({ max, unit: 'bytes', keep, ansi: false, marker: '<{cut}>', redact: true }, 100)(input);
        const out = (reply?.updatedOutput as string | undefined) ?? input;
        for (const token of tokens) {
          const whole = out.split(token).length - 1;
          let pieces = 0;
          for (let i = 0; i + 8 <= token.length; i++) pieces += out.split(token.slice(i, i + 8)).length - 1;
          // Every 8-character piece found belongs to a whole copy of the token.
          expect(pieces).toBe(whole * (token.length - 7));
        }
      }),
      params,
    );
  });
});
