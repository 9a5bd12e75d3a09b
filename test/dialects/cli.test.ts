// `hooks run --dialect <agent>` as a real process, on each agent's real payload with a dangerous command:
// one config (the command-safety builtin plus a small command hook reading tool_input.command) guards
// every agent, and each gets its own block shape and exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const load = (agent: string, file: string) => JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', agent, file), 'utf8')) as Record<string, any>;

/** A guard written once, Claude-style: it reads tool_input.command and blocks with exit 2. */
const GUARD = `import { readFileSync } from 'node:fs';
const e = JSON.parse(readFileSync(0, 'utf8'));
if (String(e.tool_input?.command ?? '').includes('victim')) {
  process.stderr.write('victim is protected (' + e.hook_event_name + ' ' + e.tool_name + ')');
  process.exit(2);
}
`;

function project() {
  const dir = tmpProject({ 'guard.mjs': GUARD });
  const config = { hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'protect-victim', command: `node ${JSON.stringify(path.join(dir, 'guard.mjs'))}` }] } };
  tmpWrite(dir, config);
  return { dir, env: isolatedEnv(dir) };
}

function tmpWrite(dir: string, config: unknown) {
  // tmpProject made the folder; the config names the guard's absolute path inside it.
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
}

function run(args: string[], payload: unknown) {
  const p = project();
  const r = runCli(['run', ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
  return { ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) };
}

/** The same payload with a command the command-safety builtin blocks. */
function rootWipe(payload: Record<string, any>, at: (p: Record<string, any>) => Record<string, any>) {
  const copy = structuredClone(payload);
  at(copy).command = 'rm -rf /';
  return copy;
}

const SAFETY = expect.stringContaining('command-safety: filesystem-destruction');

describe('one config guards every agent, each answered in its own shape', () => {
  it('claude-code: exit 2, hookSpecificOutput deny, reason on stderr', () => {
    const r = run(['pre-tool-use', '--dialect', 'claude-code'], load('claude', 'PreToolUse.Bash.blocked.json'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse Bash)' } });
    expect(r.stderr).toBe('victim is protected (PreToolUse Bash)\n');
  });

  it('codex: exit 2, the Claude deny', () => {
    const payload = load('codex', 'PreToolUse.Bash.blocked.json');
    const r = run(['PreToolUse', '--dialect', 'codex'], payload);
    expect(r.code).toBe(2);
    expect(r.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse Bash)' });
    const safety = run(['PreToolUse', '--dialect', 'codex'], rootWipe(payload, (p) => p.tool_input));
    expect(safety.code).toBe(2);
    expect(safety.json?.hookSpecificOutput.permissionDecisionReason).toEqual(SAFETY);
  });

  it('gemini: exit 0, decision deny + reason', () => {
    const payload = load('gemini', 'BeforeTool.run_shell_command.blocked.json');
    const r = run(['BeforeTool', '--dialect', 'gemini'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ decision: 'deny', reason: 'victim is protected (PreToolUse run_shell_command)' });
    const safety = run(['BeforeTool', '--dialect', 'gemini'], rootWipe(payload, (p) => p.tool_input));
    expect(safety.json).toEqual({ decision: 'deny', reason: SAFETY });
  });

  it('copilot camelCase: exit 0, flat permissionDecision deny + reason', () => {
    const payload = load('copilot', 'preToolUse.bash.blocked.json');
    const r = run(['preToolUse', '--dialect', 'copilot'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'victim is protected (PreToolUse bash)' });
    const safety = run(['preToolUse', '--dialect', 'copilot'], rootWipe(payload, (p) => p.toolArgs));
    expect(safety.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: SAFETY });
  });

  it('copilot PascalCase: exit 0, flat and nested deny', () => {
    const r = run(['PreToolUse', '--dialect', 'copilot'], load('copilot', 'PreToolUse.Bash.blocked.json'));
    expect(r.code).toBe(0);
    const reason = 'victim is protected (PreToolUse Bash)';
    expect(r.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
  });

  it('cursor preToolUse and beforeShellExecution: exit 0, permission deny + messages', () => {
    const generic = run(['preToolUse', '--dialect', 'cursor'], load('cursor', 'preToolUse.Shell.blocked.json'));
    expect(generic.code).toBe(0);
    expect(generic.json).toEqual({ permission: 'deny', decision: 'deny', reason: 'victim is protected (PreToolUse Shell)', user_message: 'victim is protected (PreToolUse Shell)', agent_message: 'victim is protected (PreToolUse Shell)' });
    const payload = load('cursor', 'beforeShellExecution.blocked.json');
    const granular = run(['beforeShellExecution', '--dialect', 'cursor'], payload);
    expect(granular.json).toEqual({ permission: 'deny', user_message: 'victim is protected (PreToolUse Shell)', agent_message: 'victim is protected (PreToolUse Shell)' });
    const safety = run(['beforeShellExecution', '--dialect', 'cursor'], rootWipe(payload, (p) => p));
    expect(safety.json?.permission).toBe('deny');
    expect(safety.json?.user_message).toEqual(SAFETY);
  });

  it('docker-mcp before:exec: exit 0, an error CallToolResult', () => {
    const payload = load('docker-mcp', 'before.blocked.json');
    const r = run(['before:exec', '--dialect', 'docker-mcp'], payload);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'victim is protected (PreToolUse execute_command)' }], isError: true });
    const safety = run(['before:exec', '--dialect', 'docker-mcp'], rootWipe(payload, (p) => p.params.arguments));
    expect(safety.json).toEqual({ content: [{ type: 'text', text: SAFETY }], isError: true });
  });

  it('a harmless call passes in every dialect: nothing on stdout (Cursor: {}, as it reads empty output as a failure)', () => {
    for (const [args, agent, file, stdout] of [
      [['BeforeTool', '--dialect', 'gemini'], 'gemini', 'BeforeTool.run_shell_command.json', ''],
      [['preToolUse', '--dialect', 'copilot'], 'copilot', 'preToolUse.bash.json', ''],
      [['beforeShellExecution', '--dialect', 'cursor'], 'cursor', 'beforeShellExecution.json', '{}\n'],
      [['before', '--dialect', 'docker-mcp'], 'docker-mcp', 'before.json', ''],
    ] as const) {
      expect(run([...args], load(agent, file))).toMatchObject({ code: 0, stdout, stderr: '' });
    }
  }, 120_000);
});

describe('claude-code rewrites: updatedInput is not an approval', () => {
  /** One PreToolUse hook answering `answer` (JSON) whatever the call. */
  function rewriting(answer: object) {
    const dir = tmpProject({ 'hook.mjs': `process.stdin.resume(); process.stdin.on('end', () => console.log(${JSON.stringify(JSON.stringify(answer))}));` });
    tmpWrite(dir, { hooks: { preToolUse: [{ id: 'rewrite', command: `node ${JSON.stringify(path.join(dir, 'hook.mjs'))}` }] } });
    const r = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env: isolatedEnv(dir), input: JSON.stringify(load('claude', 'PreToolUse.Bash.json')) });
    return { ...r, json: JSON.parse(r.stdout) as Record<string, any> };
  }

  it('a pure rewrite is updatedInput alone: Claude Code still asks its permission for the rewritten call', () => {
    const r = rewriting({ decision: 'modify', reason: 'colour off', updatedInput: { command: 'ls --color=never' } });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls --color=never' } } });
  });

  it('a hook that allows and rewrites (Claude-style) is answered allow + updatedInput', () => {
    const r = rewriting({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'vetted', updatedInput: { command: 'ls' } } });
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
  ])('%s payload, no --dialect, no event name', (agent, file, shape) => {
    const r = run([], load(agent, file));
    expect(r.json).toMatchObject(shape);
  });

  it('an unknown dialect lists them all', () => {
    const r = run(['stop', '--dialect', 'gemni'], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown dialect "gemni" (did you mean "gemini"?); dialects: docker-mcp, windsurf, cursor, augment, codex, qwen-code, factory, gemini, copilot, kiro, goose, claude-code, native');
  });

  it('an agent event with no equivalent takes the forward path: not a runner error', () => {
    const r = run([], load('cursor', 'afterAgentResponse.json'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({});
  });
});
