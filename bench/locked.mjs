#!/usr/bin/env node
// A locked runner against an unlocked one, whole-process time of `hooks run`, measured in the same run
// (interleaved) against bare `node -e ''`. Needs root and unshare: as root it makes a machine of its own
// (a mount namespace whose /etc is an overlay, as test/lock/machine.ts does: the host's /etc is never
// written), runs `install claude-code --managed` there, copies the installed runner to a folder owned
// by uid 65534 (that copy is unlocked: its files are the user's), and then measures as uid 65534.
// Usage (as root): npm run build && node bench/locked.mjs [--runs 25]
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag, hooksBin, quantile as q } from './kit.mjs';

const runs = Number(flag('--runs', 25));
const inner = flag('--inner');
const NOBODY = 65534;

const event = JSON.stringify({
  session_id: 'bench', cwd: '/tmp', hook_event_name: 'PreToolUse',
  tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench',
});

if (inner === undefined) outer();
else measure(inner);

/** As root: the machine, the install, the user's copy; then this script again, inside, as uid 65534. */
function outer() {
  if (process.geteuid?.() !== 0) throw new Error('bench/locked.mjs runs as root: it makes a locked install (in a mount namespace of its own)');
  const root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-locked-'));
  try {
    chmodSync(root, 0o755);
    for (const d of ['etc', 'etc-work', 'home', 'project']) mkdirSync(path.join(root, d), { mode: 0o755 });
    const prefix = path.join(root, 'opt');
    const install = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', overlay(root), 'machine',
      process.execPath, hooksBin, 'install', 'claude-code', '--managed', '--prefix', prefix, '--node', process.execPath], { encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`install --managed: ${install.stderr}`);
    // The user's copy of the same runner: unlocked (its files are theirs), with their caches on.
    cpSync(path.join(prefix, 'lib', 'node_modules', 'agent-hooks'), path.join(root, 'user', 'agent-hooks'), { recursive: true });
    spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, path.join(root, 'user'), path.join(root, 'home'), path.join(root, 'project')]);
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', overlay(root), 'machine',
      'setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups',
      process.execPath, fileURLToPath(import.meta.url), '--inner', root, '--runs', String(runs)], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function overlay(root) {
  return `mount -t overlay overlay -o lowerdir=/etc,upperdir=${root}/etc,workdir=${root}/etc-work /etc && exec "$@"`;
}

function measure(root) {
  const env = {
    PATH: '/usr/bin:/bin', HOME: path.join(root, 'home'),
    XDG_CACHE_HOME: path.join(root, 'home', 'cache'), XDG_CONFIG_HOME: path.join(root, 'home', 'config'), XDG_STATE_HOME: path.join(root, 'home', 'state'),
  };
  const locked = path.join(root, 'opt', 'lib', 'node_modules', 'agent-hooks', 'bin', 'hooks.js');
  const unlocked = path.join(root, 'user', 'agent-hooks', 'bin', 'hooks.js');
  const runArgs = ['run', 'pre-tool-use', '--dialect', 'claude-code', '--on-error', 'block'];
  const cases = [
    { name: "node -e ''", args: ['-e', ''], input: '' },
    { name: 'hooks run, unlocked (the user\'s copy, caches on)', args: [unlocked, ...runArgs], input: event },
    { name: 'hooks run, locked (root\'s copy)', args: [locked, ...runArgs], input: event },
    // A locked run as it was before root's code cache: the CLI and zod compiled on every run.
    { name: 'hooks run, locked, HOOKS_NO_CODE_CACHE (= before)', args: [locked, ...runArgs], input: event, env: { HOOKS_NO_CODE_CACHE: '1' } },
    // What a locked run still does each time: check the config (no config cache), with the CLI's code cached.
    { name: 'hooks run, unlocked, HOOKS_NO_CACHE', args: [unlocked, ...runArgs], input: event, env: { HOOKS_NO_CACHE: '1' } },
  ];
  const doctor = spawnSync(process.execPath, [locked, 'doctor'], { env, encoding: 'utf8' });
  if (!doctor.stdout.includes('locked: yes')) throw new Error(`the root copy is not locked:\n${doctor.stdout}${doctor.stderr}`);
  const undoctor = spawnSync(process.execPath, [unlocked, 'doctor'], { env, encoding: 'utf8' });
  if (!undoctor.stdout.includes('locked: no')) throw new Error(`the user's copy is locked:\n${undoctor.stdout}`);
  const samples = cases.map(() => []);
  for (let i = 0; i < runs + 2; i++) {
    cases.forEach((c, k) => {
      const started = process.hrtime.bigint();
      const r = spawnSync(process.execPath, c.args, { cwd: path.join(root, 'project'), input: c.input, env: { ...env, ...c.env }, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
      if (i >= 2) samples[k].push(ms); // the first two rounds make the user's caches
    });
  }
  const base = q(samples[0], 0.5);
  console.log(`locked vs unlocked hooks run (managed layer: command-safety, sensitive-paths, redact-secrets), ${runs} runs each, uid ${process.getuid()}, Node ${process.version}, ${os.cpus().length} cores`);
  console.log(`${'case'.padEnd(52)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× node'.padStart(8)}`);
  cases.forEach((c, k) => {
    const med = q(samples[k], 0.5);
    console.log(`${c.name.padEnd(52)} ${med.toFixed(1).padStart(8)} ${q(samples[k], 0.9).toFixed(1).padStart(8)} ${(med / base).toFixed(2).padStart(8)}`);
  });
  const [, u, l, b] = cases.map((_, k) => q(samples[k], 0.5));
  console.log(`locked / unlocked: ${(l / u).toFixed(2)} (before root's code cache: ${(b / u).toFixed(2)})`);
  // Which caches the locked run read, and whether V8 took them.
  const debug = spawnSync(process.execPath, [locked, ...runArgs], { cwd: path.join(root, 'project'), input: event, env: { ...env, HOOKS_DEBUG: '1' }, encoding: 'utf8' });
  for (const line of debug.stderr.split('\n').filter((l) => l.includes('code cache'))) console.log(line);
}
