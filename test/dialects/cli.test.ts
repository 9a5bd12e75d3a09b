// `hooks run --dialect <agent>` on each agent's real payload with a dangerous command: one config (the
// command-safety builtin plus a small command hook reading tool_input.command) guards every agent, and each
// gets its own block shape and exit code. In-process (cliInProcess: the same argv, cwd, env, stdin and exit
// code); the built bin as a real process for an exit 2 and an exit 0 block as the agent's shell sees them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const load = (agent: string, file: string) => JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', agent, file), 'utf8')) as Record<string, any>;

/** A guard written once, Claude-style: it reads tool_input.command and blocks with exit 2 (python3: the dialects are the point, not the language). */
const GUARD = `import json, sys
e = json.load(sys.stdin)
if 'victim' in str((e.get('tool_input') or {}).get('command') or ''):
    sys.stderr.write('victim is protected (' + e['hook_event_name'] + ' ' + e['tool_name'] + ')')
    sys.exit(2)
`;

let shared: { dir: string; env: NodeJS.ProcessEnv } | undefined;
/** One project for the file: the runs keep no state between them (preToolUse, no metadata, no stop counts). */
function project() {
  if (shared !== undefined) return shared;
  const dir = tmpProject({ 'guard.py': GUARD });
  const config = { hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'protect-victim', command: `python3 ${JSON.stringify(path.join(dir, 'guard.py'))}` }] } };
  tmpWrite(dir, config);
  shared = { dir, env: isolatedEnv(dir) };
  return shared;
}

function tmpWrite(dir: string, config: unknown) {
  // tmpProject made the folder; the config names the guard's absolute path inside it.
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
}

const withJson = <R extends { stdout: string }>(r: R) => ({ ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) });

/** `hooks run [args]` in-process, the payload on stdin. */
async function run(args: string[], payload: unknown) {
  const p = project();
  return withJson(await cliInProcess(['run', ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) }));
}

/** The same through the built bin, a real process with the payload on a real stdin pipe. */
function spawnRun(args: string[], payload: unknown) {
  const p = project();
  return withJson(runCli(['run', ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) }));
}

/** The same payload with a command the command-safety builtin blocks. */
function rootWipe(payload: Record<string, any>, at: (p: Record<string, any>) => Record<string, any>) {
  const copy = structuredClone(payload);
  at(copy).command = 'rm -rf /';
  return copy;
}

const SAFETY = expect.stringContaining('command-safety: filesystem-destruction');

describe('one config guards every agent, each answered in its own shape', () => {
  it('claude-code: exit 2, hookSpecificOutput deny, reason on stderr (the built bin)', () => {
    const r = spawnRun(['pre-tool-use', '--dialect', 'claude-code'], load('claude', 'PreToolUse.Bash.blocked.json'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse Bash)' } });
    expect(r.stderr).toBe('victim is protected (PreToolUse Bash)\n');
  });

  it('codex: exit 2, the Claude deny', async () => {
    const payload = load('codex', 'PreToolUse.Bash.blocked.json');
    const r = await run(['PreToolUse', '--dialect', 'codex'], payload);
    expect(r.code).toBe(2);
    expect(r.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse Bash)' });
    const safety = await run(['PreToolUse', '--dialect', 'codex'], rootWipe(payload, (p) => p.tool_input));
    expect(safety.code).toBe(2);
    expect(safety.json?.hookSpecificOutput.permissionDecisionReason).toEqual(SAFETY);
  });

  it('gemini: exit 0, decision deny + reason (the built bin)', async () => {
    const payload = load('gemini', 'BeforeTool.run_shell_command.blocked.json');
    const r = spawnRun(['BeforeTool', '--dialect', 'gemini'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ decision: 'deny', reason: 'victim is protected (PreToolUse run_shell_command)' });
    const safety = await run(['BeforeTool', '--dialect', 'gemini'], rootWipe(payload, (p) => p.tool_input));
    expect(safety.json).toEqual({ decision: 'deny', reason: SAFETY });
  });

  it('copilot camelCase: exit 0, flat permissionDecision deny + reason', async () => {
    const payload = load('copilot', 'preToolUse.bash.blocked.json');
    const r = await run(['preToolUse', '--dialect', 'copilot'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse bash)' });
    const safety = await run(['preToolUse', '--dialect', 'copilot'], rootWipe(payload, (p) => p.toolArgs));
    expect(safety.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: SAFETY });
  });

  it('copilot PascalCase: exit 0, flat and nested deny', async () => {
    const r = await run(['PreToolUse', '--dialect', 'copilot'], load('copilot', 'PreToolUse.Bash.blocked.json'));
    expect(r.code).toBe(0);
    const reason = 'victim is protected (PreToolUse Bash)';
    expect(r.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
  });

  it('cursor preToolUse and beforeShellExecution: exit 0, permission deny + messages', async () => {
    const generic = await run(['preToolUse', '--dialect', 'cursor'], load('cursor', 'preToolUse.Shell.blocked.json'));
    expect(generic.code).toBe(0);
    expect(generic.json).toEqual({ permission: 'deny', decision: 'deny', reason: 'victim is protected (PreToolUse Shell)', user_message: 'victim is protected (PreToolUse Shell)', agent_message: 'victim is protected (PreToolUse Shell)' });
    const payload = load('cursor', 'beforeShellExecution.blocked.json');
    const granular = await run(['beforeShellExecution', '--dialect', 'cursor'], payload);
    expect(granular.json).toEqual({ permission: 'deny', user_message: 'victim is protected (PreToolUse Shell)', agent_message: 'victim is protected (PreToolUse Shell)' });
    const safety = await run(['beforeShellExecution', '--dialect', 'cursor'], rootWipe(payload, (p) => p));
    expect(safety.json?.permission).toBe('deny');
    expect(safety.json?.user_message).toEqual(SAFETY);
  });

  it('docker-mcp before:exec: exit 0, an error CallToolResult', async () => {
    const payload = load('docker-mcp', 'before.blocked.json');
    const r = await run(['before:exec', '--dialect', 'docker-mcp'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'victim is protected (PreToolUse execute_command)' }], isError: true });
    const safety = await run(['before:exec', '--dialect', 'docker-mcp'], rootWipe(payload, (p) => p.params.arguments));
    expect(safety.json).toEqual({ content: [{ type: 'text', text: SAFETY }], isError: true });
  });

  it('a harmless call passes in every dialect: nothing on stdout (Cursor: {}, as it reads empty output as a failure)', async () => {
    for (const [args, agent, file, stdout] of [
      [['BeforeTool', '--dialect', 'gemini'], 'gemini', 'BeforeTool.run_shell_command.json', ''],
      [['preToolUse', '--dialect', 'copilot'], 'copilot', 'preToolUse.bash.json', ''],
      [['beforeShellExecution', '--dialect', 'cursor'], 'cursor', 'beforeShellExecution.json', '{}\n'],
      [['before', '--dialect', 'docker-mcp'], 'docker-mcp', 'before.json', ''],
    ] as const) {
      expect(await run([...args], load(agent, file))).toMatchObject({ code: 0, stdout, stderr: '' });
    }
  }, 120_000);
});

describe('claude-code rewrites: updatedInput is not an approval', () => {
  /** One PreToolUse hook answering `answer` (JSON) whatever the call. */
  async function rewriting(answer: object) {
    const dir = tmpProject({ 'hook.py': `import sys\nsys.stdin.read()\nprint(${JSON.stringify(JSON.stringify(answer))})\n` });
    tmpWrite(dir, { hooks: { preToolUse: [{ id: 'rewrite', command: `python3 ${JSON.stringify(path.join(dir, 'hook.py'))}` }] } });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env: isolatedEnv(dir), input: JSON.stringify(load('claude', 'PreToolUse.Bash.json')) });
    return { ...r, json: JSON.parse(r.stdout) as Record<string, any> };
  }

  it('a pure rewrite is updatedInput alone: Claude Code still asks its permission for the rewritten call', async () => {
    const r = await rewriting({ decision: 'modify', reason: 'colour off', updatedInput: { command: 'ls --color=never' } });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls --color=never' } } });
  });

  it('a hook that allows and rewrites (Claude-style) is answered allow + updatedInput', async () => {
    const r = await rewriting({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'vetted', updatedInput: { command: 'ls' } } });
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'vetted', updatedInput: { command: 'ls' } } });
  });
});

describe('auto-detection from the CLI', () => {
  it.each([
    ['gemini', 'BeforeTool.run_shell_command.blocked.json', { decision: 'deny' }],
    ['codex', 'PreToolUse.Bash.blocked.json', { hookSpecificOutput: expect.objectContaining({ permissionDecision: 'deny' }) }],
    ['cursor', 'beforeShellExecution.blocked.json', { permission: 'deny' }],
    ['docker-mcp', 'before.blocked.json', { isError: true }],
    ['copilot', 'PreToolUse.Bash.blocked.json', { permissionDecision: 'deny' }],
  ])('%s payload, no --dialect, no event name', async (agent, file, shape) => {
    const r = await run([], load(agent, file));
    expect(r.json).toMatchObject(shape);
  });

  it('an unknown dialect lists them all', async () => {
    const r = await run(['stop', '--dialect', 'gemni'], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown dialect "gemni" (did you mean "gemini"?); dialects: docker-mcp, windsurf, cursor, augment, codex, qwen-code, factory, gemini, copilot, kiro, goose, claude-code, native');
  });

  it('an agent event with no equivalent takes the forward path: not a runner error', async () => {
    const r = await run([], load('cursor', 'afterAgentResponse.json'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({});
  });
});
