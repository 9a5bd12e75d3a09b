// Shadow (audit) mode for every hook: `audit: true` runs it, reports what it would have decided
// (--verbose, explain, the audit log), and changes nothing. Real bash, python3 and node hooks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/engine.js';
import { bash, event, isolatedEnv, runCli, runnerWith, tmpProject } from '../helpers.js';

describe('audit: true on a command hook', () => {
  it('an exit-2 block (bash) is reported, not applied, and later hooks still run', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'would-block', command: 'echo "no rm here" >&2; exit 2', audit: true }, { id: 'later', command: 'true' }] } });
    const d = await runner.run(bash('rm -rf build'));
    expect(d.decision).toBe('continue');
    expect(d.results.map((r) => r.id)).toEqual(['would-block', 'later']);
    expect(d.results[0]!.wouldHave).toEqual({ decision: 'block', reason: 'no rm here' });
    expect(d.warnings).toContain('hook "would-block" (audit mode) would have answered block: no rm here');
  });

  it('a rewrite (python3) is reported, and the tool input stays as it was', async () => {
    const hook = `python3 -c 'import json,sys; e=json.load(sys.stdin); i=e["tool_input"]; i["command"]="echo safe"; print(json.dumps({"decision":"modify","updatedInput":i}))'`;
    const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'rewriter', command: hook, audit: true }] } });
    const d = await runner.run(bash('make deploy'));
    expect(d.decision).toBe('continue');
    expect(d.updatedInput).toBeUndefined();
    expect(d.results[0]!.wouldHave?.updatedInput).toEqual({ command: 'echo safe' });
  });

  it('allow, ask, halt, context and metadata (node) change nothing', async () => {
    for (const reply of [{ decision: 'allow' }, { decision: 'ask', reason: 'sure?' }, { continue: false, stopReason: 'stop all' }, { additionalContext: 'psst' }, { metadata: { k: 1 } }]) {
      const hook = `node -e 'console.log(${JSON.stringify(JSON.stringify(reply))})'`;
      const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'n', command: hook, audit: true }] } });
      const d = await runner.run(bash('ls'));
      expect(d.decision, JSON.stringify(reply)).toBe('continue');
      expect(d.additionalContext).toEqual([]);
      expect(d.metadata).toBeUndefined();
      expect(d.results[0]!.wouldHave, JSON.stringify(reply)).toBeDefined();
    }
  });

  it('a failing hook with onFailure: block is reported as a failure that would have blocked, and does not block', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'crash', command: 'exit 3', onFailure: 'block', audit: true }] } });
    const d = await runner.run(bash('ls'));
    expect(d.decision).toBe('continue');
    expect(d.results[0]!.failure?.kind).toBe('exit-3');
    expect(d.warnings.join('\n')).toMatch(/hook "crash" failed \(exit-3[^)]*\); continuing/);
    expect(d.warnings.join('\n')).toContain('hook "crash" (audit mode) would have answered block');
  });

  it('audit: true with a builtin works like options.audit', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety', audit: true }] } });
    const d = await runner.run(bash('rm -rf /'));
    expect(d.decision).toBe('continue');
    expect(d.results[0]!.wouldHave?.decision).toBe('block');
  });

  it('library handlers take audit too', async () => {
    const dir = tmpProject();
    const runner = await createRunner({ cwd: dir, env: isolatedEnv(dir), handlers: [{ event: 'userPromptSubmit', id: 'h', audit: true, handler: () => ({ decision: 'block', reason: 'nope' }) }] });
    const d = await runner.run(event('userPromptSubmit', { prompt: 'hi' }));
    expect(d.decision).toBe('continue');
    expect(d.results[0]!.wouldHave?.reason).toBe('nope');
  });

  it('audit must be a boolean', async () => {
    await expect(runnerWith({ hooks: { preToolUse: [{ command: 'true', audit: 'yes' as unknown as boolean }] } })).rejects.toThrow(/hooks\.preToolUse\[0\]\.audit/);
  });

  it('the audit-log builtin records what the hook would have decided', async () => {
    const dir = tmpProject();
    const log = path.join(dir, 'audit.jsonl');
    const runner = await createRunner({
      cwd: dir,
      env: isolatedEnv(dir),
      config: { hooks: { preToolUse: [{ id: 'shadow', command: 'echo "would stop this" >&2; exit 2', audit: true }, { builtin: 'audit-log', options: { path: log } }] } },
    });
    await runner.run(bash('rm x'));
    const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ kind: 'hook', hook: 'shadow', outcome: 'continue', audit: true, wouldHave: 'block', wouldHaveReason: 'would stop this' });
    expect(records[1]).toMatchObject({ kind: 'event', decision: 'continue' });
  });
});

describe('shadow mode on the command line', () => {
  const project = () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'shadow', command: 'echo "would stop this" >&2; exit 2', audit: true }] } }) });
    return { dir, env: isolatedEnv(dir) };
  };
  const input = (dir: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'rm x' } });

  it('hooks run --verbose says what it would have done, and the agent is not blocked', () => {
    const { dir, env } = project();
    const r = runCli(['run', 'pre-tool-use', '--verbose'], { cwd: dir, env, input: input(dir) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/hooks: shadow continue \(audit: would block\) .*would stop this/);
  });

  it('hooks explain shows it, and hooks list marks the hook', () => {
    const { dir, env } = project();
    const explained = runCli(['explain', 'pre-tool-use', '--json'], { cwd: dir, env, input: input(dir) });
    const json = JSON.parse(explained.stdout);
    expect(json.decision).toBe('continue');
    expect(json.warnings).toContain('hook "shadow" (audit mode) would have answered block: would stop this');
    expect(json.steps[0]).toMatchObject({ id: 'shadow', outcome: 'continue', wouldHave: { outcome: 'block', reason: 'would stop this' } });
    const text = runCli(['explain', 'pre-tool-use'], { cwd: dir, env, input: input(dir) }).stdout;
    expect(text).toContain('(audit: would block)');
    expect(runCli(['run', 'pre-tool-use', '--dry-run'], { cwd: dir, env, input: input(dir) }).stdout).toMatch(/would run shadow: echo .* \(audit\)/);
    const listed = runCli(['list'], { cwd: dir, env }).stdout;
    expect(listed).toMatch(/shadow  echo "would stop this" >&2; exit 2 \(audit mode\)/);
  });
});

describe('audit through a local override', () => {
  const input = (dir: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'rm x' } });

  it('.hooksrc.local.json can put a project hook into shadow mode', () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'strict', command: 'echo strict >&2; exit 2' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'strict', audit: true }] } }),
    });
    const r = runCli(['run', 'pre-tool-use', '--verbose'], { cwd: dir, env: isolatedEnv(dir), input: input(dir) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(audit: would block)');
  });

  it('but never a hook of the user layer: the override is refused and the guard still blocks', () => {
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mine', command: 'echo mine >&2; exit 2' }] } }),
      'p/.hooksrc.local.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mine', audit: true }] } }),
    });
    const cwd = path.join(home, 'p');
    const r = runCli(['run', 'pre-tool-use'], { cwd, env: isolatedEnv(home, {}, { trust: cwd }), input: input(cwd) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mine');
  });
});
