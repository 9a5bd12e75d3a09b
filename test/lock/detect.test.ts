// The lock, on real files with real owners: the test runs as root and asks for another uid ("the user"),
// chowning files and folders to that uid, or to a group it is in, to make them the user's to change.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockState } from '../../src/lock/detect.js';

const asRoot = process.geteuid?.() === 0;
const USER = 4321;
const USER_GROUP = 4321;
const OTHER_GROUP = 4999;

let dir: string;
/** A root-owned tree like a locked install: a runner package, a node, a managed layer. */
let setup: { runner: string[]; node: string; managed: string };

function file(rel: string, mode = 0o644): string {
  const f = path.join(dir, rel);
  mkdirSync(path.dirname(f), { recursive: true, mode: 0o755 });
  writeFileSync(f, 'x', { mode });
  chmodSync(f, mode);
  return f;
}

function state(over: Partial<Parameters<typeof lockState>[0]> = {}) {
  return lockState({ uid: USER, groups: [USER_GROUP], ...setup, ...over });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-lock-'));
  chmodSync(dir, 0o755);
  const root = path.join(dir, 'opt', 'agent-hooks');
  setup = {
    runner: [root, file('opt/agent-hooks/bin/hooks.js', 0o755), file('opt/agent-hooks/dist/bundle/main.js'), file('opt/agent-hooks/dist/bundle/cli.cjs')],
    node: file('usr/bin/node', 0o755),
    managed: file('etc/agent-hooks/managed.json'),
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!asRoot)('lockState (as root, for uid 4321)', () => {
  it('is locked when the runner, node and managed layer and every folder above them are root-owned and not writable by the user', () => {
    expect(state()).toEqual({ locked: true, reasons: [] });
  });

  it('is not locked when a runner file is the user\'s', () => {
    chownSync(setup.runner[2]!, USER, USER_GROUP);
    const { locked, reasons } = state();
    expect(locked).toBe(false);
    expect(reasons).toEqual([`runner ${setup.runner[0]}: is yours (uid ${USER}), so you can change it`]);
  });

  it('is not locked when a folder of the runner is the user\'s (they could replace every file in it)', () => {
    chownSync(path.join(dir, 'opt'), USER, USER_GROUP);
    expect(state().reasons).toEqual([`runner ${setup.runner[0]}: folder ${path.join(dir, 'opt')} is yours (uid ${USER}), so you can change it`]);
  });

  it('is not locked when node_modules inside the runner could be planted by the user', () => {
    chownSync(setup.runner[0]!, USER, USER_GROUP);
    expect(state({ runner: [setup.runner[0]!, path.join(setup.runner[0]!, 'node_modules')] }).locked).toBe(false);
  });

  it('counts group write only for a group the user is in', () => {
    const bundle = path.dirname(setup.runner[2]!);
    chownSync(bundle, 0, OTHER_GROUP);
    chmodSync(bundle, 0o775);
    expect(state().locked).toBe(true);
    expect(state({ groups: [USER_GROUP, OTHER_GROUP] }).reasons).toEqual([`runner ${setup.runner[0]}: folder ${bundle} is writable by your group ${OTHER_GROUP} (mode 0775)`]);
    // With the sticky bit the group may add files there, not replace root's.
    chmodSync(bundle, 0o1775);
    expect(state({ groups: [USER_GROUP, OTHER_GROUP] }).locked).toBe(true);
  });

  it('is not locked when the node binary is writable by everyone', () => {
    chmodSync(setup.node, 0o757);
    expect(state().reasons).toEqual([`node ${setup.node}: is writable by everyone (mode 0757)`]);
  });

  it('takes a folder anyone may write with the sticky bit (/tmp) as safe for another user\'s file, not without it', () => {
    const bin = path.dirname(setup.node);
    chmodSync(bin, 0o1777);
    expect(state().locked).toBe(true);
    chmodSync(bin, 0o777);
    expect(state().reasons).toEqual([`node ${setup.node}: folder ${bin} is writable by everyone (mode 0777)`]);
  });

  it('follows a link to node: a root-owned link to the user\'s node is the user\'s', () => {
    const own = file('home/user/.nvm/node', 0o755);
    chownSync(own, USER, USER_GROUP);
    const link = path.join(dir, 'usr', 'bin', 'node-link');
    symlinkSync(own, link);
    const { reasons } = state({ node: link });
    expect(reasons).toEqual([`node ${link}: links to ${own}, which is yours (uid ${USER}), so you can change it`]);
  });

  it('names an absent managed layer', () => {
    rmSync(setup.managed);
    expect(state().reasons).toEqual([`managed layer ${setup.managed}: absent`]);
  });

  it('is not locked when the managed layer\'s folder is the user\'s', () => {
    chownSync(path.dirname(setup.managed), USER, USER_GROUP);
    expect(state().reasons).toEqual([`managed layer ${setup.managed}: folder ${path.dirname(setup.managed)} is yours (uid ${USER}), so you can change it`]);
  });

  it('gives every reason at once', () => {
    chownSync(setup.node, USER, USER_GROUP);
    rmSync(setup.managed);
    chmodSync(setup.runner[1]!, 0o777);
    expect(state().reasons).toHaveLength(3);
  });

  it('is never locked for root, nor for the running process here (root)', () => {
    expect(state({ uid: 0 }).reasons).toEqual(['you are root (uid 0): root can write every file the lock depends on']);
    expect(lockState().locked).toBe(false);
  });

  it('does not read the environment', () => {
    const before = state();
    process.env.AGENT_HOOKS_MANAGED_CONFIG = '/nonexistent/managed.json';
    try {
      expect(state()).toEqual(before);
    } finally {
      delete process.env.AGENT_HOOKS_MANAGED_CONFIG;
    }
  });
});
