// Property tests for the per-event reading of Claude Code replies and for event names (untrusted input:
// a hook's stdout, an agent's hook_event_name, a config file's keys).
// Invariants: nothing throws; permissionDecision never decides where Claude Code does not read it;
// continue:false never halts where Claude Code ignores it; a hookSpecificOutput for another event is never
// acted on; exit 2 is a block or a halt; the claude-code answer is always JSON (or WorktreeCreate's path)
// with exit 0 or 2; an event name one edit from a known one is never taken for a new event.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyResult, finishChain, startChain } from '../../src/decide/combine.js';
import { claudeCode } from '../../src/dialects/claude-code.js';
import { EVENTS, eventFor, eventSpec, type EventSpec } from '../../src/events/catalog.js';
import { readProcessEnd } from '../../src/reply/interpret.js';
import type { HookEvent } from '../../src/types.js';
import { counted, settings } from './settings.js';

const unknownSpec = eventSpec('directoryRemoved');
const specs = [...EVENTS, unknownSpec];
const spec = fc.constantFrom(...specs);
const names = [...EVENTS.map((e) => e.claude), 'BeforeTool', 'Nope', ''];

const word = fc.constantFrom('allow', 'deny', 'ask', 'defer', 'block', 'approve', 'modify', 'continue', 'maybe', '');
const value = fc.oneof(fc.string({ maxLength: 8 }), fc.boolean(), fc.integer(), fc.constant(null), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }));
const specific = fc.record(
  {
    hookEventName: fc.constantFrom(...names),
    permissionDecision: word,
    permissionDecisionReason: fc.string({ maxLength: 10 }),
    additionalContext: fc.oneof(fc.string({ maxLength: 10 }), value),
    updatedInput: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), value, { maxKeys: 3 }), value),
    updatedToolOutput: value,
    decision: fc.oneof(fc.record({ behavior: fc.oneof(word, value), message: value, interrupt: fc.boolean(), updatedInput: value, updatedPermissions: value }, { requiredKeys: [] }), value),
    retry: value,
    watchPaths: value,
    action: fc.oneof(fc.constantFrom('accept', 'decline', 'cancel'), value),
    content: value,
    worktreePath: value,
    displayContent: value,
  },
  { requiredKeys: [] },
);
const reply = fc.record(
  {
    continue: fc.oneof(fc.boolean(), value),
    stopReason: value,
    decision: fc.oneof(word, value),
    reason: value,
    systemMessage: value,
    hookSpecificOutput: fc.oneof(specific, value),
    updatedInput: value,
    prompt: value,
  },
  { requiredKeys: [] },
);

const exited = (exitCode: number, json: unknown) => ({ kind: 'exited' as const, exitCode, stdout: JSON.stringify(json), stderr: 'stderr text' });

function eventOf(s: EventSpec): HookEvent {
  const payload = { hook_event_name: s.claude, session_id: 's', cwd: '/p', ...(s.tool ? { tool_name: 'Bash', tool_input: { command: 'ls' } } : {}) };
  return s.tool ? { name: s.name, payload, tool: { name: 'Bash', canonical: 'exec' } } : { name: s.name, payload };
}

describe('fuzz: Claude Code replies, event by event', () => {
  it('read as Claude Code reads them, and answered as JSON it can read', () => {
    const { wrapped, report } = counted('claude replies per event', (r: Record<string, unknown>, s: EventSpec, code: number) => {
      const reading = readProcessEnd(exited(code, r), s);
      if (code === 2) expect(reading.ok && ['block', 'halt'].includes(reading.reply.decision)).toBe(true);
      if (reading.ok && reading.reply.decision === 'halt') expect(s.canHalt).toBe(true);
      if (reading.ok && reading.reply.defer) expect(s.canDefer).toBe(true);
      const hso = r.hookSpecificOutput as Record<string, unknown> | undefined;
      const other = typeof hso?.hookEventName === 'string' && EVENTS.some((e) => e.claude === hso.hookEventName && e.claude !== s.claude);
      // A hookSpecificOutput for another event is rejected, or dropped beside a top-level block.
      if (other && code !== 2) expect(!reading.ok || r.decision === 'block').toBe(true);
      // On an event agent-hooks does not know (a newer agent's), permissionDecision deny is read: a block.
      if (!s.known && !other && hso !== null && typeof hso === 'object' && !Array.isArray(hso) && hso.permissionDecision === 'deny') expect(reading.ok && ['block', 'halt'].includes(reading.reply.decision)).toBe(true);
      // Where Claude Code does not read permissionDecision (on a known event), removing it changes nothing.
      if (s.known && !s.permissionDecision && hso !== null && typeof hso === 'object' && !Array.isArray(hso) && 'permissionDecision' in hso) {
        const without = { ...r, hookSpecificOutput: { ...hso, permissionDecision: undefined } };
        const again = readProcessEnd(exited(code, without), s);
        expect(again.ok && again.reply.decision).toBe(reading.ok && reading.reply.decision);
      }
      const ev = eventOf(s);
      const result = { id: 'h', source: { layer: 'project', key: 'hooks.x[0]' }, ms: 1, ...(reading.ok ? { reply: reading.reply } : { reply: { decision: 'continue' as const }, failure: reading.failure }) };
      const decision = finishChain(applyResult(startChain(ev), result as never), ev);
      const answer = claudeCode.answer(decision);
      expect([0, 2]).toContain(answer.exitCode);
      if (answer.stdout !== '') {
        if (s.plainStdoutField !== undefined && !answer.stdout.startsWith('{')) expect(answer.stdout.trim().split('\n')).toHaveLength(1);
        else {
          const json = JSON.parse(answer.stdout) as Record<string, unknown>;
          // The forward path sends only generic fields: a systemMessage, and a halt's continue/stopReason.
          if (!s.known) expect(Object.keys(json).every((k) => ['systemMessage', 'continue', 'stopReason'].includes(k))).toBe(true);
          const out = json.hookSpecificOutput as Record<string, unknown> | undefined;
          if (out !== undefined) expect(out.hookEventName).toBe(s.claude);
          if (out?.permissionDecision !== undefined) expect(s.permissionDecision).toBe(true);
        }
      }
      // The forward path: exit 2 exactly when the hooks blocked or halted, with the reason alone on stderr.
      if (!s.known) {
        const blocked = decision.decision === 'block' || decision.decision === 'halt';
        expect(answer.exitCode).toBe(blocked ? 2 : 0);
        if (blocked) expect(answer.stderr).toBe(`${decision.reason ?? ''}\n`);
      }
    });
    fc.assert(fc.property(reply, spec, fc.constantFrom(0, 1, 2), (r, s, c) => void wrapped(r, s, c)), settings(3000));
    report();
  });
});

describe('fuzz: event names', () => {
  const spellings = EVENTS.flatMap((e) => [e.name, e.cli, e.claude]);

  it('any string: no exception; a known spelling is that event; an accepted unknown one is an observe event whose block is passed on as exit 2', () => {
    const { wrapped, report } = counted('event names', (name: string) => {
      const found = eventFor(name);
      if (spellings.includes(name)) expect(found.ok && found.spec.known).toBe(true);
      if (found.ok && !found.spec.known) {
        expect(found.spec).toMatchObject({ mode: 'observe', canBlock: true, blockAs: 'exit2', canHalt: true, context: false, tool: false });
        expect(eventSpec(found.spec.name)).toEqual(found.spec);
      }
      if (!found.ok) expect(found.message).not.toMatch(/[\r\n]/);
    });
    const names = fc.oneof(fc.string(), fc.constantFrom(...spellings), fc.stringMatching(/^[A-Z][a-z]{2,8}[A-Z][a-z]{2,8}$/));
    fc.assert(fc.property(names, (n) => void wrapped(n)), settings(3000));
    report();
  });

  it('one letter changed, dropped or doubled in a long known name is a typo, never a new event', () => {
    const long = spellings.filter((s) => s.length >= 8);
    const { wrapped, report } = counted('event-name typos', (name: string, at: number, how: number, letter: string) => {
      const i = at % name.length;
      const typo = how === 0 ? name.slice(0, i) + letter + name.slice(i + 1) : how === 1 ? name.slice(0, i) + name.slice(i + 1) : name.slice(0, i) + name[i] + name.slice(i);
      const found = eventFor(typo);
      expect(!found.ok || found.spec.known).toBe(true);
    });
    fc.assert(
      fc.property(fc.constantFrom(...long), fc.nat(), fc.integer({ min: 0, max: 2 }), fc.constantFrom(...'abcxyzQ'), (n, a, h, l) => void wrapped(n, a, h, l)),
      settings(1000),
    );
    report();
  });
});
