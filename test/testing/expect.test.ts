// checkExpectation: each expected field against what the engine decided.
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../src/testing/case.js';
import { checkExpectation, partialMatch, textMatches, type Observed } from '../../src/testing/expect.js';

const observed = (o: Partial<Observed> = {}): Observed => ({ decision: 'continue', ran: [], failed: [], skipped: [], ...o });
const failing = (e: Expectation, o: Observed) => checkExpectation(e, o).filter((c) => !c.ok).map((c) => c.field);

describe('checkExpectation', () => {
  it('checks only the fields the expectation names', () => {
    expect(checkExpectation({}, observed({ decision: 'block', reason: 'x' }))).toEqual([]);
    expect(failing({ decision: 'block' }, observed({ decision: 'block', reason: 'anything' }))).toEqual([]);
    expect(failing({ decision: 'allow' }, observed({ decision: 'block' }))).toEqual(['decision']);
  });

  it('reason and additionalContext: substring, /regex/flags, or null for none', () => {
    const o = observed({ decision: 'block', reason: 'Force push blocked (--force)', additionalContext: 'Git branch: main\n\nmore' });
    expect(failing({ reason: 'push blocked' }, o)).toEqual([]);
    expect(failing({ reason: '/^force PUSH/i' }, o)).toEqual([]);
    expect(failing({ reason: '/^push/' }, o)).toEqual(['reason']);
    expect(failing({ reason: 'lease' }, o)).toEqual(['reason']);
    expect(failing({ reason: null }, o)).toEqual(['reason']);
    expect(failing({ reason: null }, observed())).toEqual([]);
    expect(failing({ reason: 'x' }, observed())).toEqual(['reason']);
    expect(failing({ additionalContext: '/branch: main$/m' }, o)).toEqual([]);
    expect(failing({ additionalContext: null }, o)).toEqual(['additionalContext']);
  });

  it('updatedInput is exact by default: an extra or a missing key fails', () => {
    const o = observed({ decision: 'modify', updatedInput: { command: 'ls --color=never', description: 'List' } });
    expect(failing({ updatedInput: { command: 'ls --color=never', description: 'List' } }, o)).toEqual([]);
    expect(failing({ updatedInput: { command: 'ls --color=never' } }, o)).toEqual(['updatedInput']);
    expect(failing({ updatedInput: { command: 'ls' } }, observed())).toEqual(['updatedInput']);
    expect(failing({ updatedInput: null }, o)).toEqual(['updatedInput']);
    expect(failing({ updatedInput: null }, observed())).toEqual([]);
  });

  it('match: partial compares only the keys the case names, and shows only those', () => {
    const o = observed({ updatedInput: { command: 'git diff --color=never HEAD', description: 'Diff' } });
    const [ok] = checkExpectation({ match: 'partial', updatedInput: { command: 'git diff --color=never HEAD' } }, o);
    expect(ok).toMatchObject({ ok: true, actual: { command: 'git diff --color=never HEAD' } });
    const [bad] = checkExpectation({ match: 'partial', updatedInput: { command: 'ls' } }, o);
    expect(bad).toMatchObject({ ok: false, actual: { command: 'git diff --color=never HEAD' } });
    expect(failing({ match: 'partial', prompt: 'REDACTED' }, observed({ prompt: 'key [REDACTED:x]' }))).toEqual([]);
    expect(failing({ prompt: 'REDACTED' }, observed({ prompt: 'key [REDACTED:x]' }))).toEqual(['prompt']);
  });

  it('updatedOutput compares the rewritten tool output', () => {
    const o = observed({ updatedOutput: { stdout: '[REDACTED]', stderr: '' } });
    expect(failing({ updatedOutput: { stdout: '[REDACTED]', stderr: '' } }, o)).toEqual([]);
    expect(failing({ updatedOutput: { stdout: 'secret', stderr: '' } }, o)).toEqual(['updatedOutput']);
  });

  it('ran and skipped are ordered lists of hook ids', () => {
    const o = observed({ ran: ['a', 'b'], skipped: ['c'] });
    expect(failing({ ran: ['a', 'b'], skipped: ['c'] }, o)).toEqual([]);
    expect(failing({ ran: ['b', 'a'] }, o)).toEqual(['ran']);
    expect(failing({ skipped: [] }, o)).toEqual(['skipped']);
  });

  it('failed: ids, optionally with the failure kind', () => {
    const o = observed({ ran: ['a', 'b'], failed: [{ id: 'b', kind: 'timeout' }] });
    expect(failing({ failed: ['b'] }, o)).toEqual([]);
    expect(failing({ failed: [{ id: 'b', kind: 'timeout' }] }, o)).toEqual([]);
    expect(failing({ failed: [{ id: 'b', kind: 'exit-1' }] }, o)).toEqual(['failed']);
    expect(failing({ failed: [] }, o)).toEqual(['failed']);
    expect(checkExpectation({ failed: [] }, o)[0]!.message).toBe('failed: expected failures [], got [b (timeout)]');
  });

  it('says what is wrong in one line', () => {
    const [c] = checkExpectation({ decision: 'allow' }, observed({ decision: 'block' }));
    expect(c!.message).toBe('decision: expected allow, got block');
    const [r] = checkExpectation({ reason: '/^x/' }, observed({ reason: 'y' }));
    expect(r!.message).toBe('reason: expected text matching /^x/, got "y"');
  });
});

describe('matchers', () => {
  it('textMatches: a slash-wrapped text is a regex, anything else a substring', () => {
    expect(textMatches('a.c', 'abc')).toBe(false);
    expect(textMatches('/a.c/', 'abc')).toBe(true);
    expect(textMatches('/ABC/i', 'abc')).toBe(true);
    expect(textMatches('/', 'a/b')).toBe(true);
  });

  it('partialMatch: nested objects by named keys, arrays by position and length', () => {
    expect(partialMatch({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(partialMatch({ a: [{ b: 1 }] }, { a: [{ b: 1, c: 2 }] })).toBe(true);
    expect(partialMatch({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(partialMatch({ a: 1 }, { a: '1' })).toBe(false);
  });
});
