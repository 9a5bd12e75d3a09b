// How command hooks run, as Claude Code 2.1.328 runs them: shell form under /bin/sh (checked with the real
// CLI on Linux, also with `shell: "bash"`), `async: true` started and not waited for, killed at its timeout.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, runnerWith, tmpProject } from '../helpers.js';
import { gone, pidReader } from './kit.js';

const readPid = pidReader();

async function waitFor(file: string, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(file) && readFileSync(file, 'utf8').trim() !== '') return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('shell form', () => {
  it.each([[{}], [{ shell: 'bash' }]])('%j runs under /bin/sh, as Claude Code does on Linux', async (extra) => {
    const out = path.join(tmpProject(), 'shell.txt');
    const runner = await runnerWith({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `readlink /proc/$$/exe > ${out}`, ...extra }] }] } } as never);
    await runner.run(bash('ls'));
    expect(readFileSync(out, 'utf8').trim()).toBe(realpathSync('/bin/sh'));
  });

  it('shell: "powershell" without pwsh installed is a reported failure, not a silent pass through sh', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ command: 'exit 2', shell: 'powershell' }] } } as never, { env: { PATH: '/nonexistent' } });
    const decision = await runner.run(bash('ls'));
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(/pwsh|not found/);
  });
});

describe('async hooks', () => {
  it('get the event on stdin, are not waited for, and cannot block', async () => {
    const dir = tmpProject();
    const out = path.join(dir, 'payload.json');
    const go = path.join(dir, 'go');
    const runner = await runnerWith({
      // It waits for the test's go-ahead, given only once the run has answered: a run that waited for it would never answer.
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `for i in $(seq 400); do [ -e ${go} ] && break; sleep 0.05; done; cat > ${out}; exit 2`, async: true }] }] },
    } as never);
    const decision = await runner.run(bash('git status'));
    expect(decision.decision).toBe('continue');
    expect(existsSync(out)).toBe(false);
    writeFileSync(go, '');
    expect(await waitFor(out)).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ tool_input: { command: 'git status' } });
  });

  it('are killed, with what they started, at their timeout', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'pid');
    const runner = await runnerWith({
      hooks: { preToolUse: [{ command: `sleep 60 & echo $! > ${pidFile}; wait`, async: true, timeout: 1 }] },
    } as never);
    await runner.run(bash('ls'));
    expect(await waitFor(pidFile)).toBe(true);
    const pid = readPid(pidFile);
    expect(await gone(pid, 8000)).toBe(true);
  });

  it('exec form runs in the background too', async () => {
    const dir = tmpProject();
    const out = path.join(dir, 'exec.txt');
    const runner = await runnerWith({ hooks: { preToolUse: [{ command: 'sh', args: ['-c', `cat > ${out}`], async: true }] } } as never);
    await runner.run(bash('echo hi'));
    expect(await waitFor(out)).toBe(true);
    expect(readFileSync(out, 'utf8')).toContain('echo hi');
  });
});
