// Property tests for reading an event (issue 10): any stdin, through the real CLI code (in process) with the
// built-in guards configured on every event they act on. Invariants: no uncaught exception ("internal error");
// exit codes only 0, 1, 2; a runner error is one line; an over-deep event with a hook to judge it never passes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/events/read.js';
import { isHooksError } from '../../src/errors.js';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';
import { counted, settings } from './settings.js';

const dir = tmpProject();
const config = path.join(dir, 'hooks.json');
const guards = [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths' }];
writeFileSync(
  config,
  JSON.stringify({ hooks: { preToolUse: guards, postToolUse: [{ builtin: 'redact-secrets' }], userPromptSubmit: [{ builtin: 'redact-secrets' }], sessionStart: [{ builtin: 'audit-log', options: { path: path.join(dir, 'audit.jsonl') } }] } }),
);
const env = isolatedEnv(dir);

const eventNames = fc.constantFrom('PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'preToolUse', 'pre-tool-use', 'BeforeTool', 'beforeShellExecution', 'Nope', '');
const toolNames = fc.constantFrom('Bash', 'Read', 'Write', 'Edit', 'run_shell_command', 'mcp__x__y', '', 'Shell');
/** A value nested `levels` deep, as text (JSON.parse builds it without recursion). */
const deep = fc.integer({ min: 1, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), deep, fc.constantFrom('"rm -rf /"', '"cat ~/.ssh/id_rsa"', '"ls ** ; cat .env"', `"ghp_${'a'.repeat(36)}"`));
/** Events that look real, with any field replaced by anything, and a deep value anywhere. */
const structured = fc
  .record({
    name: eventNames,
    tool: toolNames,
    command: value,
    extraKey: fc.constantFrom('tool_response', 'prompt', 'deep', 'cwd', 'session_id', 'tool_input'),
    extra: value,
  })
  .map((e) => `{"hook_event_name":${JSON.stringify(e.name)},"tool_name":${JSON.stringify(e.tool)},"tool_input":{"command":${e.command},"file_path":${e.command}},"${e.extraKey}":${e.extra}}`);
const stdin = fc.oneof(structured, fc.json(), fc.string(), fc.constantFrom('', '{', 'null', '[]', '\uFEFF{}', '{"hook_event_name":"PreToolUse"}'));
const argv = fc.constantFrom<string[]>([], ['pre-tool-use'], ['post-tool-use'], ['session-start'], ['nope'], ['--dialect', 'gemini'], ['--dialect', 'cursor'], ['--dialect', 'codex']);

const reports: (() => void)[] = [];
afterAll(() => reports.forEach((r) => r()));

describe('fuzz: event reading', () => {
  it('parseEvent returns a value or throws a one-line HooksError', () => {
    const { wrapped, report } = counted('parseEvent', (text: string) => {
      try {
        parseEvent(text);
      } catch (error) {
        expect(isHooksError(error)).toBe(true);
        expect((error as Error).message).not.toMatch(/[\r\n]/);
      }
    });
    fc.assert(fc.property(stdin, (t) => void wrapped(t)), settings(2000));
    reports.push(report);
  });

  it('hooks run: exit 0, 1 or 2 only; exit 1 is one line naming no internal error; a deep event with a guard to run never passes', async () => {
    const { wrapped, report } = counted('hooks run (in process, builtin guards)', async (input: string, args: string[]) => {
      const out = await cliInProcess(['run', ...args, '--config', config], { cwd: dir, env, input });
      expect([0, 1, 2]).toContain(out.code);
      expect(out.stderr).not.toContain('internal error');
      if (out.code === 1) expect(out.stderr).toMatch(/^agent-hooks: [^\n]*\n$/);
    });
    await fc.assert(fc.asyncProperty(stdin, argv, (i, a) => wrapped(i, a)), settings(300));
    reports.push(report);
  });

  it('hooks guard: the same, for every guard', async () => {
    const { wrapped, report } = counted('hooks guard (in process)', async (input: string, id: string) => {
      const out = await cliInProcess(['guard', id], { cwd: dir, env, input });
      expect([0, 1, 2]).toContain(out.code);
      expect(out.stderr).not.toContain('internal error');
      if (out.code === 1) expect(out.stderr).toMatch(/^agent-hooks: [^\n]*\n$/);
    });
    await fc.assert(fc.asyncProperty(stdin, fc.constantFrom('command-safety', 'sensitive-paths', 'redact-secrets'), (i, g) => wrapped(i, g)), settings(300));
    reports.push(report);
  });

  it('an over-deep Bash event is never allowed by the guards', async () => {
    const { wrapped, report } = counted('deep preToolUse', async (levels: number, where: string, command: string) => {
      const input = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":${JSON.stringify(command)}},"${where}":${'['.repeat(levels)}${']'.repeat(levels)}}`;
      const out = await cliInProcess(['run', '--config', config], { cwd: dir, env, input });
      expect(out.code).toBe(2);
    });
    await fc.assert(fc.asyncProperty(fc.integer({ min: 257, max: 20_000 }), fc.constantFrom('deep', 'tool_response', 'x'), fc.constantFrom('ls', 'rm -rf /', 'echo hi'), (l, w, c) => wrapped(l, w, c)), settings(60));
    reports.push(report);
  });
});
