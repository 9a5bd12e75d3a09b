// Spares (src/run/spares.ts): a hook's next process started ahead. Every test runs real processes; a hook run
// from a spare must end exactly as the same hook spawned fresh, whatever changed in between.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProcessEnd } from '../../src/reply/interpret.js';
import { runProcess, type ProcessSpec } from '../../src/run/process.js';
import { LAUNCHER, Spares } from '../../src/run/spares.js';
import { ROOT, tmpProject } from '../helpers.js';
import { alive, base, gone, pidReader, until } from './kit.js';

vi.setConfig({ testTimeout: 60_000 });

const readPid = pidReader();
const made: Spares[] = [];
afterEach(() => {
  for (const spares of made.splice(0)) spares.close();
});
function spares(options: ConstructorParameters<typeof Spares>[0] = {}): Spares {
  const s = new Spares(options);
  made.push(s);
  return s;
}

/** Bytes as Buffers, so ends compare by content. */
function plain(end: ProcessEnd): ProcessEnd {
  return end.kind === 'exited' ? { ...end, stdout: Buffer.from(end.stdout), stderr: Buffer.from(end.stderr) } : end;
}
const out = (end: ProcessEnd): string => (end.kind === 'exited' ? Buffer.from(end.stdout).toString() : `(${end.kind})`);

/** Runs `first` with spares (which starts the spare), then `then` from that spare, and `then` spawned fresh. */
async function spareAndFresh(first: ProcessSpec, then: ProcessSpec = first) {
  const s = spares();
  await runProcess(first, s);
  await until(() => s.pids().length === 1);
  const [spare] = s.pids();
  const viaSpare = await runProcess(then, s);
  const fresh = await runProcess(then);
  return { spare: spare!, viaSpare, fresh, spares: s };
}

it('perl is where the launcher is looked for (without it the rest of this file proves nothing)', () => {
  expect(existsSync(LAUNCHER), `${LAUNCHER} is missing: spares are off on this machine`).toBe(process.platform !== 'win32');
});

describe('the next run of a hook is its spare', () => {
  it('the hook runs in the process started ahead, and a new spare is started for the run after', async () => {
    const spec = { ...base(tmpProject()), command: 'echo $$', timeoutMs: 10_000 };
    const { spare, viaSpare, spares: s } = await spareAndFresh(spec);
    expect(out(viaSpare).trim()).toBe(String(spare));
    await until(() => s.pids().length === 1);
    expect(s.pids()[0]).not.toBe(spare);
  });

  it('a runner without spares, or with no launcher, spawns each run', async () => {
    const s = spares({ launcher: '/nonexistent/agent-hooks-test/perl' });
    const spec = { ...base(tmpProject()), command: 'echo ran', timeoutMs: 10_000 };
    expect(out(await runProcess(spec, s))).toBe('ran\n');
    expect(out(await runProcess(spec, s))).toBe('ran\n');
    expect(s.pids()).toEqual([]);
  });
});

describe('a hook run from a spare ends byte for byte as the same hook spawned fresh', () => {
  const fdsAndSignals = "ls /proc/self/fd | tr '\\n' ' '; grep -E '^Sig(Blk|Ign)' /proc/self/status; [ \"$(ps -o pgid= $$ | tr -d ' ')\" = \"$$\" ] && echo 'leads its group'";
  const cases: [string, Partial<ProcessSpec>][] = [
    ['a JSON reply on stdout', { command: `printf '{"decision":"block","reason":"no"}'` }],
    ['exit 2 with its reason on stderr', { command: 'echo "no, not that" >&2; exit 2' }],
    ['its stdin, byte for byte, larger than a pipe holds', { command: 'od -c | tail -3', input: Buffer.concat([Buffer.from('\u0000h\u00e9\n'), Buffer.alloc(300_000, 7)]) }],
    ['its argv in the exec form, arguments that look like options among them', { command: 'printf', args: ['%s|', '-e', '--', '-', 'a b', '$HOME'] }],
    ['its working folder', { command: 'pwd; echo "$PWD"' }],
    ['open descriptors, blocked and ignored signals, its own process group', { command: fdsAndSignals }],
    ['descriptors in the exec form', { command: '/bin/ls', args: ['/proc/self/fd'] }],
    ['a timeout', { command: 'sleep 5', timeoutMs: 300 }],
    ['killed by a signal', { command: 'kill -9 $$' }],
  ];
  it.each(cases)('%s', async (_name, given) => {
    const spec = { ...base(tmpProject()), timeoutMs: 10_000, ...given } as ProcessSpec;
    const { viaSpare, fresh } = await spareAndFresh(spec);
    expect(plain(viaSpare)).toEqual(plain(fresh));
  });

  it('its environment, when it differs from the one the spare was started with (added, changed, removed, odd names, PERL*)', async () => {
    const dir = tmpProject();
    const env = { ...process.env, KEPT: 'same', CHANGED: 'before', REMOVED: 'here', 'a-b.c': 'name a shell drops', IFS: 'x' } as Record<string, string | undefined>;
    delete env.PWD;
    const first = { ...base(dir), env, command: '/usr/bin/env', args: ['-0'], timeoutMs: 10_000 };
    const then = {
      ...first,
      env: {
        ...env,
        CHANGED: 'after',
        REMOVED: undefined,
        ADDED: 'line one\nline two \u00e9 \u2713',
        EMPTY: '',
        OPTIND: '7',
        PERL5OPT: '-MAgentHooksNoSuchModule',
        PERL_BADLANG: '1',
        'x=y': undefined,
      },
    };
    const { viaSpare, fresh } = await spareAndFresh(first, then);
    expect(plain(viaSpare)).toEqual(plain(fresh));
    const seen = out(viaSpare).split('\0');
    expect(seen).toContain('CHANGED=after');
    expect(seen).toContain('PERL5OPT=-MAgentHooksNoSuchModule');
    expect(seen).toContain('a-b.c=name a shell drops');
    expect(seen.some((entry) => entry.startsWith('REMOVED=') || entry.startsWith('PWD='))).toBe(false);
  });

  it('any environment (seeded, time-bounded): what the hook sees is what a spawn gives it', async () => {
    const dir = tmpProject();
    const s = spares();
    const spec = (env: Record<string, string>) => ({ ...base(dir), env, command: '/usr/bin/env', args: ['-0'], timeoutMs: 10_000 });
    const name = fc.stringMatching(/^[A-Za-z_.\-%][A-Za-z0-9_.\-%]{0,8}$/);
    const value = fc.string({ unit: 'binary', maxLength: 20 }).map((v) => v.replaceAll('\0', ''));
    const deadline = Date.now() + 15_000;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(name, value, { maxKeys: 6 }), fc.dictionary(name, value, { maxKeys: 6 }), async (a, b) => {
        if (Date.now() > deadline) return;
        await runProcess(spec(a), s);
        await until(() => s.pids().length === 1);
        const [viaSpare, fresh] = [await runProcess(spec(b), s), await runProcess(spec(b))];
        expect(plain(viaSpare)).toEqual(plain(fresh));
      }),
      { seed: 1423, numRuns: 60 },
    );
  });
});

describe('what changed since the spare was started', () => {
  it.each([
    ['deleted', (script: string) => rmSync(script)],
    ['no longer executable', (script: string) => chmodSync(script, 0o644)],
  ])('a script %s in between: the run ends as a spawn of it does (not found), and nothing ran twice', async (_how, change) => {
    const dir = tmpProject();
    const script = path.join(dir, 'hook.sh');
    writeFileSync(script, `#!/bin/sh\necho run >> ${JSON.stringify(path.join(dir, 'runs'))}\n`, { mode: 0o755 });
    const s = spares();
    const spec = { ...base(dir), command: script, args: [], timeoutMs: 10_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    change(script);
    const viaSpare = await runProcess(spec, s);
    expect(viaSpare).toEqual(await runProcess(spec));
    expect(viaSpare.kind).toBe('not-found');
    expect(readFileSync(path.join(dir, 'runs'), 'utf8')).toBe('run\n');
  });

  it('a script rewritten in between: its new text runs (it is read at the exec, not when the spare started)', async () => {
    const dir = tmpProject();
    const script = path.join(dir, 'hook.sh');
    writeFileSync(script, '#!/bin/sh\necho old\n', { mode: 0o755 });
    const s = spares();
    const spec = { ...base(dir), command: script, args: [], timeoutMs: 10_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    writeFileSync(script, '#!/bin/sh\necho new\n', { mode: 0o755 });
    expect(out(await runProcess(spec, s))).toBe('new\n');
  });

  it('its folder deleted and made again under the same name: the hook runs in the new one', async () => {
    const dir = path.join(tmpProject(), 'work');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'marker'), 'first folder');
    const s = spares();
    const spec = { ...base(dir), command: 'cat marker', timeoutMs: 10_000 };
    expect(out(await runProcess(spec, s))).toBe('first folder');
    await until(() => s.pids().length === 1);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'marker'), 'second folder');
    expect(out(await runProcess(spec, s))).toBe('second folder');
  });

  it('its folder deleted: the same answer as a spawn (the folder is named as missing)', async () => {
    const dir = path.join(tmpProject(), 'work');
    mkdirSync(dir);
    const s = spares();
    const spec = { ...base(dir), command: 'echo ran', timeoutMs: 10_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    rmSync(dir, { recursive: true });
    const viaSpare = await runProcess(spec, s);
    expect(viaSpare).toEqual(await runProcess(spec));
    expect(viaSpare).toMatchObject({ kind: 'not-found', message: expect.stringContaining('does not exist') });
  });

  it('a spare killed while it waited: the run spawns, and ends as it should', async () => {
    const s = spares();
    const spec = { ...base(tmpProject()), command: 'echo ran', timeoutMs: 10_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    const [spare] = s.pids();
    process.kill(spare!, 'SIGKILL');
    expect(await gone(spare!)).toBe(true);
    expect(out(await runProcess(spec, s))).toBe('ran\n');
  });

  it('a spare stopped (SIGSTOP) while it waited: a hook that blocks still blocks, in time', async () => {
    const s = spares();
    // A timeout no test waits out: the run answers long before it, by spawning, or the test's own timeout fails it.
    const spec = { ...base(tmpProject()), command: 'cat >/dev/null; echo "blocked: rm -rf" >&2; exit 2', timeoutMs: 120_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    process.kill(s.pids()[0]!, 'SIGSTOP');
    const started = Date.now();
    const end = await runProcess(spec, s);
    expect(plain(end)).toEqual(plain(await runProcess(spec)));
    expect(end).toMatchObject({ kind: 'exited', exitCode: 2 });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a launcher still starting when the run times out ran nothing: the run is spawned, with its whole timeout', async () => {
    const dir = tmpProject();
    const slow = path.join(dir, 'slow-perl');
    writeFileSync(slow, `#!/bin/sh\nsleep 2\nexec ${LAUNCHER} "$@"\n`, { mode: 0o755 });
    const s = spares({ launcher: slow });
    const spec = { ...base(dir), command: 'cat >/dev/null; echo "blocked" >&2; exit 2', timeoutMs: 700 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    expect(await runProcess(spec, s)).toMatchObject({ kind: 'exited', exitCode: 2 });
  });

  it('the same command in another folder (another project): the spare runs it there, with that run\'s environment', async () => {
    const s = spares();
    const [one, two] = [tmpProject(), tmpProject()];
    const spec = (dir: string) => ({ ...base(dir, { PROJECT: dir }), command: 'echo "$$ $(pwd) $PROJECT"', timeoutMs: 10_000 });
    await runProcess(spec(one), s);
    await until(() => s.pids().length === 1);
    const [spare] = s.pids();
    expect(out(await runProcess(spec(two), s))).toBe(`${spare} ${two} ${two}\n`);
  });

  it('a relative folder (`bin`, which / has too) is taken against the runner\'s own folder, as a spawn takes it (the launcher waits in /)', async () => {
    const spec = { ...base('bin'), command: '/bin/pwd', args: [], timeoutMs: 10_000 };
    const { viaSpare, fresh } = await spareAndFresh(spec);
    expect(out(viaSpare)).toBe(`${path.resolve('bin')}\n`);
    expect(plain(viaSpare)).toEqual(plain(fresh));
  });

  it('a launcher that wrote anything before its run is not used: nothing of it reaches a hook', async () => {
    const dir = tmpProject();
    const noisy = path.join(dir, 'noisy-perl');
    writeFileSync(noisy, `#!/bin/sh\necho 'launcher noise'\necho 'launcher noise' >&2\nexec ${LAUNCHER} "$@"\n`, { mode: 0o755 });
    const s = spares({ launcher: noisy });
    const spec = { ...base(dir), command: 'echo ran', timeoutMs: 10_000 };
    await runProcess(spec, s);
    await until(() => s.pids().length === 1);
    await new Promise((r) => setTimeout(r, 300));
    const end = await runProcess(spec, s);
    expect(plain(end)).toEqual(plain(await runProcess(spec)));
  });
});

describe('spares do not pile up, and none outlives its runner', () => {
  it('at most `max` wait; the oldest is ended for a new one', async () => {
    const s = spares({ max: 2 });
    const dir = tmpProject();
    const pids: number[] = [];
    for (const word of ['one', 'two', 'three']) {
      await runProcess({ ...base(dir), command: `echo ${word}`, timeoutMs: 10_000 }, s);
      const fresh = () => s.pids().find((pid) => !pids.includes(pid));
      await until(() => fresh() !== undefined);
      pids.push(fresh()!);
    }
    expect(s.pids()).toEqual([pids[1], pids[2]]);
    expect(await gone(pids[0]!)).toBe(true);
  });

  it('one left idle past its time is ended', async () => {
    const s = spares({ idleMs: 200 });
    await runProcess({ ...base(tmpProject()), command: 'true', timeoutMs: 10_000 }, s);
    await until(() => s.pids().length === 1);
    const [spare] = s.pids();
    expect(await gone(spare!)).toBe(true);
    expect(s.pids()).toEqual([]);
  });

  it('close ends every spare', async () => {
    const s = spares();
    const dir = tmpProject();
    await runProcess({ ...base(dir), command: 'echo a', timeoutMs: 10_000 }, s);
    await runProcess({ ...base(dir), command: 'echo b', timeoutMs: 10_000 }, s);
    await until(() => s.pids().length === 2);
    const pids = s.pids();
    s.close();
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    // A run that ends after the close starts no spare.
    await runProcess({ ...base(dir), command: 'echo c', timeoutMs: 10_000 }, s);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.pids()).toEqual([]);
  });

  it('a timeout of a hook run from a spare kills what it started', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const s = spares();
    const spec = { ...base(dir, { PID_FILE: pidFile }), command: 'sleep 30 & echo $! > "$PID_FILE"; wait', timeoutMs: 500 };
    // The first run (a spawn) times out too; it starts the spare the second one runs in.
    await runProcess(spec, s);
    rmSync(pidFile);
    await until(() => s.pids().length === 1);
    const end = await runProcess(spec, s);
    expect(end.kind).toBe('timeout');
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  /** A runner in its own process: one hook run with spares, the spare's pid printed, then `then`. */
  function runner(dir: string, then: string) {
    const script = `
      import { runProcess } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'process.js'))};
      import { Spares } from ${JSON.stringify(path.join(ROOT, 'dist', 'run', 'spares.js'))};
      const spares = new Spares();
      await runProcess({ cwd: process.cwd(), env: process.env, input: '{}', timeoutMs: 60000, command: 'true' }, spares);
      while (spares.pids().length === 0) await new Promise((r) => setTimeout(r, 10));
      console.log(spares.pids()[0]);
      ${then}`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    return { child, spare: async () => (await until(() => text.includes('\n'), 20_000), Number(text.trim())) };
  }

  it('a runner SIGKILLed with a spare waiting: the spare sees its stdin close and ends, having run nothing', async () => {
    const { child, spare } = runner(tmpProject(), 'setInterval(() => {}, 1000);');
    const pid = await spare();
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await gone(pid)).toBe(true);
  });

  it('a runner that is done exits though a spare waits (a spare keeps nothing alive), and the spare ends', async () => {
    const { child, spare } = runner(tmpProject(), '');
    const pid = await spare();
    const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    expect(code).toBe(0);
    expect(await gone(pid)).toBe(true);
  });
});
