// The process runner against real process trees: timeouts kill the whole group, leftovers never hold us.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess, KILL_GRACE_MS } from '../../src/run/process.js';
import type { ProcessEnd } from '../../src/reply/interpret.js';
import { FIXTURES, tmpProject } from '../helpers.js';
import { alive, base, gone, pidReader } from './kit.js';

const readPid = pidReader();


/** A stream of an `exited` end as text. */
function text(end: ProcessEnd, stream: 'stdout' | 'stderr'): string {
  if (end.kind !== 'exited') throw new Error(`expected exited, got ${end.kind}`);
  return Buffer.from(end[stream]).toString('utf8');
}


// The hooks here would run for 1000 s (or forever): a run that returns at all was ended by the runner, and
// HANG_GUARD only tells a hang from a slow machine. How soon after its timeout a run returns is load,
// not the runner: the kill itself is what the `gone` checks prove.
const HANG_GUARD = 15_000;

describe('runProcess', () => {
  it('a timeout kills the whole process group and returns without waiting for it', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const started = Date.now();
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile, MODE: 'hang' }), command: path.join(FIXTURES, 'spawns-background.sh'), timeoutMs: 500 });
    const elapsed = Date.now() - started;
    expect(end).toEqual({ kind: 'timeout', timeoutMs: 500 });
    expect(elapsed).toBeGreaterThanOrEqual(500 - 50);
    expect(elapsed).toBeLessThan(HANG_GUARD);
    const child = readPid(pidFile);
    expect(await gone(child)).toBe(true);
  });

  it('a hook that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'hook.pid');
    const started = Date.now();
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile }), command: path.join(FIXTURES, 'traps-term.sh'), args: [], timeoutMs: 300 });
    expect(end.kind).toBe('timeout');
    // SIGTERM alone cannot end it: the run waited out the grace period before the SIGKILL.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300 + KILL_GRACE_MS - 50);
    expect(Date.now() - started).toBeLessThan(HANG_GUARD);
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  it('a hook that exits but leaves a background child on its stdout does not hold the runner', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const started = Date.now();
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile, MODE: 'exit' }), command: path.join(FIXTURES, 'spawns-background.sh'), timeoutMs: 10_000 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(Date.now() - started).toBeLessThan(HANG_GUARD);
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  it('a background child that let go of our pipes is left alone (intended background work)', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'bg.pid');
    const end = await runProcess({
      ...base(dir),
      command: `sleep 5 >/dev/null 2>&1 & echo $! > ${JSON.stringify(pidFile)}`,
      timeoutMs: 5000,
    });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
    const pid = readPid(pidFile);
    await new Promise((r) => setTimeout(r, 400));
    expect(alive(pid)).toBe(true);
  });

  it('a hook that never reads stdin is fine, even with a 5 MB event', async () => {
    const dir = tmpProject();
    const end = await runProcess({ ...base(dir), input: JSON.stringify({ blob: 'x'.repeat(5_000_000) }), command: path.join(FIXTURES, 'ignores-stdin.sh'), args: [], timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('the run signal cancels a live hook and kills its group', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile, MODE: 'hang' }), command: path.join(FIXTURES, 'spawns-background.sh'), timeoutMs: 10_000, signal: controller.signal });
    expect(end.kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(HANG_GUARD);
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  it('stdout and stderr are read together: a hook filling stderr first does not deadlock', async () => {
    const dir = tmpProject();
    const end = await runProcess({ ...base(dir), command: `head -c 300000 /dev/zero | tr '\\0' e >&2; echo '{"decision":"allow"}'`, timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(text(end, 'stdout')).toBe('{"decision":"allow"}\n');
  });

  it('exec form passes arguments without a shell', async () => {
    const dir = tmpProject();
    const end = await runProcess({ ...base(dir), command: 'printf', args: ['%s|', 'a b', '$HOME', '*'], timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(text(end, 'stdout')).toBe('a b|$HOME|*|');
    expect(existsSync(dir)).toBe(true);
  });
});
