// The oracle's own facts, one per documented (or seen) rule of Claude Code 2.1.328, so a change to the oracle that
// would quietly move the comparison's yardstick fails here first.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { combine, matcherMatches, parseStdout, type HookRun } from './claude-oracle.js';

const run = (exitCode: number | null, stdout = '', stderr = '', timedOut = false): HookRun => ({ command: 'hook', exitCode, stdout, stderr, timedOut });
const json = (o: object) => JSON.stringify(o);
const pre = (o: object) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });

describe('reading one hook run', () => {
  it('exit 2 blocks with stderr; exit 1 and other codes do not', () => {
    expect(combine('PreToolUse', [run(2, '', 'no')])).toMatchObject({ blocked: true, permission: 'deny', reasons: ['no'] });
    expect(combine('PreToolUse', [run(1, '', 'oops')])).toMatchObject({ blocked: false, errors: 1 });
    expect(combine('PreToolUse', [run(127, '', 'not found')])).toMatchObject({ blocked: false, errors: 1 });
  });

  it('exit 2 blocks even when the JSON allows; a JSON reason wins over stderr', () => {
    expect(combine('PreToolUse', [run(2, pre({ permissionDecision: 'allow' }), 'stderr')])).toMatchObject({ blocked: true, reasons: ['stderr'] });
    expect(combine('Stop', [run(2, json({ decision: 'block', reason: 'json' }), 'stderr')])).toMatchObject({ blocked: true, reasons: ['json'] });
  });

  it("PreSkillShellCommand (a skill's shell command) is read as PreToolUse: exit 2 and a deny block it, ask does not", () => {
    const skill = (o: object) => json({ hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', ...o } });
    expect(combine('PreSkillShellCommand', [run(2, '', 'no skill shell')])).toMatchObject({ blocked: true, permission: 'deny', reasons: ['no skill shell'] });
    expect(combine('PreSkillShellCommand', [run(0, skill({ permissionDecision: 'deny', permissionDecisionReason: 'r' }))])).toMatchObject({ blocked: true, permission: 'deny', reasons: ['r'] });
    expect(combine('PreSkillShellCommand', [run(0, skill({ permissionDecision: 'ask' })), run(0, skill({ permissionDecision: 'allow' }))])).toMatchObject({ blocked: false, permission: 'ask' });
    // No rewrite in its schema: updatedInput is stripped, never applied.
    expect(combine('PreSkillShellCommand', [run(0, skill({ permissionDecision: 'allow', updatedInput: { command: 'x' } }))]).updatedInput).toBeUndefined();
    // A PreToolUse-named reply on this event is the "incorrect event name" error, as on any other event.
    expect(combine('PreSkillShellCommand', [run(0, pre({ permissionDecision: 'deny' }))])).toMatchObject({ blocked: false, errors: 1 });
  });

  it('a valid JSON object decides whatever the exit code but 2', () => {
    expect(combine('PreToolUse', [run(1, pre({ permissionDecision: 'deny', permissionDecisionReason: 'r' }))])).toMatchObject({ blocked: true, reasons: ['r'] });
  });

  it('top-level decision is approve or block only: deny / ask fail the schema and change nothing', () => {
    expect(combine('PreToolUse', [run(0, json({ decision: 'deny' }))])).toMatchObject({ blocked: false, errors: 1 });
    expect(combine('PreToolUse', [run(0, json({ decision: 'approve' }))]).permission).toBe('allow');
    expect(combine('PreToolUse', [run(0, json({ decision: 'block', reason: 'x' }))])).toMatchObject({ blocked: true, reasons: ['x'] });
  });

  it('permissionDecision is read on PreToolUse only; a hookEventName naming another event is a hook error', () => {
    const postDeny = json({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } });
    expect(combine('PostToolUse', [run(0, postDeny)])).toMatchObject({ blocked: false, feedback: [], errors: 0 });
    expect(combine('PreToolUse', [run(0, postDeny)])).toMatchObject({ blocked: false, errors: 1 });
    // A block whose hookSpecificOutput names another event keeps the block (PUo).
    expect(combine('Stop', [run(0, json({ decision: 'block', reason: 'go on', hookSpecificOutput: { hookEventName: 'PreToolUse' } }))])).toMatchObject({ blocked: true, errors: 0 });
  });

  it('text that starts with { but is not a JSON object is plain text; a broken object is an error', () => {
    expect(parseStdout('{project} uses tabs')).toEqual({ plainText: '{project} uses tabs' });
    expect(parseStdout('{"a": }').validationError).toBeDefined();
    expect(parseStdout('{"a":1}\n{"b":2}').plainText).toBeDefined();
    expect(combine('SessionStart', [run(0, '{project} uses tabs')]).context).toEqual(['{project} uses tabs']);
  });

  it('plain stdout is context on UserPromptSubmit and SessionStart only', () => {
    expect(combine('UserPromptSubmit', [run(0, 'hello')]).context).toEqual(['hello']);
    expect(combine('PreToolUse', [run(0, 'hello')]).context).toEqual([]);
  });

  it('Stop additionalContext keeps the turn going; several Stop blocks all arrive', () => {
    expect(combine('Stop', [run(0, json({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'more' } }))])).toMatchObject({ blocked: false, continues: true, context: ['more'] });
    expect(combine('Stop', [run(0, json({ decision: 'block', reason: 'a' })), run(2, '', 'b')]).reasons).toEqual(['a', 'b']);
  });

  it('continue:false halts, except on PreCompact; a timed-out hook decides nothing', () => {
    expect(combine('UserPromptSubmit', [run(0, json({ continue: false, stopReason: 's' }))])).toMatchObject({ halt: true, stopReason: 's' });
    expect(combine('PreCompact', [run(0, json({ continue: false }))]).halt).toBe(false);
    expect(combine('PreToolUse', [run(null, pre({ permissionDecision: 'deny' }), '', true)])).toMatchObject({ blocked: false, errors: 1 });
  });

  it('PermissionRequest reads decision.behavior and ignores exit 2; PermissionDenied reads hookSpecificOutput.retry', () => {
    const allow = json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls' } } } });
    expect(combine('PermissionRequest', [run(0, allow)]).permissionRequest).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' } });
    expect(combine('PermissionRequest', [run(2, '', 'x')])).toMatchObject({ blocked: false });
    expect(combine('PermissionRequest', [run(2, '', 'x')]).permissionRequest).toBeUndefined();
    expect(combine('PermissionDenied', [run(0, json({ retry: true }))]).retry).toBeUndefined();
  });

  it('deny > defer > ask > allow across hooks', () => {
    const d = (p: string) => run(0, pre({ permissionDecision: p }));
    expect(combine('PreToolUse', [d('allow'), d('ask')]).permission).toBe('ask');
    expect(combine('PreToolUse', [d('ask'), d('defer')]).permission).toBe('defer');
    expect(combine('PreToolUse', [d('defer'), d('deny'), d('allow')]).permission).toBe('deny');
  });
});

describe('matchers', () => {
  const tool = (tool_name: string) => ({ tool_name });
  it('exact names and lists, unanchored regexes, everything for empty or *', () => {
    expect(matcherMatches('PreToolUse', 'Edit|Write', tool('Write'))).toBe(true);
    expect(matcherMatches('PreToolUse', 'Edit|Write', tool('NotebookEdit'))).toBe(false);
    expect(matcherMatches('PreToolUse', 'Edit.*', tool('NotebookEdit'))).toBe(true);
    expect(matcherMatches('PreToolUse', '^Edit$', tool('NotebookEdit'))).toBe(false);
    expect(matcherMatches('PreToolUse', 'mcp__memory', tool('mcp__memory__create'))).toBe(false);
    expect(matcherMatches('PreToolUse', 'mcp__memory__.*', tool('mcp__memory__create'))).toBe(true);
    expect(matcherMatches('PreToolUse', '', tool('Bash'))).toBe(true);
    expect(matcherMatches('Stop', 'anything', {})).toBe(true);
    expect(matcherMatches('SessionStart', 'compact', { source: 'startup' })).toBe(false);
  });
});

describe('the oracle never throws on what a hook prints', () => {
  it('any stdout, stderr and exit code is read to an effect', () => {
    const events = ['PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit', 'PermissionRequest', 'SessionStart', 'Notification'];
    const stdout = fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ hookSpecificOutput: v })), fc.constantFrom('{', '{}', '{"decision":"block"}', '{"continue":false}'));
    fc.assert(
      fc.property(fc.constantFrom(...events), stdout, fc.string(), fc.option(fc.integer({ min: 0, max: 255 }), { nil: null }), (event, out, err, code) => {
        const e = combine(event, [run(code, out, err, code === null)]);
        expect(typeof e.blocked).toBe('boolean');
      }),
      { seed: 11, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });
});
