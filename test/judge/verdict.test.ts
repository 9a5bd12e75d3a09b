// The judge's answer parser and the prompt text: a verdict is read only from one well-formed JSON object,
// never from prose, and the parser is total (it never throws, whatever the model says).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillPrompt } from '../../src/judge/prompt-text.js';
import { readVerdict } from '../../src/judge/verdict.js';
import { settings } from '../fuzz/settings.js';

describe('readVerdict', () => {
  it('reads ok, reason and impossible', () => {
    expect(readVerdict('{"ok": true, "reason": "fine"}')).toEqual({ ok: true, verdict: { ok: true, reason: 'fine' } });
    expect(readVerdict(' {"ok": false, "impossible": true} ')).toEqual({ ok: true, verdict: { ok: false, impossible: true } });
    expect(readVerdict('```json\n{"ok": false, "reason": "x"}\n```')).toEqual({ ok: true, verdict: { ok: false, reason: 'x' } });
  });

  it.each([
    ['', /answered nothing/],
    ['yes', /not one JSON object/],
    ['Here: {"ok": true}', /not one JSON object/],
    ['{"ok": true} {"ok": false}', /not one JSON object/],
    ['[{"ok": true}]', /not an object/],
    ['{"ok": "true"}', /no boolean "ok"/],
    ['{"ok": true, "reason": 3}', /"reason" is not a string/],
    ['{"ok": true, "impossible": "no"}', /"impossible" is not a boolean/],
    ['null', /not an object/],
  ])('%j is a bad reply', (answer, problem) => {
    const read = readVerdict(answer);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toMatch(problem);
  });

  it('never throws, and allows only what is a well-formed object with ok: true', () => {
    const wellFormedAllow = (text: string): boolean => {
      const inner = text.trim().replace(/^```[a-zA-Z]*\s*/, '').replace(/\s*```$/, '').trim();
      try {
        const value = JSON.parse(inner) as unknown;
        return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { ok?: unknown }).ok === true;
      } catch {
        return false;
      }
    };
    const answers = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ ok: fc.oneof(fc.boolean(), fc.string(), fc.constant(null)), reason: fc.option(fc.string(), { nil: undefined }) }).map((o) => JSON.stringify(o)),
      fc.tuple(fc.string(), fc.json(), fc.string()).map(([a, j, b]) => `${a}${j}${b}`),
      fc.json().map((j) => `\`\`\`json\n${j}\n\`\`\``),
      fc.nat(5000).map((n) => '['.repeat(n)),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        const read = readVerdict(answer);
        const allows = read.ok && read.verdict.ok;
        if (allows) expect(wellFormedAllow(answer)).toBe(true);
        if (!read.ok) expect(read.problem.length).toBeLessThan(400);
      }),
      settings(500),
    );
  });
});

describe('readVerdict: two "ok" keys', () => {
  it('an answer with two "ok" keys is not a verdict (JSON.parse keeps the last one: false then true reads as an allow)', () => {
    expect(readVerdict('{"ok": false, "reason": "pushes to main", "ok": true}').ok).toBe(false);
    expect(readVerdict(`{"ok": false, "\\u006fk"${' '.repeat(200)}:\n true}`)).toMatchObject({ ok: false, problem: /more than one "ok"/ });
  });

  it('an "ok" inside a value or a nested object is not a second one', () => {
    expect(readVerdict('{"ok": true, "reason": "\\"ok\\": false", "detail": {"ok": false, "list": [{"ok": 1}]}}')).toEqual({ ok: true, verdict: { ok: true, reason: '"ok": false' } });
  });

  it('property: a false "ok" followed by any other keys and a true "ok" is never an allow', () => {
    const key = fc.string().filter((k) => k !== 'ok');
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue()), fc.dictionary(key, fc.jsonValue()), fc.constantFrom('', ' ', '\n\t '), (before, after, gap) => {
        const inner = (o: Record<string, unknown>) => JSON.stringify(o).slice(1, -1);
        const parts = [inner(before), `"ok"${gap}:${gap}false`, inner(after), `"ok"${gap}:${gap}true`].filter((p) => p !== '');
        const read = readVerdict(`{${parts.join(',')}}`);
        expect(read.ok).toBe(false);
      }),
      settings(300),
    );
  });
});

describe('fillPrompt', () => {
  const json = '{"tool_input":{"command":"echo $ARGUMENTS $1"}}';
  it('replaces every $ARGUMENTS, and leaves what the event holds alone', () => {
    expect(fillPrompt('A $ARGUMENTS B $ARGUMENTS', json)).toBe(`A ${json} B ${json}`);
  });
  it('appends the JSON after a blank line when the prompt names none', () => {
    expect(fillPrompt('Is it safe?', json)).toBe(`Is it safe?\n\nARGUMENTS: ${json}`);
  });
  it('keeps an escaped \\$ARGUMENTS as the literal text (and then appends, as Claude Code does)', () => {
    expect(fillPrompt('say \\$ARGUMENTS', json)).toBe(`say $ARGUMENTS\n\nARGUMENTS: ${json}`);
  });
  it('property: the event JSON appears whole, exactly once per placeholder or once appended', () => {
    fc.assert(
      fc.property(fc.string(), fc.json(), (prompt, event) => {
        const out = fillPrompt(prompt, event);
        expect(out.includes(event)).toBe(true);
      }),
      settings(300),
    );
  });
});
