// A throwaway world for one agent run: a temporary HOME, a workspace folder, and a clean
// environment (nothing of the developer's own agent setup, keys or hooks leaks in).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_CONFIG_NAME, SEARCH_PLACES } from '../../../src/config/load.js';
import { updateTrustStore } from '../../../src/trust/store.js';
import { trustRecordOf } from '../../helpers.js';
import { afterAll } from 'vitest';
import { REPO } from './install-agent.js';
import { killTracked } from './process.js';

export const HOOKS_BIN = path.join(REPO, 'bin', 'hooks.js');

export interface Workspace {
  /** The temp folder holding everything below. */
  root: string;
  /** The agent's HOME. */
  home: string;
  /** The project the agent works in (its cwd). */
  dir: string;
  /**
   * Writes files relative to the workspace (objects are written as JSON). Project config files written
   * at the top are trusted in the workspace's trust store, as the user's `hooks trust` would; pass
   * `{ trust: false }` to leave them untrusted.
   */
  write(files: Record<string, string | object>, options?: { trust?: boolean }): void;
  /** A file of the workspace, or undefined when it does not exist. */
  read(name: string): string | undefined;
  exists(name: string): boolean;
  /** A clean environment: PATH, locale, HOME and XDG folders in the temp home, plus `extra`. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

const made: string[] = [];

/**
 * After the tests of the file (or describe) that calls it: stops the fake model servers in `servers`
 * (the ones its tests left running), kills every process it spawned and removes its workspaces.
 */
export function cleanUpAfterAll(servers: readonly { stop(): void }[] = []): void {
  afterAll(() => {
    for (const s of servers) s.stop();
    killTracked();
    removeWorkspaces();
  });
}

/** Removes every workspace this test file made (afterAll), unless AGENT_HOOKS_E2E_KEEP=1 keeps them to look at. */
export function removeWorkspaces(): void {
  if (process.env.AGENT_HOOKS_E2E_KEEP === '1') {
    if (made.length > 0) process.stderr.write(`agent-hooks e2e: kept ${made.join(' ')}\n`);
    return;
  }
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function makeWorkspace(label: string): Workspace {
  const root = mkdtempSync(path.join(os.tmpdir(), `agent-hooks-e2e-${label}-`));
  made.push(root);
  const home = path.join(root, 'home');
  const dir = path.join(root, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const write = (files: Record<string, string | object>, options: { trust?: boolean } = {}) => {
    const trusted: string[] = [];
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(dir, name);
      mkdirSync(path.dirname(file), { recursive: true });
      const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
      writeFileSync(file, text);
      if (options.trust !== false && (SEARCH_PLACES.includes(name) || name === LOCAL_CONFIG_NAME)) trusted.push(file);
    }
    if (trusted.length > 0) updateTrustStore({ HOME: home, XDG_STATE_HOME: path.join(home, '.local', 'state') }, { trust: trusted.map((file) => trustRecordOf(file)) });
  };
  return {
    root,
    home,
    dir,
    write,
    read: (name) => (existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), 'utf8') : undefined),
    exists: (name) => existsSync(path.join(dir, name)),
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      NO_COLOR: '1',
      CI: '1',
      HOME: home,
      USER: os.userInfo().username,
      SHELL: '/bin/bash',
      TMPDIR: os.tmpdir(),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      ...extra,
    }),
  };
}

/** The hook command an agent config runs: `node <repo>/bin/hooks.js run <event> --dialect <d>`, absolute paths. */
export function hooksRun(event: string, dialect: string): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(HOOKS_BIN)} run ${event} --dialect ${dialect}`;
}
