// The record reader takes untrusted lines: whatever a line holds, it answers a record or a counted reason,
// never a throw; a well-formed v1 record is read back as written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecord, SKIP_REASONS } from '../../src/report/record.js';

const options = { seed: 2627, numRuns: 400, interruptAfterTimeLimit: 6_000 };

const isoDate = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const hookRecord = fc.record({
  v: fc.constant(1),
  ts: isoDate,
  event: fc.string(),
  kind: fc.constant('hook'),
  hook: fc.string(),
  outcome: fc.constantFrom('continue', 'allow', 'ask', 'block', 'modify', 'halt'),
  ms: fc.double({ min: 0, max: 1e9, noNaN: true }),
  tool: fc.option(fc.string(), { nil: undefined }),
  sessionId: fc.option(fc.string(), { nil: undefined }),
  project: fc.option(fc.string(), { nil: undefined }),
  failure: fc.option(fc.constantFrom('timeout', 'exit-1', 'invalid-json'), { nil: undefined }),
  reason: fc.option(fc.string(), { nil: undefined }),
}, { requiredKeys: ['v', 'ts', 'event', 'kind', 'hook', 'outcome', 'ms'] });

describe('parseRecord', () => {
  it('never throws on any text, and a skip always has a known reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ v: 1, kind: 'hook', ts: '2026-01-01T00:00:00Z', ...(typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { x: v }) }))), (line) => {
        const parsed = parseRecord(line);
        if ('skip' in parsed) expect(SKIP_REASONS).toContain(parsed.skip);
        else {
          expect(['hook', 'event']).toContain(parsed.record.kind);
          expect(Number.isFinite(parsed.record.at)).toBe(true);
          for (const key of ['tool', 'sessionId', 'project', 'hook', 'outcome', 'reason', 'decision'] as const) {
            const value = parsed.record[key];
            if (value !== undefined) expect(typeof value).toBe('string');
          }
        }
      }),
      options,
    );
  });

  it('reads a well-formed hook record back as written', () => {
    fc.assert(
      fc.property(hookRecord, (r) => {
        const parsed = parseRecord(JSON.stringify(r));
        expect('record' in parsed).toBe(true);
        if (!('record' in parsed)) return;
        expect(parsed.record).toMatchObject({ kind: 'hook', hook: r.hook, outcome: r.outcome, event: r.event, at: Date.parse(r.ts), ms: r.ms });
        expect(parsed.record.tool).toBe(r.tool);
        expect(parsed.record.project).toBe(r.project);
        expect(parsed.record.failure).toBe(r.failure);
      }),
      options,
    );
  });

  it('counts each kind of bad line under its own reason', () => {
    expect(parseRecord('')).toEqual({ skip: 'empty' });
    expect(parseRecord('  \t')).toEqual({ skip: 'empty' });
    expect(parseRecord('{"v":1,"ts":"2026-11-21T23:50:01.123Z","kind":"hook","hook":"x","outc')).toEqual({ skip: 'not-json' });
    expect(parseRecord('[1,2]')).toEqual({ skip: 'not-a-record' });
    expect(parseRecord('{"v":2,"kind":"hook"}')).toEqual({ skip: 'unknown-version' });
    expect(parseRecord('{"kind":"hook"}')).toEqual({ skip: 'not-a-record' });
    expect(parseRecord('{"v":1,"ts":"yesterday","event":"stop","kind":"event","decision":"block"}')).toEqual({ skip: 'not-a-record' });
    expect(parseRecord('{"v":1,"ts":"2026-11-21T23:50:01Z","event":"stop","kind":"event"}')).toEqual({ skip: 'not-a-record' });
    // A field of the wrong type is left out; the record still counts.
    const odd = parseRecord('{"v":1,"ts":"2026-11-21T23:50:01Z","event":"stop","kind":"event","decision":"block","tool":{"x":1},"ms":-4}');
    expect(odd).toEqual({ record: { kind: 'event', at: Date.parse('2026-11-21T23:50:01Z'), event: 'stop', decision: 'block' } });
  });
});
