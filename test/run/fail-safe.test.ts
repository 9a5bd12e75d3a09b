// The process runner's fail-safe rules on real processes (issue 10): fractional timeouts, groups killed after the
// grace period even when the leader is gone, missing scripts, one stdin buffer shared by every hook.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProcessEnd } from '../../src/reply/interpret.js';
import { eventSpec } from '../../src/events/catalog.js';
import { wholeMs, MAX_TIMER_MS } from '../../src/run/duration.js';
import { runFunction } from '../../src/run/function.js';
import { missingScript, missingScriptAnswer } from '../../src/run/missing-script.js';
import { payloadBytes } from '../../src/run/payload-bytes.js';
import { KILL_GRACE_MS, runProcess } from '../../src/run/process.js';
import { startWatchdog, watchdogPid, watchGroup } from '../../src/run/watchdog.js';
import { FIXTURES, ROOT, tmpProject } from '../helpers.js';
import { alive, base, gone, pidReader, until, written } from './kit.js';

const readPid = pidReader();

const pre = eventSpec('preToolUse');

describe('durations', () => {
  it('every duration becomes a whole number of milliseconds a timer accepts', () => {
    expect(wholeMs(2.01 * 1000)).toBe(2010);
    expect(wholeMs(0.0001)).toBe(1);
    expect(wholeMs(Number.NaN)).toBe(MAX_TIMER_MS);
    expect(wholeMs(1e12)).toBe(MAX_TIMER_MS);
    // The 15 values of 0.01..10.00 that crashed the runner, and every other one.
    for (let i = 1; i <= 1000; i++) expect(Number.isInteger(wholeMs((i / 100) * 1000))).toBe(true);
  });

  it('a process hook with a 2.01 s timeout runs (it crashed the runner on every event)', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'true', timeoutMs: 2.01 * 1000 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('a process hook with a fractional timeout times out at the rounded time', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'sleep 5', timeoutMs: 0.3333 * 1000 });
    expect(end).toEqual({ kind: 'timeout', timeoutMs: 333 });
  });

  it('an in-process hook with a fractional timeout runs', async () => {
    const end = await runFunction(() => ({ decision: 'allow' }), { hook_event_name: 'PreToolUse' }, { event: 'preToolUse' }, 2.01 * 1000);
    expect(end).toEqual({ kind: 'returned', value: { decision: 'allow' } });
  });
});

describe('no process outlives its hook', () => {
  it('after a timeout, a group member that ignores SIGTERM and let go of the pipes is killed although the leader is gone', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const started = Date.now();
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile }), command: path.join(FIXTURES, 'leaves-term-ignoring-child.sh'), args: [], timeoutMs: 400 });
    expect(end.kind).toBe('timeout');
    // The run waits for the KILL: when it returns, the child is already signalled.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400 + KILL_GRACE_MS - 50);
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  it('after the run is cancelled (a runner signal), the same child is killed too', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const end = await runProcess({ ...base(dir, { PID_FILE: pidFile }), command: path.join(FIXTURES, 'leaves-term-ignoring-child.sh'), args: [], timeoutMs: 30_000, signal: controller.signal });
    expect(end.kind).toBe('cancelled');
    expect(await gone(readPid(pidFile))).toBe(true);
  });
});

describe('a missing script is not-found', () => {
  it('python3 <missing> is not-found naming the file, not a block with python\'s message', async () => {
    const dir = tmpProject();
    const end = await runProcess({ ...base(dir), command: 'python3 guards/missing.py', timeoutMs: 5000 });
    expect(end).toEqual({ kind: 'not-found', message: `script guards/missing.py not found (looked for ${path.join(dir, 'guards/missing.py')})` });
    expect(readProcessEnd(end, pre)).toMatchObject({ ok: false, failure: { kind: 'not-found' } });
  });

  it('node <missing> is not-found, not exit-1 with a loader line', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'node missing.mjs', timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'not-found', message: expect.stringContaining('missing.mjs not found') });
  });

  it('exec form is checked the same way', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'python3', args: ['-u', 'nope.py'], timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'not-found', message: expect.stringContaining('nope.py not found') });
  });

  it('a path the shell expands is caught from the interpreter\'s own answer (python3 exit 2, node exit 1)', async () => {
    const dir = tmpProject();
    const py = await runProcess({ ...base(dir, { D: dir }), command: 'python3 "$D/guards/missing.py"', timeoutMs: 5000 });
    expect(py).toEqual({ kind: 'not-found', message: `script ${path.join(dir, 'guards/missing.py')} not found (the interpreter could not open it)` });
    const node = await runProcess({ ...base(dir, { D: dir }), command: 'node "$D/missing.mjs"', timeoutMs: 5000 });
    expect(node).toMatchObject({ kind: 'not-found', message: expect.stringContaining(path.join(dir, 'missing.mjs')) });
  });

  it('a hook that blocks with exit 2 on purpose is still a block', async () => {
    const dir = tmpProject({ 'guard.py': 'import sys\nprint("no", file=sys.stderr)\nsys.exit(2)\n' });
    const end = await runProcess({ ...base(dir), command: 'python3 guard.py', timeoutMs: 5000 });
    expect(readProcessEnd(end, pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'no' } });
  });

  it('commands that are not "<interpreter> <script>" are left alone', () => {
    const dir = tmpProject({ 'ok.py': '' });
    for (const command of ['python3 -c "import sys"', 'python3 -m json.tool', 'node -e 1', 'node --version', 'bash -c "exit 0"', 'python3 ok.py', 'deno run ok.py', 'python3 $X/y.py', 'FOO=1 python3 ok.py', 'echo missing.py', 'node --require ./x.js ok.py']) {
      expect(missingScript(command, undefined, dir), command).toBeUndefined();
    }
    expect(missingScript('FOO=1 python3 gone.py', undefined, dir)).toContain('gone.py');
    expect(missingScript('deno run --allow-read gone.ts', undefined, dir)).toContain('gone.ts');
    expect(missingScript('/usr/bin/python3.12 gone.py', undefined, dir)).toContain('gone.py');
  });

  it("the interpreter's answer counts only when the file it names is really missing", () => {
    const dir = tmpProject({ 'there.py': '' });
    const said = (file: string) => Buffer.from(`python3: can't open file '${file}': [Errno 2] No such file or directory\n`);
    expect(missingScriptAnswer(2, said(path.join(dir, 'there.py')), dir)).toBeUndefined();
    expect(missingScriptAnswer(2, said(path.join(dir, 'gone.py')), dir)).toContain('gone.py');
    expect(missingScriptAnswer(0, said(path.join(dir, 'gone.py')), dir)).toBeUndefined();
  });
});

describe('a hook that answered before its timeout keeps its answer', () => {
  it('exit 2 just before the timeout, with a background child still on the pipes, is a block, not a timeout', async () => {
    const dir = tmpProject();
    // It exits at once; its child keeps the pipes, so the run drains for 200 ms, and the 150 ms timeout fires then.
    const end = await runProcess({ ...base(dir), command: 'sleep 30 & echo "blocked: rm -rf" >&2; exit 2', timeoutMs: 150 });
    expect(end).toMatchObject({ kind: 'exited', exitCode: 2 });
    expect(readProcessEnd(end, pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'blocked: rm -rf' } });
  });
});

describe('a hook that cannot start says why, as a not-found', () => {
  it('a program that is not there, in exec form', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'agent-hooks-no-such-program', args: [], timeoutMs: 5000 });
    expect(end).toEqual({ kind: 'not-found', message: 'agent-hooks-no-such-program: not found' });
  });

  it('a file that is not executable', async () => {
    const dir = tmpProject({ 'guard.sh': '#!/bin/sh\nexit 2\n' });
    const end = await runProcess({ ...base(dir), command: path.join(dir, 'guard.sh'), args: [], timeoutMs: 5000 });
    expect(end).toEqual({ kind: 'not-found', message: `${path.join(dir, 'guard.sh')}: not executable` });
  });

  it('a working folder that is gone names the folder, not the program', async () => {
    const dir = path.join(tmpProject(), 'removed');
    for (const args of [[], undefined]) {
      const end = await runProcess({ ...base(dir), command: 'true', ...(args === undefined ? {} : { args }), timeoutMs: 5000 });
      expect(end).toEqual({ kind: 'not-found', message: `true: its working folder ${dir} does not exist` });
    }
  });

  it('a spawn Node refuses outright (a NUL byte in an argument) is a value, not a throw', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'echo', args: ['a\u0000b'], timeoutMs: 5000 });
    expect(end).toMatchObject({ kind: 'not-found', message: expect.stringMatching(/^echo: could not start \(.*null bytes/) });
  });

  it('each of them reads as a failing hook, which never blocks by itself', async () => {
    const end = await runProcess({ ...base(tmpProject()), command: 'agent-hooks-no-such-program', args: [], timeoutMs: 5000 });
    expect(readProcessEnd(end, pre)).toMatchObject({ ok: false, failure: { kind: 'not-found' } });
  });
});

describe('one stdin buffer per payload', () => {
  it('the same payload object gives the same Buffer; a rewritten payload its own', () => {
    const payload = { hook_event_name: 'PreToolUse', tool_input: { command: 'ls' } };
    expect(payloadBytes(payload)).toBe(payloadBytes(payload));
    expect(payloadBytes({ ...payload })).not.toBe(payloadBytes(payload));
    expect(JSON.parse(payloadBytes(payload).toString('utf8'))).toEqual(payload);
  });

  it('every hook reads the same bytes from the shared buffer', async () => {
    const input = payloadBytes({ text: 'héllo ✓'.repeat(1000) });
    const ends = await Promise.all([1, 2, 3].map(() => runProcess({ ...base(tmpProject()), input, command: 'cat', timeoutMs: 5000 })));
    for (const end of ends) expect(end.kind === 'exited' && Buffer.from(end.stdout).equals(input)).toBe(true);
  });
});

describe('the watchdog', () => {
  it('a long-lived process retires its watchdog once nothing is live, so its lists stay small', async () => {
    startWatchdog(500);
    const first = watchdogPid();
    expect(first).toBeGreaterThan(0);
    // Group ids that cannot exist (above the kernel's pid limit): nothing real is ever signalled.
    for (let i = 0; i < 1000; i++) watchGroup(5_000_000 + i)();
    expect(watchdogPid()).toBeUndefined();
    expect(await gone(first!)).toBe(true);
    startWatchdog(500);
    expect(watchdogPid()).not.toBe(first);
  });

  it('a full watchdog with a hook still live hands new hooks to a fresh one and ends with its last hook', async () => {
    startWatchdog(500);
    const full = watchdogPid()!;
    const stillLive = watchGroup(4_999_999);
    for (let i = 0; i < 1000; i++) watchGroup(5_000_000 + i)();
    expect(watchdogPid()).toBe(full);
    startWatchdog(500);
    const fresh = watchdogPid()!;
    expect(fresh).not.toBe(full);
    // It still answers for the live hook: ending now would leave that group unwatched.
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(full)).toBe(true);
    stillLive();
    expect(await gone(full)).toBe(true);
    expect(alive(fresh)).toBe(true);
  });

  it('a watchdog that died (killed, OOM) is replaced at the next hook, not trusted any more', async () => {
    const dir = tmpProject();
    await runProcess({ ...base(dir), command: 'true', timeoutMs: 5000 });
    const first = watchdogPid()!;
    process.kill(first, 'SIGKILL');
    expect(await gone(first)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    await runProcess({ ...base(dir), command: 'true', timeoutMs: 5000 });
    expect(watchdogPid()).not.toBe(first);
    expect(alive(watchdogPid()!)).toBe(true);
  });

  // A long-lived runner, as a real process: the built process runner (npm test builds first). With `retired`, its
  // first watchdog is filled to retirement (1,000 listings) by groups that cannot exist (above the kernel's pid
  // limit, as in the tests above), which costs no spawn: the real hooks after it run under a fresh watchdog, as
  // they would after 1,000 real ones. These soaks ran 1,500 real hooks (18 s each) to get there.
  const longLived = (hooks: number, last: string, retired = false) => `
    import { runProcess } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'process.js'))};
    import { startWatchdog, watchGroup } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'watchdog.js'))};
    const spec = { cwd: process.cwd(), env: process.env, input: '{}', timeoutMs: 60000 };
    if (${retired}) { startWatchdog(500); for (let i = 0; i < 1000; i++) watchGroup(5000000 + i)(); }
    for (let i = 0; i < ${hooks}; i++) await runProcess({ ...spec, command: 'true' });
    ${last}`;

  // 300 real hooks: the list once went down a pipe the watchdog read only at its end, and that pipe filled after
  // about 140 hooks (hooks then outlived a SIGKILL, runners never exited); 300 is twice that, through one watchdog.
  it('past a retired watchdog and 300 hooks, a runner that is done exits (nothing of the list waits in its memory)', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', longLived(300, "console.log('done')", true)], { cwd: tmpProject(), encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.trim()).toBe('done');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  }, 90_000);

  it.each([
    ['its list in a file', {}],
    ['no temp folder to make one in: its list down the pipe', { TMPDIR: '/nonexistent/agent-hooks-test' }],
  ])('past a retired watchdog and 300 hooks, a SIGKILL of the runner still kills the hook it was running (%s)', async (_how, env: Record<string, string>) => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'hook.pid');
    const runner = spawn(process.execPath, ['--input-type=module', '-e', longLived(300, `await runProcess({ ...spec, command: 'echo $$ > "$PID_FILE"; exec sleep 60', env: { ...process.env, PID_FILE: ${JSON.stringify(pidFile)} } });`, true)], { cwd: dir, stdio: 'ignore', env: { ...process.env, ...env } });
    await until(() => written(pidFile), 60_000);
    const hook = readPid(pidFile);
    // Past the moment between the spawn and its listing (the documented gap).
    await new Promise((r) => setTimeout(r, 500));
    runner.kill('SIGKILL');
    expect(await gone(hook)).toBe(true);
  }, 90_000);

  it.runIf(process.platform === 'linux')('watchdogs killed one after the other while a hook runs: each heir takes the hook, and the last kills it when the runner is SIGKILLed', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'hook.pid');
    const runner = spawn(process.execPath, ['--input-type=module', '-e', longLived(1, `await runProcess({ ...spec, command: 'echo $$ > "$PID_FILE"; exec sleep 60', env: { ...process.env, PID_FILE: ${JSON.stringify(pidFile)} } });`)], { cwd: dir, stdio: 'ignore' });
    await until(() => written(pidFile), 30_000);
    const hook = readPid(pidFile);
    await new Promise((r) => setTimeout(r, 500));
    // The runner's watchdogs: its children running the watchdog script.
    const watchdogs = () =>
      spawnSync('pgrep', ['-P', String(runner.pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number)
        .filter((pid) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes("trap '' INT TERM HUP"); } catch { return false; } });
    const killed: number[] = [];
    // The second death comes within the second after the first hand-over: it must be handed on all the same.
    for (let round = 0; round < 2; round++) {
      const [watchdog] = watchdogs().filter((pid) => !killed.includes(pid));
      expect(watchdog).toBeGreaterThan(0);
      process.kill(watchdog!, 'SIGKILL');
      killed.push(watchdog!);
      expect(await gone(watchdog!)).toBe(true);
      const until = Date.now() + 5_000;
      while (watchdogs().filter((pid) => !killed.includes(pid)).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    }
    expect(watchdogs().filter((pid) => !killed.includes(pid))).toHaveLength(1);
    runner.kill('SIGKILL');
    expect(await gone(hook)).toBe(true);
  }, 60_000);

  it.runIf(process.platform === 'linux')('a watchdog that dies while no descriptor is free: its hook is handed on once there is one, and the watchdog is not off for good', async () => {
    const dir = tmpProject();
    const [a, b] = [path.join(dir, 'a.pid'), path.join(dir, 'b.pid')];
    const script = `
      import { openSync, closeSync, readFileSync, existsSync } from 'node:fs';
      import { runProcess } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'process.js'))};
      import { watchdogPid } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'watchdog.js'))};
      const spec = { cwd: process.cwd(), env: process.env, input: '{}', timeoutMs: 60000 };
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const written = async (f) => { while (!(existsSync(f) && readFileSync(f, 'utf8').trim() !== '')) await sleep(20); };
      void runProcess({ ...spec, command: 'echo $$ > ${a}; exec sleep 60' });
      await written(${JSON.stringify(a)});
      await sleep(500);
      const fds = [];
      try { for (;;) fds.push(openSync('/dev/null', 'r')); } catch {}
      process.kill(watchdogPid(), 'SIGKILL');
      await sleep(300);
      for (const fd of fds) closeSync(fd);
      void runProcess({ ...spec, command: 'echo $$ > ${b}; exec sleep 60' });
      await written(${JSON.stringify(b)});
      await sleep(500);
      console.log('ready');
      await sleep(60000);`;
    const runner = spawn('/bin/sh', ['-c', 'ulimit -n 256 && exec "$0" --input-type=module -e "$1"', process.execPath, script], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      runner.stdout.on('data', (d) => String(d).includes('ready') && resolve());
      runner.on('exit', (code) => reject(new Error(`the runner exited (${code}) before it was ready`)));
    });
    const hooks = [readPid(a), readPid(b)];
    runner.kill('SIGKILL');
    for (const hook of hooks) expect(await gone(hook)).toBe(true);
  }, 60_000);

  it('a pid reused while its first hook is still listed: each release goes to the watchdog that hook was listed with', async () => {
    startWatchdog(500);
    const first = watchdogPid()!;
    const reused = 4_999_990;
    const releaseFirst = watchGroup(reused);
    for (let i = 0; i < 1000; i++) watchGroup(5_000_000 + i)();
    startWatchdog(500);
    const second = watchdogPid()!;
    expect(second).not.toBe(first);
    const releaseSecond = watchGroup(reused);
    // Released to the full one, which then has nothing live and ends; the fresh one still answers for the second.
    releaseFirst();
    expect(await gone(first)).toBe(true);
    expect(alive(second)).toBe(true);
    releaseSecond();
  });

  it.runIf(process.platform === 'linux')('is not woken by the hooks it watches (each wake-up took a core from the runner)', async () => {
    const dir = tmpProject();
    await runProcess({ ...base(dir), command: 'true', timeoutMs: 5000 });
    const pid = watchdogPid()!;
    const wakeups = () => Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    const before = wakeups();
    for (let i = 0; i < 20; i++) await runProcess({ ...base(dir), command: 'true', timeoutMs: 5000 });
    expect(watchdogPid()).toBe(pid);
    expect(wakeups()).toBe(before);
  });
});
