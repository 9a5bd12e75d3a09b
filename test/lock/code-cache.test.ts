// A locked runner's code cache: `install --managed` makes it as root beside the copied bundle, and the
// runner, run by another user, reads it only when that user can change neither the file nor a folder
// above it; never a cache of the user's. HOOKS_DEBUG=1 says which cache a run read and whether V8 took
// it: that line is the evidence here (no timings). Every case still blocks `rm -rf ~`: a cache is only speed.
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { machineUnavailable, makeMachine, type Machine } from './machine.js';

const NOBODY = { uid: 65534, gid: 65534 };
const RM_HOME = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: '/tmp' });

const unavailable = machineUnavailable();

describe.skipIf(unavailable !== undefined)('a locked runner\'s code cache, made by install --managed', () => {
  let machine: Machine;
  let bin: string;
  let bundleDir: string;
  let cache: string;
  let userCache: string;
  let lastStderr = '';

  /** The locked runner, as uid 65534, on rm -rf ~, with HOOKS_DEBUG; must block whatever the cache. */
  const lockedRun = async () => {
    const r = await machine.run(
      ['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin', `HOME=${path.dirname(userCache)}`, `XDG_CACHE_HOME=${userCache}`, 'HOOKS_DEBUG=1', '/usr/bin/node', bin, 'run', 'pre-tool-use', '--dialect', 'claude-code', '--on-error', 'block'],
      { user: NOBODY, input: RM_HOME },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    lastStderr = r.stderr;
    return r.stderr.split('\n').find((l) => l.startsWith('agent-hooks: code cache: ')) ?? `(no code cache line) ${r.stderr}`;
  };

  /** Runs `body` with the cache file changed by `change`, then puts the original back. */
  const withCache = async (change: () => void, body: () => Promise<void>) => {
    const saved = path.join(machine.root, 'cli.cache.saved');
    copyFileSync(cache, saved);
    try {
      change();
      await body();
    } finally {
      rmSync(cache, { force: true });
      copyFileSync(saved, cache);
      chownSync(cache, 0, 0);
      chmodSync(cache, 0o644);
      unlinkSync(saved);
    }
  };

  beforeAll(async () => {
    machine = makeMachine();
    const pkg = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks');
    bin = path.join(pkg, 'bin', 'hooks.js');
    bundleDir = path.join(pkg, 'dist', 'bundle');
    cache = path.join(bundleDir, 'cli.cache');
    const home = path.join(machine.root, 'home');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, NOBODY.uid, NOBODY.gid);
    userCache = path.join(home, 'cache');
    const { code, stdout, stderr } = await machine.run(['/usr/bin/node', path.join(ROOT, 'bin', 'hooks.js'), 'install', 'claude-code', '--managed', '--prefix', machine.prefix, '--node', '/usr/bin/node'], { timeoutMs: 120_000 });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`code cache ${cache} made for /usr/bin/node`);
  }, 180_000);
  afterAll(() => machine?.remove());

  it('is root-owned, 0644, beside the bundle; the locked runner reads it and V8 accepts it; the user\'s cache is neither read nor written', async () => {
    const stats = statSync(cache);
    expect([stats.uid, stats.mode & 0o777]).toEqual([0, 0o644]);
    expect(readFileSync(cache).subarray(0, 8).toString()).toBe('AHROOT01');
    expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: accepted by V8`);
    // zod, which the CLI requires from its vendor folder to check the config (a locked run does on every run), has its own.
    const zod = path.join(bundleDir, 'vendor', 'zod.cache');
    expect([statSync(zod).uid, statSync(zod).mode & 0o777]).toEqual([0, 0o644]);
    expect(lastStderr).toContain(`agent-hooks: code cache: ${zod}: accepted by V8`);
    // A locked runner writes no cache of the user's (and, by the line above, read none).
    expect(existsSync(path.join(userCache, 'agent-hooks', 'code')) ? readdirSync(path.join(userCache, 'agent-hooks', 'code')) : []).toEqual([]);
  }, 60_000);

  it('a cache file the user owns is not read', async () => {
    await withCache(
      () => chownSync(cache, NOBODY.uid, NOBODY.gid),
      async () => expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: not used: is yours (uid 65534), so you can change it`),
    );
  }, 60_000);

  it('a library\'s cache file the user owns is not read either', async () => {
    const zod = path.join(bundleDir, 'vendor', 'zod.cache');
    chownSync(zod, NOBODY.uid, NOBODY.gid);
    try {
      expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: accepted by V8`);
      expect(lastStderr).toContain(`agent-hooks: code cache: ${zod}: not used: is yours (uid 65534), so you can change it`);
    } finally {
      chownSync(zod, 0, 0);
    }
  }, 60_000);

  // zod, which every locked run loads; OpenTelemetry, compressed, which a run with telemetry loads (src/vendor/names.ts).
  it.each(['zod.cjs', 'otel.cjs.br'])('a vendor library of the user\'s (%s) means the runner is not locked', async (file) => {
    const library = path.join(bundleDir, 'vendor', file);
    chownSync(library, NOBODY.uid, NOBODY.gid);
    try {
      const doctor = await machine.run(['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin', '/usr/bin/node', bin, 'doctor'], { user: NOBODY });
      expect(doctor.stdout).toContain('locked: no');
      expect(doctor.stdout).toContain(': is yours (uid 65534), so you can change it');
      expect(await lockedRun()).toContain(path.join(userCache, 'agent-hooks', 'code'));
    } finally {
      chownSync(library, 0, 0);
    }
  }, 60_000);

  it('a cache file anyone may write is not read', async () => {
    await withCache(
      () => chmodSync(cache, 0o666),
      async () => expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: not used: is writable by everyone (mode 0666)`),
    );
  }, 60_000);

  it('a link to a file of the user\'s is not read', async () => {
    const planted = path.join(machine.root, 'planted.cache');
    await withCache(
      () => {
        copyFileSync(cache, planted);
        chownSync(planted, NOBODY.uid, NOBODY.gid);
        unlinkSync(cache);
        symlinkSync(planted, cache);
      },
      async () => expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: not used: links to ${planted}, which is yours (uid 65534), so you can change it`),
    );
  }, 60_000);

  it('a cache made for another bundle or node is not handed to V8', async () => {
    await withCache(
      () => {
        // The header's key (after the magic and its length: {"key":"<64 hex>") made another's.
        const bytes = readFileSync(cache);
        const at = bytes.indexOf('"key":"') + 7;
        bytes.fill('0', at, at + 64);
        writeFileSync(cache, bytes);
      },
      async () => expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: not used: made for another bundle or Node, or damaged`),
    );
  }, 60_000);

  it('V8 itself rejects a cache with the right key and another script\'s code, and the run compiles', async () => {
    await withCache(
      () => {
        const bytes = readFileSync(cache);
        const headerEnd = 12 + bytes.readUInt32BE(8);
        const other = new vm.Script('(function () { return 1; })').createCachedData();
        writeFileSync(cache, Buffer.concat([bytes.subarray(0, headerEnd), other]));
      },
      async () => expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: rejected by V8`),
    );
  }, 60_000);

  it('control: with the bundle\'s folder writable by the user the runner is not locked, and it reads the user\'s own cache instead', async () => {
    chmodSync(bundleDir, 0o777);
    try {
      const r = await machine.run(['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin', `HOME=${path.dirname(userCache)}`, `XDG_CACHE_HOME=${userCache}`, 'HOOKS_DEBUG=1', '/usr/bin/node', bin, 'run', 'pre-tool-use', '--dialect', 'claude-code'], { user: NOBODY, input: RM_HOME });
      const line = r.stderr.split('\n').find((l) => l.startsWith('agent-hooks: code cache: ')) ?? r.stderr;
      expect(line).toContain(path.join(userCache, 'agent-hooks', 'code'));
      expect(line).not.toContain('cli.cache');
    } finally {
      chmodSync(bundleDir, 0o755);
    }
  }, 60_000);

  it('--code-cache makes it again (after a node upgrade), and refuses to run as a user', async () => {
    unlinkSync(cache);
    const made = await machine.run(['/usr/bin/node', bin, 'install', 'claude-code', '--managed', '--code-cache', '--prefix', machine.prefix, '--node', '/usr/bin/node'], { timeoutMs: 120_000 });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`code cache ${cache} made`);
    expect(await lockedRun()).toBe(`agent-hooks: code cache: ${cache}: accepted by V8`);
    const refused = await machine.run(['/usr/bin/node', bin, 'install', 'claude-code', '--managed', '--code-cache', '--prefix', machine.prefix], { user: NOBODY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--code-cache: run it as root');
  }, 180_000);
});
