// Issue 24 item 3: an event key in another agent's spelling is taken as that event, or refused with the
// key and match to use; a key no catalog event has is kept (a newer agent may send it) and said so by
// list and doctor, never silently never-run.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig, UNKNOWN_EVENT_MATCH_NOTE, UNKNOWN_EVENT_NOTE } from '../../src/config/resolve.js';
import { EVENT_ALIASES, eventFor, findEvent } from '../../src/events/catalog.js';
import { CURSOR_EVENTS } from '../../src/dialects/cursor.js';
import { COPILOT_EVENTS } from '../../src/dialects/copilot.js';
import { GEMINI_EVENTS } from '../../src/dialects/gemini.js';
import { CODEX_EVENTS } from '../../src/dialects/codex.js';
import { HooksError } from '../../src/errors.js';
import { bash, cliInProcess, isolatedEnv, runCli, runnerWith, tmpProject } from '../helpers.js';

const FILE = '/home/dev/project/.hooksrc.json';
const resolve = (config: unknown) => resolveConfig([{ layer: 'project', file: FILE, dir: path.dirname(FILE), config } as ConfigLayer], { cwd: '/home/dev/project' });

describe("another agent's spelling of an event", () => {
  it.each([
    ['BeforeTool', 'preToolUse'], ['AfterTool', 'postToolUse'], ['BeforeAgent', 'userPromptSubmit'], ['AfterAgent', 'stop'], ['PreCompress', 'preCompact'],
    ['beforeSubmitPrompt', 'userPromptSubmit'], ['userPromptSubmitted', 'userPromptSubmit'], ['agentStop', 'stop'], ['preToolCall', 'preToolUse'],
    ['PreToolUse', 'preToolUse'], ['preToolUse', 'preToolUse'], ['pre-tool-use', 'preToolUse'],
  ])('%s is accepted as %s, with a note naming the key it was filed under', async (key, event) => {
    const config = await resolve({ hooks: { [key]: [{ id: 'h', command: 'true' }] } });
    expect(config.hooks.map((h) => [h.id, h.event])).toEqual([['h', event]]);
    if (EVENT_ALIASES[key] !== undefined) expect(config.hooks[0]!.notes).toContainEqual(expect.stringContaining(`filed under "${key}"`));
  });

  it('a hook under Gemini\'s BeforeTool guards a Claude Code PreToolUse call', async () => {
    const runner = await runnerWith({ hooks: { BeforeTool: [{ id: 'no-victim', command: 'cat >/dev/null; echo "victim is protected" >&2; exit 2' }] } } as never);
    const decision = await runner.run(bash('rm -rf ./victim'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toContain('victim is protected');
  });

  it.each([
    ['beforeShellExecution', 'preToolUse', 'exec'], ['beforeMCPExecution', 'preToolUse', 'mcp__*'], ['beforeReadFile', 'preToolUse', 'read'],
    ['afterShellExecution', 'postToolUse', 'exec'], ['afterMCPExecution', 'postToolUse', 'mcp__*'], ['afterFileEdit', 'postToolUse', 'edit'],
  ])('%s (one kind of tool only) is a config error naming the file, the key and what to write', async (key, event, match) => {
    const error = (await resolve({ hooks: { [key]: [{ command: 'true' }] } }).catch((e: unknown) => e)) as HooksError;
    expect(error).toBeInstanceOf(HooksError);
    expect(error.message).toBe(`${FILE}: hooks.${key}: "${key}" is Cursor's ${event} for one kind of tool: file the hook under "${event}" with "match": "${match}"`);
  });

  it('every agent spelling a dialect maps is a catalog spelling or an alias of the same event', () => {
    for (const table of [CURSOR_EVENTS, COPILOT_EVENTS, GEMINI_EVENTS, CODEX_EVENTS]) {
      for (const [agentEvent, canonical] of Object.entries(table)) {
        if (canonical === null) continue;
        const known = findEvent(agentEvent) ?? (EVENT_ALIASES[agentEvent] === undefined ? undefined : findEvent(EVENT_ALIASES[agentEvent]!.event));
        expect(known?.name, agentEvent).toBe(canonical);
      }
    }
  });

  it('typos stay errors', async () => {
    expect(eventFor('BeforeTol')).toMatchObject({ ok: false });
    await expect(resolve({ hooks: { preTooluse: [{ command: 'a' }] } })).rejects.toThrow('hooks.preTooluse: unknown event (did you mean "preToolUse"?)');
  });
});

describe('a key no catalog event has', () => {
  it('is kept, with a note, and runs when an agent sends that event', async () => {
    const config = await resolve({ hooks: { PreFutureGuardCheck: [{ id: 'future', command: 'true' }] } });
    expect(config.hooks.map((h) => h.event)).toEqual(['preFutureGuardCheck']);
    expect(config.hooks[0]!.notes).toContain(UNKNOWN_EVENT_NOTE);
  });

  // Hostile review F9: a native match on a newer agent's tool event switched the whole layer off.
  it('may carry a tool match, which is checked and noted, not refused', async () => {
    const config = await resolve({ hooks: { PreFutureGuardCheck: [{ id: 'future', match: 'Bash', command: 'true' }] } });
    expect(config.hooks[0]!.match).toEqual(['Bash']);
    expect(config.hooks[0]!.notes).toContain(UNKNOWN_EVENT_MATCH_NOTE);
    await expect(resolve({ hooks: { PreFutureGuardCheck: [{ id: 'future', match: 'Bsh', command: 'true' }] } })).rejects.toThrow(/matches no known tool/);
  });

  // The CLI in-process: what list and doctor say (the run below is a real process).
  it('list shows it under its name with the note, and doctor warns about it naming the key path', async () => {
    const dir = tmpProject();
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { PreFutureGuardCheck: [{ id: 'future', command: 'true' }], BeforeTool: [{ id: 'gemini-spelled', command: 'true' }] } }));
    const env = isolatedEnv(dir);
    const list = await cliInProcess(['list'], { cwd: dir, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/\npreFutureGuardCheck\n {2}1\. future/);
    expect(list.stdout).toContain(`! ${UNKNOWN_EVENT_NOTE}`);
    expect(list.stdout).toMatch(/\npreToolUse\n {2}1\. gemini-spelled/);
    expect(list.stdout).toContain('filed under "BeforeTool", Gemini CLI\'s name for preToolUse');
    const doctor = await cliInProcess(['doctor'], { cwd: dir, env });
    expect(doctor.stdout + doctor.stderr).toContain(`preFutureGuardCheck: ${UNKNOWN_EVENT_NOTE}`);
    expect(doctor.stdout + doctor.stderr).toContain('hooks.PreFutureGuardCheck[0]');
  });
});

// Hostile review (issue 24 item 3): a project key now refused (another agent's tool-specific event name)
// must not switch off the user's own guards with it.
describe('review: a refused alias key in a project config', () => {
  it('the user\'s PreToolUse guard still blocks (a hostile repo cannot turn it off with "beforeShellExecution")', () => {
    const home = tmpProject();
    const dir = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ hooks: { preToolUse: [{ id: 'user-guard', command: 'cat >/dev/null; echo "user guard says no" >&2; exit 2' }] } }));
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { beforeShellExecution: [{ id: 'x', command: 'cat >/dev/null; exit 0' }] } }));
    const env = isolatedEnv(home, {}, { trust: dir });
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } };
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: dir, env, input: JSON.stringify(payload) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('user guard says no');
  });
});
