// `hooks install` / `hooks uninstall` for every agent whose hooks live in a JSON file, on real temp files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES } from '../../src/dialects/index.js';
import { EVENTS, NOT_CLAUDE_CODE } from '../../src/events/catalog.js';
import { MODEL_EVENTS } from '../../src/events/model-request.js';
import { ROOT, tmpProject, trustProject } from '../helpers.js';
import { backupLabel, backupOf, BIN, dependentProject, hooks, MARK, testEnv } from './kit.js';

type Json = Record<string, any>;

interface AgentCase {
  agent: string;
  dialect: string;
  /** The project file, relative to the project. */
  project: string;
  /** The user file, relative to the home folder, and the env variable that moves it (with the folder it names). */
  user: string;
  userEnv?: { name: string; file: (dir: string) => string };
  /** The agent's event keys, in the order written, each with the CLI event it runs. */
  events: Record<string, string>;
  /** The command and timeout (in the agent's unit) of our entry in an event list. */
  ours(entry: Json): { command: string; timeout: number };
  timeout: number;
  /** The events --user registers, when not the same as --project's. */
  userEvents?: Record<string, string>;
  /** The timeout of the entry on this agent event, when it differs per event. */
  timeoutOf?: (agentEvent: string) => number;
  /** An entry the user wrote, on the first event. */
  userEntry: Json;
  /** Top-level keys a new file has besides `hooks`. */
  skeleton: Json;
  /** What install says on stderr after a change (a step the agent asks for). */
  note?: string;
  /** The project folder as the installed command names it. */
  projectDir: string;
  /** The environment the agent gives its hooks, naming the project folder. */
  agentEnv(dir: string): Record<string, string>;
}

const nested = (entry: Json) => {
  expect(Object.keys(entry)).toEqual(['hooks']);
  expect(entry.hooks).toHaveLength(1);
  return { command: entry.hooks[0].command as string, timeout: entry.hooks[0].timeout as number };
};

const CASES: AgentCase[] = [
  {
    agent: 'claude-code',
    dialect: 'claude-code',
    project: '.claude/settings.json',
    user: '.claude/settings.json',
    userEnv: { name: 'CLAUDE_CONFIG_DIR', file: (dir) => path.join(dir, 'settings.json') },
    // --project registers the events the config uses: here (no config) the default guards' events.
    events: { PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit' },
    ours: (entry) => {
      expect(Object.keys(entry).filter((k) => k !== 'matcher')).toEqual(['hooks']);
      expect(entry.hooks).toHaveLength(1);
      return { command: entry.hooks[0].command as string, timeout: entry.hooks[0].timeout as number };
    },
    timeout: 60,
    // --user serves every project: every Claude Code event (the model events are Gemini CLI's, Interrupt is Codex's, the rest pi's).
    userEvents: Object.fromEntries(EVENTS.filter((e) => !MODEL_EVENTS.includes(e.name) && !NOT_CLAUDE_CODE.includes(e.name)).map((e) => [e.claude, e.cli])),
    // Two builtin guards in a row (30 s each) plus the 10 s margin.
    timeoutOf: (event) => (event === 'PreToolUse' ? 70 : 60),
    userEntry: { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] },
    skeleton: {},
    projectDir: '"$CLAUDE_PROJECT_DIR"',
    agentEnv: (dir) => ({ CLAUDE_PROJECT_DIR: dir }),
  },
  {
    agent: 'codex',
    dialect: 'codex',
    project: '.codex/hooks.json',
    user: '.codex/hooks.json',
    userEnv: { name: 'CODEX_HOME', file: (dir) => path.join(dir, 'hooks.json') },
    events: {
      PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop',
      SubagentStop: 'subagent-stop', PreCompact: 'pre-compact', SessionStart: 'session-start', SessionEnd: 'session-end',
      // Codex 0.171's own (hook keys of its config schema): the same events under Claude's names, and Interrupt.
      PermissionRequest: 'permission-request', PostCompact: 'post-compact', SubagentStart: 'subagent-start', Interrupt: 'interrupt',
    },
    ours: nested,
    timeout: 60,
    userEntry: { matcher: '^Bash$', hooks: [{ type: 'command', command: 'python3 .codex/guard.py', statusMessage: 'checking' }] },
    skeleton: {},
    note: 'agent-hooks: note: codex runs a hook only once you trust it: review the new ones with /hooks\n',
    projectDir: '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"',
    agentEnv: () => ({}),
  },
  {
    agent: 'gemini',
    dialect: 'gemini',
    project: '.gemini/settings.json',
    user: '.gemini/settings.json',
    events: {
      BeforeTool: 'pre-tool-use', AfterTool: 'post-tool-use', BeforeAgent: 'user-prompt-submit', AfterAgent: 'stop',
      PreCompress: 'pre-compact', SessionStart: 'session-start', SessionEnd: 'session-end', Notification: 'notification',
    },
    ours(entry) {
      const { command, timeout } = nested(entry);
      expect(entry.hooks[0]).toMatchObject({ type: 'command', name: expect.stringMatching(/^agent-hooks-/) });
      return { command, timeout };
    },
    timeout: 60_000,
    userEntry: { matcher: 'write_file|replace', hooks: [{ type: 'command', name: 'fmt', command: 'npx prettier --check', timeout: 5000 }] },
    skeleton: {},
    projectDir: '"$GEMINI_PROJECT_DIR"',
    agentEnv: (dir) => ({ GEMINI_PROJECT_DIR: dir }),
  },
  {
    agent: 'cursor',
    dialect: 'cursor',
    project: '.cursor/hooks.json',
    user: '.cursor/hooks.json',
    events: {
      preToolUse: 'pre-tool-use', postToolUse: 'post-tool-use', postToolUseFailure: 'post-tool-use-failure',
      beforeSubmitPrompt: 'user-prompt-submit', stop: 'stop', subagentStop: 'subagent-stop', preCompact: 'pre-compact',
      sessionStart: 'session-start', sessionEnd: 'session-end',
    },
    ours: (entry) => {
      expect(Object.keys(entry)).toEqual(['command', 'timeout']);
      return { command: entry.command, timeout: entry.timeout };
    },
    timeout: 60,
    userEntry: { command: './hooks/audit.sh', matcher: 'Shell' },
    skeleton: { version: 1 },
    projectDir: '"${CURSOR_PROJECT_DIR:-.}"',
    agentEnv: (dir) => ({ CURSOR_PROJECT_DIR: dir }),
  },
  {
    agent: 'copilot',
    dialect: 'copilot',
    project: '.github/hooks/agent-hooks.json',
    user: '.copilot/hooks/agent-hooks.json',
    userEnv: { name: 'COPILOT_HOME', file: (dir) => path.join(dir, 'hooks', 'agent-hooks.json') },
    events: {
      preToolUse: 'pre-tool-use', postToolUse: 'post-tool-use', postToolUseFailure: 'post-tool-use-failure',
      userPromptSubmitted: 'user-prompt-submit', agentStop: 'stop', subagentStop: 'subagent-stop', preCompact: 'pre-compact',
      sessionStart: 'session-start', sessionEnd: 'session-end', notification: 'notification',
    },
    ours: (entry) => {
      expect(entry).toMatchObject({ type: 'command' });
      expect(Object.keys(entry)).toEqual(['type', 'bash', 'timeoutSec']);
      return { command: entry.bash, timeout: entry.timeoutSec };
    },
    timeout: 60,
    userEntry: { type: 'command', bash: './scripts/log.sh', timeoutSec: 10 },
    skeleton: { version: 1 },
    projectDir: '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"',
    agentEnv: () => ({}),
  },
  {
    agent: 'qwen-code',
    dialect: 'qwen-code',
    project: '.qwen/settings.json',
    user: '.qwen/settings.json',
    events: {
      PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop', SubagentStop: 'subagent-stop',
      PreCompact: 'pre-compact', SessionStart: 'session-start', SessionEnd: 'session-end', Notification: 'notification', PostToolUseFailure: 'post-tool-use-failure',
    },
    ours: nested,
    timeout: 60,
    userEntry: { matcher: 'run_shell_command', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] },
    skeleton: {},
    projectDir: '"$QWEN_PROJECT_DIR"',
    agentEnv: (dir) => ({ QWEN_PROJECT_DIR: dir }),
  },
  {
    agent: 'factory',
    dialect: 'factory',
    project: '.factory/settings.json',
    user: '.factory/settings.json',
    events: {
      PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop', SubagentStop: 'subagent-stop',
      PreCompact: 'pre-compact', SessionStart: 'session-start', SessionEnd: 'session-end', Notification: 'notification',
    },
    ours: nested,
    timeout: 60,
    userEntry: { matcher: 'Execute', hooks: [{ type: 'command', command: './guard.sh' }] },
    skeleton: {},
    note: 'agent-hooks: note: newer droid releases read .factory/hooks.json when it exists and then ignore settings.json hooks; check /hooks in droid\n',
    projectDir: '"$FACTORY_PROJECT_DIR"',
    agentEnv: (dir) => ({ FACTORY_PROJECT_DIR: dir }),
  },
  {
    agent: 'augment',
    dialect: 'augment',
    project: '.augment/settings.json',
    user: '.augment/settings.json',
    events: { PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', PromptSubmit: 'user-prompt-submit', Stop: 'stop', SessionStart: 'session-start', SessionEnd: 'session-end', Notification: 'notification' },
    ours: nested,
    timeout: 60_000,
    userEntry: { matcher: 'launch-process', hooks: [{ type: 'command', command: './guard.sh', timeout: 5000 }] },
    skeleton: {},
    projectDir: '"$AUGMENT_PROJECT_DIR"',
    agentEnv: (dir) => ({ AUGMENT_PROJECT_DIR: dir }),
  },
  {
    agent: 'tabnine',
    dialect: 'gemini',
    project: '.tabnine/agent/settings.json',
    user: '.tabnine/agent/settings.json',
    events: {
      BeforeTool: 'pre-tool-use', AfterTool: 'post-tool-use', BeforeAgent: 'user-prompt-submit', AfterAgent: 'stop',
      PreCompress: 'pre-compact', SessionStart: 'session-start', SessionEnd: 'session-end', Notification: 'notification',
    },
    ours: nested,
    timeout: 60_000,
    userEntry: { matcher: 'write_file|replace', hooks: [{ type: 'command', name: 'validate-write', command: 'node hooks/validate.js', timeout: 5000 }] },
    skeleton: {},
    projectDir: '"$TABNINE_PROJECT_DIR"',
    agentEnv: (dir) => ({ TABNINE_PROJECT_DIR: dir }),
  },
  {
    agent: 'windsurf',
    dialect: 'windsurf',
    project: '.windsurf/hooks.json',
    user: '.codeium/windsurf/hooks.json',
    events: {
      pre_run_command: 'pre-tool-use', pre_read_code: 'pre-tool-use', pre_write_code: 'pre-tool-use', pre_mcp_tool_use: 'pre-tool-use', pre_user_prompt: 'user-prompt-submit',
      post_run_command: 'post-tool-use', post_write_code: 'post-tool-use', post_mcp_tool_use: 'post-tool-use', post_cascade_response: 'stop',
    },
    ours: (entry) => {
      expect(Object.keys(entry)).toEqual(['command', 'show_output']);
      // Cascade has no timeout setting: the "timeout" checked is the runner's own default, not written.
      return { command: entry.command, timeout: 60 };
    },
    timeout: 60,
    userEntry: { command: 'python3 .windsurf/audit.py', show_output: true },
    skeleton: {},
    projectDir: '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"',
    agentEnv: () => ({}),
  },
  {
    // Written from goose's docs (its plugins' hooks/hooks.json); goose itself is not on npm, so no e2e test.
    agent: 'goose',
    dialect: 'goose',
    project: '.agents/plugins/agent-hooks/hooks/hooks.json',
    user: '.agents/plugins/agent-hooks/hooks/hooks.json',
    events: {
      PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', PostToolUseFailure: 'post-tool-use-failure', UserPromptSubmit: 'user-prompt-submit',
      Stop: 'stop', SessionStart: 'session-start', SessionEnd: 'session-end',
    },
    ours: nested,
    timeout: 60,
    userEntry: { matcher: 'developer__shell', hooks: [{ type: 'command', command: '${PLUGIN_ROOT}/scripts/block-sudo.sh', on_failure: 'block' }] },
    skeleton: {},
    note: 'agent-hooks: note: goose loads project plugins when it starts in the project; restart goose, and list "agent-hooks" nowhere in disabledPlugins\n',
    projectDir: '"$PLUGIN_ROOT/../../.."',
    agentEnv: (dir) => ({ PLUGIN_ROOT: path.join(dir, '.agents', 'plugins', 'agent-hooks') }),
  },
];

function setup(files: Record<string, string> = {}) {
  return { dir: dependentProject(files), home: tmpProject() };
}

const read = (file: string) => readFileSync(file, 'utf8');
const readJson = (file: string) => JSON.parse(read(file)) as Json;

describe.each(CASES)('$agent', (c) => {
  const expectedCommand = (event: string) => `${c.projectDir}/node_modules/.bin/agent-hooks run ${event} --dialect ${c.dialect}${MARK}`;
  const userCommand = (event: string) => `${BIN} run ${event} --dialect ${c.dialect}${MARK}`;
  const firstEvent = Object.keys(c.events)[0]!;
  /** A file the user wrote: an entry of theirs, unrelated keys, four-space indentation. */
  const userFile = () => {
    const doc = { ...c.skeleton, model: 'fast', hooks: { [firstEvent]: [c.userEntry], Custom: [] }, extra: { nested: [1, 2, { a: null }] } };
    return `${JSON.stringify(doc, null, 4)}\n`;
  };

  it('fresh install: one entry of ours on every event the agent has, each running the real bin', async () => {
    const { dir, home } = setup();
    const r = await hooks(['install', c.agent], dir, home);
    expect(r).toEqual({ code: 0, stdout: `created ${c.project}: ${Object.keys(c.events).length} agent-hooks entries installed\n`, stderr: c.note ?? '' });
    const doc = readJson(path.join(dir, c.project));
    expect(Object.keys(doc)).toEqual([...Object.keys(c.skeleton), 'hooks']);
    for (const [key, value] of Object.entries(c.skeleton)) expect(doc[key]).toEqual(value);
    expect(Object.keys(doc.hooks)).toEqual(Object.keys(c.events));
    for (const [agentEvent, cliEvent] of Object.entries(c.events)) {
      expect(doc.hooks[agentEvent]).toHaveLength(1);
      expect(c.ours(doc.hooks[agentEvent][0])).toEqual({ command: expectedCommand(cliEvent), timeout: c.timeoutOf?.(agentEvent) ?? c.timeout });
    }
    expect(existsSync(path.join(dir, `${c.project}.agent-hooks.bak`))).toBe(false);
    expect(backupOf(path.join(dir, c.project), home).before).toBeNull();
    expect(existsSync(path.join(home, c.user))).toBe(false);
  });

  it('a second install changes nothing and says so', async () => {
    const { dir, home } = setup({ [c.project]: userFile() });
    await hooks(['install', c.agent], dir, home);
    const file = path.join(dir, c.project);
    const first = read(file);
    const r = await hooks(['install', c.agent], dir, home);
    expect(r).toEqual({ code: 0, stdout: `unchanged ${c.project}: agent-hooks is already installed, nothing to do\n`, stderr: '' });
    expect(read(file)).toBe(first);
    // The backup still holds the user's file, not our first install.
    expect(backupOf(file, home).before).toBe(userFile());
    // A second, different install (fail-closed) chains: the original stays the state to go back to.
    await hooks(['install', c.agent, '--fail-closed'], dir, home);
    expect(backupOf(file, home)).toMatchObject({ before: userFile(), after: read(file) });
  });

  it("installs next to the user's hooks: theirs kept in place, unrelated keys and indentation untouched, backup written", async () => {
    const original = userFile();
    const { dir, home } = setup({ [c.project]: original });
    const file = path.join(dir, c.project);
    const r = await hooks(['install', c.agent], dir, home);
    expect(r.stdout).toBe(`updated ${c.project}: ${Object.keys(c.events).length} agent-hooks entries installed (backup: ${backupLabel(file, home)})\n`);
    expect(backupOf(file, home).before).toBe(original);
    expect(existsSync(`${file}.agent-hooks.bak`)).toBe(false);
    const text = read(file);
    expect(text).toMatch(/^\{\n {4}"/);
    const doc = readJson(file);
    const before = JSON.parse(original) as Json;
    expect(Object.keys(doc)).toEqual(Object.keys(before));
    expect(doc.model).toBe('fast');
    expect(doc.extra).toEqual(before.extra);
    // The user's entry first, unchanged; ours after it. Their empty list of an unknown event stays.
    expect(doc.hooks[firstEvent]).toHaveLength(2);
    expect(doc.hooks[firstEvent][0]).toEqual(c.userEntry);
    expect(c.ours(doc.hooks[firstEvent][1]).command).toBe(expectedCommand(c.events[firstEvent]!));
    expect(doc.hooks.Custom).toEqual([]);
    expect(Object.keys(doc.hooks)).toEqual([firstEvent, 'Custom', ...Object.keys(c.events).slice(1)]);
  });

  it('uninstall removes only ours: the file is the user\'s again, byte for byte', async () => {
    const original = userFile();
    const { dir, home } = setup({ [c.project]: original });
    const file = path.join(dir, c.project);
    await hooks(['install', c.agent], dir, home);
    // The user adds an entry after ours; it must survive, in its place.
    const doc = readJson(file);
    doc.hooks[firstEvent].push({ ...c.userEntry, later: true });
    const installed = `${JSON.stringify(doc, null, 4)}\n`;
    (await import('node:fs')).writeFileSync(file, installed);

    const r = await hooks(['uninstall', c.agent], dir, home);
    expect(r).toEqual({
      code: 0,
      stdout: `updated ${c.project}: ${Object.keys(c.events).length} agent-hooks entries removed (backup: ${backupLabel(file, home)})\n`,
      stderr: '',
    });
    expect(backupOf(file, home).before).toBe(installed);
    const expected = JSON.parse(original) as Json;
    expected.hooks[firstEvent].push({ ...c.userEntry, later: true });
    expect(read(file)).toBe(`${JSON.stringify(expected, null, 4)}\n`);

    const again = await hooks(['uninstall', c.agent], dir, home);
    expect(again.stdout).toBe(`unchanged ${c.project}: no agent-hooks entries in it, nothing to do\n`);
  });

  it('install then uninstall on a fresh project leaves nothing behind: no file, no `{}`, no backup beside it', async () => {
    const { dir, home } = setup();
    const before = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    await hooks(['install', c.agent], dir, home);
    const r = await hooks(['uninstall', c.agent], dir, home);
    const file = path.join(dir, c.project);
    expect(r).toEqual({ code: 0, stdout: `removed ${c.project}: ${Object.keys(c.events).length} agent-hooks entries removed, nothing else was in it (backup: ${backupLabel(file, home)})\n`, stderr: '' });
    expect(existsSync(file)).toBe(false);
    // The folder install made (.claude/) may stay; no file of ours does.
    expect(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => !before.includes(f) && statSync(path.join(dir, f)).isFile())).toEqual([]);
    expect((await hooks(['uninstall', c.agent], dependentProject(), home)).stdout).toBe(`unchanged ${c.project}: not found, nothing to do\n`);
  });

  it('install then uninstall gives back the user\'s file byte for byte, compact entries and odd spacing included', async () => {
    const compact = `{ "model":"fast",\n  "hooks": {"${firstEvent}": [${JSON.stringify(c.userEntry)}], "Custom":[ ]},\n\t"extra": [1,2 ,3] }`;
    const { dir, home } = setup({ [c.project]: compact });
    const file = path.join(dir, c.project);
    await hooks(['install', c.agent], dir, home);
    expect(read(file)).not.toBe(compact);
    expect((await hooks(['uninstall', c.agent], dir, home)).code).toBe(0);
    expect(read(file)).toBe(compact);
  });

  it('a compact entry of the user\'s stays compact when uninstall has to take ours out of an edited file', async () => {
    const { dir, home } = setup();
    const file = path.join(dir, c.project);
    await hooks(['install', c.agent], dir, home);
    // Edited since install (no longer our bytes): uninstall takes only our entries out.
    const edited = read(file).replace(/\n\}\n$/, `,\n  "mine": {"a":1,  "b":[1,2]}\n}\n`);
    writeFileSync(file, edited);
    await hooks(['uninstall', c.agent], dir, home);
    expect(read(file)).toContain('"mine": {"a":1,  "b":[1,2]}');
  });

  it('--dry-run writes nothing and prints a unified diff', async () => {
    const original = userFile();
    const { dir, home } = setup({ [c.project]: original });
    const file = path.join(dir, c.project);
    const r = await hooks(['install', c.agent, '--dry-run'], dir, home);
    expect(r.code).toBe(0);
    expect(read(file)).toBe(original);
    expect(existsSync(path.join(home, '.local', 'state', 'agent-hooks', 'install'))).toBe(false);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`--- a/${c.project}`);
    expect(lines[1]).toBe(`+++ b/${c.project}`);
    expect(lines[2]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
    // As JSON writes it: the quotes around the project variable escaped.
    // One line per agent event running that command (Windsurf runs pre-tool-use on four).
    const same = Object.values(c.events).filter((e) => e === c.events[firstEvent]).length;
    expect(lines.filter((l) => l.startsWith('+') && l.includes(JSON.stringify(expectedCommand(c.events[firstEvent]!)).slice(1, -1)))).toHaveLength(same);
    expect(r.stdout.endsWith(`would update ${c.project}: ${Object.keys(c.events).length} agent-hooks entries installed; dry run, nothing written\n`)).toBe(true);

    await hooks(['install', c.agent], dir, home);
    const installed = read(file);
    const un = await hooks(['uninstall', c.agent, '--dry-run'], dir, home);
    expect(read(file)).toBe(installed);
    expect(un.stdout).toContain(`-`);
    expect(un.stdout.split('\n').filter((l) => l.startsWith('-') && l.includes(MARK))).toHaveLength(Object.keys(c.events).length);
    expect(un.stdout.split('\n').filter((l) => l.startsWith('+') && l.includes(MARK))).toEqual([]);
    expect(un.stdout).toMatch(/would update .*; dry run, nothing written\n$/);
  });

  it('--user writes under the injected home, running the global copy by its absolute path', async () => {
    const { dir, home } = setup();
    const r = await hooks(['install', c.agent, '--user'], dir, home);
    const userEvents = c.userEvents ?? c.events;
    expect(r.stdout).toBe(`created ~/${c.user}: ${Object.keys(userEvents).length} agent-hooks entries installed\n`);
    const doc = readJson(path.join(home, c.user));
    expect(Object.keys(doc.hooks)).toEqual(Object.keys(userEvents));
    expect(c.ours(doc.hooks[firstEvent][0]).command).toBe(userCommand(c.events[firstEvent]!));
    expect(existsSync(path.join(dir, c.project))).toBe(false);
    expect((await hooks(['uninstall', c.agent, '--user'], dir, home)).code).toBe(0);
    if (c.userEnv !== undefined) {
      const elsewhere = tmpProject();
      await hooks(['install', c.agent, '--user'], dir, home, { [c.userEnv.name]: elsewhere });
      expect(existsSync(c.userEnv.file(elsewhere))).toBe(true);
    }
  });

  it('a file that is not JSON is a one-line error naming it, and is left alone', async () => {
    const broken = '{\n  "hooks": {,\n}\n';
    const { dir, home } = setup({ [c.project]: broken });
    const file = path.join(dir, c.project);
    for (const command of ['install', 'uninstall']) {
      const r = await hooks([command, c.agent], dir, home);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^agent-hooks: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.+\\); fix it first, agent-hooks will not overwrite it\n$`));
      expect(read(file)).toBe(broken);
      expect(existsSync(`${file}.agent-hooks.bak`)).toBe(false);
    }
  });

  it('a "hooks" key of the wrong shape is an error naming the key', async () => {
    const { dir, home } = setup({ [c.project]: JSON.stringify({ hooks: { [firstEvent]: { command: 'x' } } }) });
    const r = await hooks(['install', c.agent], dir, home);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`agent-hooks: ${path.join(dir, c.project)}: hooks.${firstEvent} is not an array; agent-hooks will not change it\n`);
  });

  it('an old entry of ours is updated in place; ours on events no longer mapped go', async () => {
    const stale = (command: string) => (c.agent === 'cursor' || c.agent === 'windsurf' ? { command, timeout: 5 } : c.agent === 'copilot' ? { type: 'command', bash: command, timeoutSec: 5 } : { hooks: [{ type: 'command', command, timeout: 5 }] });
    const doc = {
      ...c.skeleton,
      hooks: {
        [firstEvent]: [stale(`/old/place/hooks.js run pre-tool-use --dialect ${c.dialect}${MARK}`), c.userEntry],
        RetiredEvent: [stale(`/old/place/hooks.js run retired --dialect ${c.dialect}${MARK}`)],
      },
    };
    const { dir, home } = setup({ [c.project]: JSON.stringify(doc, null, 2) });
    const r = await hooks(['install', c.agent], dir, home);
    expect(r.stdout).toMatch(/^updated /);
    const after = readJson(path.join(dir, c.project));
    expect(c.ours(after.hooks[firstEvent][0])).toEqual({ command: expectedCommand(c.events[firstEvent]!), timeout: c.timeoutOf?.(firstEvent) ?? c.timeout });
    expect(after.hooks[firstEvent][1]).toEqual(c.userEntry);
    expect(after.hooks).not.toHaveProperty('RetiredEvent');
  });

  // The other dialects are being written alongside; each agent's check runs once its dialect exists.
  it.skipIf(!DIALECT_NAMES.includes(c.dialect))('the installed command runs the project\'s bin (as the agent runs it) and blocks a real payload', async () => {
    const { dir, home } = setup();
    // The user layer (trusted), not a project file: only the launcher is under test here.
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify(BLOCKING_CONFIG));
    await hooks(['install', c.agent], dir, home);
    const command = c.ours(readJson(path.join(dir, c.project)).hooks[firstEvent].at(-1)).command;
    const source = BLOCKED_PAYLOAD[c.agent]!;
    const payload = typeof source === 'string' ? readFileSync(path.join(PAYLOADS, source), 'utf8') : JSON.stringify(source);
    // The project is also cloned elsewhere: the same committed file works there.
    const env = { ...testEnv(home), ...c.agentEnv(dir) };
    trustProject(dir, env);
    const r = spawnSync('sh', ['-c', command], { cwd: dir, env, input: payload, encoding: 'utf8', timeout: 30_000 });
    if (c.agent === 'windsurf' || c.agent === 'goose') {
      // Cascade and goose read no JSON: exit 2 and the reason on stderr.
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('victim is protected');
    } else if (c.agent === 'claude-code') {
      expect(r.status).toBe(2);
      expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'victim is protected' } });
    } else {
      // Each dialect says "deny" its own way (exit 0 + JSON for Gemini, Cursor, Copilot).
      expect([0, 2]).toContain(r.status);
      expect(JSON.stringify(JSON.parse(r.stdout))).toMatch(/"deny".*victim is protected|victim is protected.*"deny"/);
    }
  });
});

const PAYLOADS = path.join(ROOT, 'test', 'fixtures', 'payloads');

/** A project config that blocks any shell command touching "victim", as the real payloads below do. */
const BLOCKING_CONFIG = {
  hooks: { preToolUse: [{ id: 'protect-victim', command: "echo 'victim is protected' >&2; exit 2", match: 'exec', if: { command: '*victim*' } }] },
};

/** A real payload of each agent running `rm -rf ./victim` (test/fixtures/payloads; Cursor's from its docs). */
const BLOCKED_PAYLOAD: Record<string, string | Json> = {
  'claude-code': 'claude/PreToolUse.Bash.blocked.json',
  codex: 'codex/PreToolUse.Bash.blocked.json',
  gemini: 'gemini/BeforeTool.run_shell_command.blocked.json',
  copilot: 'copilot/preToolUse.bash.blocked.json',
  'qwen-code': 'qwen-code/PreToolUse.blocked.json',
  factory: 'factory/PreToolUse.json',
  augment: 'augment/PreToolUse.json',
  tabnine: 'gemini/BeforeTool.run_shell_command.blocked.json',
  windsurf: 'windsurf/pre_run_command.json',
  goose: { event: 'PreToolUse', session_id: 's1', matcher_context: 'developer__shell', tool_name: 'developer__shell', tool_input: { command: 'rm -rf ./victim' }, working_dir: '/home/dev/project', tool_call_id: 'c1' },
  cursor: {
    conversation_id: 'c1', generation_id: 'g1', hook_event_name: 'preToolUse', cwd: '/home/dev/project', workspace_roots: ['/home/dev/project'],
    tool_name: 'Shell', tool_input: { command: 'rm -rf ./victim' }, tool_use_id: 't1',
  },
};

describe('usage errors', () => {
  it.each([
    [['install'], 'agent-hooks: name an agent: claude-code, codex, gemini, cursor, copilot, opencode, qwen-code, factory, augment, tabnine, windsurf, kiro, cline, goose, pi, omp, openclaw\n'],
    [['install', 'claude'], 'agent-hooks: unknown agent "claude"; agents: claude-code, codex, gemini, cursor, copilot, opencode, qwen-code, factory, augment, tabnine, windsurf, kiro, cline, goose, pi, omp, openclaw\n'],
    [['uninstall', 'gemeni'], 'agent-hooks: unknown agent "gemeni" (did you mean "gemini"?); agents: claude-code, codex, gemini, cursor, copilot, opencode, qwen-code, factory, augment, tabnine, windsurf, kiro, cline, goose, pi, omp, openclaw\n'],
    // VS Code reads the files the claude-code and copilot installers write: refused, naming the one that covers it.
    [['install', 'vscode'], 'agent-hooks: VS Code has no hook file of its own: it runs the hooks in .claude/settings*.json and .github/hooks/*.json, so "hooks install claude-code" covers it (add copilot as well and VS Code runs every hook twice)\n'],
    [['uninstall', 'vscode'], 'agent-hooks: VS Code has no hook file of its own: it runs the hooks in .claude/settings*.json and .github/hooks/*.json, so "hooks install claude-code" covers it (add copilot as well and VS Code runs every hook twice)\n'],
    [['install', 'codex', '--project', '--user'], 'agent-hooks: --project and --user: choose one\n'],
    [['install', 'codex', '--timeout', '1.5'], 'agent-hooks: --timeout: expected a whole number of seconds, got "1.5"\n'],
  ])('%j', async (args, message) => {
    const { dir, home } = setup();
    expect(await hooks(args, dir, home)).toEqual({ code: 1, stdout: '', stderr: message });
  });

  it('--timeout sets every entry\'s timeout, in the agent\'s unit', async () => {
    const { dir, home } = setup();
    await hooks(['install', 'gemini', '--timeout', '90'], dir, home);
    expect(readJson(path.join(dir, '.gemini/settings.json')).hooks.BeforeTool[0].hooks[0].timeout).toBe(90_000);
  });

  it('--help shows usage, options and examples', async () => {
    for (const command of ['install', 'uninstall']) {
      const r = await hooks([command, '--help'], tmpProject(), tmpProject());
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: hooks ${command} <agent>`));
      expect(r.stdout).toContain('--dry-run');
      expect(r.stdout).toContain('Examples:');
    }
  });
});

describe('a hook of ours the user moved into their own group', () => {
  it('is taken out of the group on uninstall; their handler stays', async () => {
    const ours = `${BIN} run pre-tool-use --dialect claude-code${MARK}`;
    const doc = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }, { type: 'command', command: ours }] }] } };
    const { dir, home } = setup({ '.claude/settings.json': JSON.stringify(doc) });
    await hooks(['uninstall', 'claude-code'], dir, home);
    expect(readJson(path.join(dir, '.claude/settings.json'))).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }] }] } });
  });
});

describe('goose --fail-closed', () => {
  it("sets goose's own switch, on_failure: block, on PreToolUse only (goose reads it nowhere else)", async () => {
    const { dir, home } = setup();
    expect((await hooks(['install', 'goose', '--fail-closed'], dir, home)).code).toBe(0);
    const doc = readJson(path.join(dir, '.agents/plugins/agent-hooks/hooks/hooks.json'));
    expect(doc.hooks.PreToolUse[0].hooks[0]).toMatchObject({ on_failure: 'block', command: expect.stringContaining('run pre-tool-use --dialect goose --on-error block') });
    for (const event of Object.keys(doc.hooks).filter((e) => e !== 'PreToolUse')) expect(doc.hooks[event][0].hooks[0]).not.toHaveProperty('on_failure');
  });
});
