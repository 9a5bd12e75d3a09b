// The ids a record keeps of an event come from the agent: the audit log, the live page and telemetry keep
// them cut, never megabytes copied into every line, row and span.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ID_LIMIT, recordedId } from '../../src/events/ids.js';
import { auditRecords } from '../../src/guards/audit-log.js';
import { pageEvent, redactor } from '../../src/serve/page/record.js';
import { runRecord } from '../../src/telemetry/record.js';
import { event, runnerWith } from '../helpers.js';

const SETTINGS = { seed: 20261128, numRuns: 100, interruptAfterTimeLimit: 5_000 };

describe('recordedId', () => {
  it('keeps an id up to the limit whole, and a longer one as its start with the cut said (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', minLength: ID_LIMIT - 8, maxLength: ID_LIMIT + 8 })), (id) => {
        const kept = recordedId(id);
        if (id.length <= ID_LIMIT) expect(kept).toBe(id);
        else expect(kept).toBe(`${id.slice(0, ID_LIMIT)}…[${id.length - ID_LIMIT} more]`);
      }),
      SETTINGS,
    );
    for (const notText of [undefined, null, 7, {}, ['x']]) expect(recordedId(notText)).toBeUndefined();
  });
});

describe('a hostile event with a 1 MB session id and tool name', () => {
  it('is recorded with both cut, by the audit log, the live page and telemetry, on every record of the run', async () => {
    const huge = (c: string) => c.repeat(1_000_000);
    const runner = await runnerWith({}, { handlers: [{ id: 'a', event: 'preToolUse', handler: () => undefined }, { id: 'b', event: 'preToolUse', handler: () => undefined }] });
    const decision = await runner.run(event('preToolUse', { session_id: huge('s'), tool_name: huge('T'), tool_input: {} }));
    expect(decision.results).toHaveLength(2);
    const kinds = new Map(runner.config.hooks.map((h) => [h.id, h.run.kind]));
    const span = runRecord({ decision, dialect: 'claude-code', projectDir: '/p', startedAt: 0, endedAt: 1, kinds }, { payloads: false });
    const page = pageEvent(decision, { agent: 'claude-code', project: '/p', ms: 1, now: 0, clean: redactor() });
    const audit = auditRecords(
      { event: decision.event, decision: decision.decision, ms: 1, hooks: decision.results.map((r) => ({ id: r.id, source: r.source, outcome: 'continue', ms: r.ms })) },
      { now: new Date(0), runId: 'r', pid: 1, clean: (t) => t },
    );
    const cut = (c: string) => `${c.repeat(ID_LIMIT)}…[${1_000_000 - ID_LIMIT} more]`;
    for (const s of [span.event, ...span.hooks]) {
      expect(s.attributes['session.id']).toBe(cut('s'));
      expect(s.attributes['gen_ai.tool.name']).toBe(cut('T'));
    }
    expect(page.session).toBe(cut('s'));
    expect(audit).toHaveLength(3);
    for (const r of audit) expect([r.sessionId, r.toolName]).toEqual([cut('s'), cut('T')]);
    // The canonical name of a tool no table knows is the agent's own name: cut too, in all three.
    for (const tool of [page.tool, ...audit.map((r) => r.tool), ...[span.event, ...span.hooks].map((s) => s.attributes['agent_hooks.tool'])]) {
      expect(String(tool).length).toBeLessThanOrEqual(300);
    }
    // Every record of the run together stays small.
    expect(JSON.stringify([span, page, audit]).length).toBeLessThan(20_000);
  });
});
