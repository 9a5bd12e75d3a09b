// Edges found in review: cancellation, prototype keys, overrides, the kill grace, the inline config.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, createRunner } from '../../src/engine.js';
import { runProcess } from '../../src/run/process.js';
import { bash, isolatedEnv, runCli, runnerWith, tmpProject, trustProject } from '../helpers.js';

describe('a cancelled run', () => {
  it('kills the live hook and starts no later one', async () => {
    const dir = tmpProject();
    const log = path.join(dir, 'log');
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'slow', command: 'sleep 60' },
          { id: 'two', command: `echo two >> ${JSON.stringify(log)}` },
          { builtin: 'command-safety' },
        ],
      },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const decision = await runner.run(bash('ls'), { signal: controller.signal });
    // The hook sleeps 60 s: a run that returns at all was cancelled; the ceiling only tells a hang from a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(existsSync(log)).toBe(false);
    expect(decision.results.map((r) => [r.id, r.failure?.message])).toEqual([['slow', 'cancelled: the runner itself was interrupted']]);
    expect(decision.steps.filter((s) => s.status === 'not-reached').map((s) => [s.id, s.why])).toEqual([
      ['two', 'the run was cancelled'],
      ['command-safety', 'the run was cancelled'],
    ]);
  });

  it('does not even spawn a hook once cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = tmpProject();
    const marker = path.join(dir, 'ran');
    expect(await runProcess({ command: `touch ${JSON.stringify(marker)}`, cwd: dir, env: process.env, input: '{}', timeoutMs: 5000, signal: controller.signal })).toEqual({ kind: 'cancelled' });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the kill grace', () => {
  it('a hook group gets its full grace after SIGTERM, even once the shell leader is gone', async () => {
    const dir = tmpProject({
      // Needs 300 ms to clean up after SIGTERM.
      'slow-cleanup.py': 'import signal, sys, time\ndef cleanup(*_):\n    time.sleep(0.3)\n    open("cleaned-up", "w").write("ok")\n    sys.exit(0)\nsignal.signal(signal.SIGTERM, cleanup)\ntime.sleep(30)\n',
    });
    const done = path.join(dir, 'cleaned-up');
    // The shell leader dies at once on TERM; its python child is still cleaning up. The timeout leaves
    // python time to start and install its handler on a loaded machine (600 ms was not always enough).
    const end = await runProcess({ command: 'python3 slow-cleanup.py & wait', cwd: dir, env: process.env, input: '{}', timeoutMs: 3000 });
    expect(end.kind).toBe('timeout');
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(done, 'utf8')).toBe('ok');
  });
});

describe('names that exist on every object', () => {
  it('"toString" is not a decision: an invalid-json failure, which blocks under onFailure block', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'w', command: `echo '{"decision":"toString"}'`, onFailure: 'block' }] } });
    const d = await runner.run(bash('ls'));
    expect(d.results[0]!.failure).toMatchObject({ kind: 'invalid-json', message: 'unknown decision "toString"' });
    expect(d.decision).toBe('block');
  });

  it('"constructor" is not a guard', async () => {
    const dir = tmpProject();
    await expect(createRunner({ cwd: dir, env: isolatedEnv(dir), config: { hooks: { preToolUse: [{ builtin: 'constructor' }] } } })).rejects.toThrow('builtin: unknown guard "constructor"');
    expect(runCli(['guard', 'constructor'], { input: '{}' }).stderr).toMatch(/^agent-hooks: unknown guard "constructor"/);
  });
});

describe('overrides', () => {
  it("an override's match is checked: a typo switches the local file off, loudly, never the guard", async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'guard', command: 'exit 2', match: 'exec' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'guard', match: 'exce' }] } }),
    });
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir) });
    expect(config.warnings.join('\n')).toMatch(/\.hooksrc\.local\.json: hooks\.preToolUse\[0\]: match: "exce" matches no known tool/);
    expect(config.hooks.map((h) => [h.id, h.match])).toEqual([['guard', ['exec']]]);
  });
});

describe('the inline config', () => {
  it('is the project layer: a broken project file in cwd is not read', async () => {
    const dir = tmpProject({ '.hooksrc.json': '{ broken' });
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir), config: { hooks: { stop: [{ id: 'inline', command: 'true' }] } } });
    expect(config.hooks.map((h) => h.id)).toEqual(['inline']);
  });
});

describe('switches', () => {
  it('HOOKS_DISABLE also turns hooks guard off; a value it does not understand is said and changes nothing', () => {
    const dir = tmpProject();
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const off = runCli(['guard', 'command-safety'], { cwd: dir, env: isolatedEnv(dir, { HOOKS_DISABLE: '1' }), input: event });
    expect(off).toMatchObject({ code: 0, stdout: '', stderr: 'agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n' });
    const odd = runCli(['guard', 'command-safety'], { cwd: dir, env: isolatedEnv(dir, { HOOKS_DISABLE: 'maybe' }), input: event });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('agent-hooks: HOOKS_DISABLE=maybe is not understood (use 1 or 0); hooks stay on');
  });
});

describe('config files', () => {
  it('broken JSON names the file once, the kind and the cause', async () => {
    const dir = tmpProject({ '.hooksrc.json': '{"hooks": {"preToolUse": [ } }' });
    const error = (await loadConfig({ cwd: dir, configFile: '.hooksrc.json', env: isolatedEnv(dir) }).catch((e: unknown) => e)) as Error;
    const file = path.join(dir, '.hooksrc.json');
    expect(error.message.startsWith(`${file}: invalid JSON: `)).toBe(true);
    expect(error.message.split(file)).toHaveLength(2);
    expect(error.message).not.toMatch(/\d+ \|/);
  });

  it('a project folder whose name starts with two dots is still inside', async () => {
    const home = tmpProject({ '..cache/.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'dots', command: 'true' }] } }) });
    const env = isolatedEnv(home);
    trustProject(path.join(home, '..cache'), env);
    const config = await loadConfig({ cwd: path.join(home, '..cache'), env });
    expect(config.hooks.map((h) => h.id)).toEqual(['dots']);
  });
});
