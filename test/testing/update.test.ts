// --update: the current decision written into a failing expectation, keeping what still holds.
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../src/testing/case.js';
import { checkExpectation, type Observed } from '../../src/testing/expect.js';
import { setExpectation, updatedExpectation } from '../../src/testing/update.js';

const observed = (o: Partial<Observed>): Observed => ({ decision: 'continue', ran: [], failed: [], skipped: [], ...o });
const update = (e: Record<string, unknown> | undefined, o: Observed) => updatedExpectation(e, checkExpectation((e ?? {}) as Expectation, o), o);

describe('updatedExpectation', () => {
  it('a case without expectation gets the decision, the reason and the rewritten field', () => {
    const o = observed({ decision: 'modify', reason: 'colour off', updatedInput: { command: 'ls --color=never' }, ran: ['a'] });
    expect(update(undefined, o)).toEqual({ decision: 'modify', reason: 'colour off', updatedInput: { command: 'ls --color=never' } });
  });

  it('failing fields take the actual value; fields that hold stay as written', () => {
    const o = observed({ decision: 'block', reason: 'Force push blocked (-f)', ran: ['a', 'b'] });
    expect(update({ decision: 'allow', reason: '/Force/', ran: ['a'] }, o)).toEqual({ decision: 'block', reason: '/Force/', ran: ['a', 'b'] });
    expect(update({ reason: 'lease' }, o)).toEqual({ reason: 'Force push blocked (-f)', decision: 'block' });
  });

  it('none is written as null', () => {
    expect(update({ decision: 'modify', updatedInput: { command: 'x' }, reason: 'r' }, observed({}))).toEqual({ decision: 'continue', updatedInput: null, reason: null });
  });

  it('failed keeps the form the case used', () => {
    const o = observed({ failed: [{ id: 'slow', kind: 'timeout' }] });
    expect(update({ failed: [] }, o).failed).toEqual(['slow']);
    expect(update({ failed: [{ id: 'x' }] }, o).failed).toEqual([{ id: 'slow', kind: 'timeout' }]);
  });

  it('a reason that looks like /regex/ is written so it reads back literally', () => {
    const e = update(undefined, observed({ decision: 'block', reason: '/etc/passwd/' }));
    expect(e.reason).toBe('/^\\/etc\\/passwd\\/$/');
    expect(checkExpectation(e as Expectation, observed({ decision: 'block', reason: '/etc/passwd/' })).every((c) => c.ok)).toBe(true);
  });
});

describe('setExpectation', () => {
  it('replaces an expectation in place, keeping its position in the case', () => {
    const raw: Record<string, unknown> = { name: 'n', expect: { decision: 'allow' }, event: {} };
    setExpectation(raw, { decision: 'block', reason: 'r' });
    expect(Object.keys(raw)).toEqual(['name', 'expect', 'event']);
    expect(raw.expect).toEqual({ decision: 'block', reason: 'r' });
    const fresh: Record<string, unknown> = { name: 'n', event: {} };
    setExpectation(fresh, { decision: 'continue' });
    expect(Object.keys(fresh)).toEqual(['name', 'event', 'expect']);
  });
});
