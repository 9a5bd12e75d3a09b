import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, SECRET_RULES } from '../../src/guards/redact-secrets.js';
import { A62, cleanTexts, generator, secretExamples } from './corpus/secrets-examples.js';

// The keyword prefilter reads only windows around the keywords' hits: it must find exactly what a
// read of the whole text finds, for every example, in any surroundings (long lines, many lines,
// JSON escapes, a token cut by a window's edge).
const windowed = createRedactor();
const whole = createRedactor(undefined, { windows: false });
const examples = secretExamples();
const clean = cleanTexts();
const g = generator(2705);

describe('redact-secrets keyword windows', () => {
  it('every keyword is at least two Latin-1 characters (the index keys on the first pair)', () => {
    for (const rule of SECRET_RULES) for (const k of rule.keywords) expect(/^[\x00-\xff]{2,}$/.test(k), `${rule.id}: ${k}`).toBe(true);
  });

  it('finds what a whole-text read finds in every written example', () => {
    for (const e of examples) expect(windowed.text(e.text), e.rule).toEqual(whole.text(e.text));
  });

  it('property: the same spans as a whole-text read, in any surroundings', () => {
    // Long fillers, so most texts pass the size from which windows are used (16 KB).
    const filler = fc.constantFrom(' ', '\n', '\\n', g.pick(A62, 300), 'x'.repeat(5000), 'y '.repeat(9000), g.pick(A62, 17000), clean.join('\n'), ...clean.slice(0, 60));
    fc.assert(
      fc.property(fc.array(fc.oneof(filler, fc.constantFrom(...examples).map((e) => e.text)), { minLength: 1, maxLength: 8 }), (parts) => {
        const text = parts.join('');
        expect(windowed.text(text)).toEqual(whole.text(text));
      }),
      { seed: 2705, numRuns: 200, interruptAfterTimeLimit: 15_000 },
    );
  });

  it('past 20,000 hits of one keyword the label rules are still tried per hit, and find what a whole-text read finds', () => {
    // 40,000 `key` hits in 640 KB (under the cap of one hit per 16 bytes): the label rule used to
    // fall back to a whole-text scan here; the spans must be the same either way.
    const secret = g.pick(A62, 20) + '7Q';
    const text = 'cache_key=a1 x\n'.repeat(20_000) + 'sort_key: b2 yy\n'.repeat(20_000) + `API_KEY=${secret}\n` + 'the key, '.repeat(3);
    const out = windowed.text(text);
    expect(out).toEqual(whole.text(text));
    expect(out.findings.map((f) => f.rule)).toEqual(['secret-assignment']);
    expect(out.text).not.toContain(secret);
  });

  it('a token longer than a window, far from the line start, is still whole', () => {
    const jwt = ['ey', 'J'].join('') + g.pick(A62, 30) + '.' + ['ey', 'J'].join('') + g.pick(A62, 6000) + '.' + g.pick(A62, 43);
    const text = 'x '.repeat(9000) + `Authorization: Bearer ${jwt} done`;
    const out = windowed.text(text);
    expect(out).toEqual(whole.text(text));
    expect(out.text).not.toContain(jwt.slice(-40));
  });
});

describe('redact-secrets stays linear on floods of the newer rules\' keywords', () => {
  // A ratio measured in the same run, not a wall-clock budget: 4× the input may take at most 12×
  // the time (a quadratic scan takes 16×). Best of five, in CPU time, to ride out the shared
  // machine's load (wall time gave ratios of 14-20 on linear code there).
  const best = (text: string): number => {
    let min = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.cpuUsage();
      windowed.text(text);
      const used = process.cpuUsage(started);
      min = Math.min(min, (used.user + used.system) / 1000);
    }
    return Math.max(min, 0.5);
  };
  it.each([
    ['mysql words, no -p', 'mysql a '],
    ['libpq keys, no password', 'user=user='],
    ['bundler names, no value', 'BUNDLE_'],
    ['query keys, no value', '?key=&'],
    ['session labels, short values', 'session: abc '],
    ['service keys, no value', 'clockify_key= '],
    ['dsn, no tcp', 'u:pass@'],
  ])('%s', (_name, unit) => {
    const small = best(unit.repeat(20_000));
    const large = best(unit.repeat(80_000));
    expect(large / small).toBeLessThan(12);
  });
});
