// Shared by the tests that run the server as a user does (the built CLI as real processes): an isolated
// home whose servers are stopped after each test, a one-word launcher, the client, and the count of events
// the running server answered.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { ROOT, isolatedEnv, runCli, tmpProject } from '../helpers.js';

export const HOOKS = path.join(ROOT, 'bin', 'hooks.js');
export const CLIENT = path.join(ROOT, 'bin', 'agent-hooks-client');

/** `home()` makes an isolated home (no runtime folder, any free port, no autostart unless `extra` says so); its server is stopped after each test. */
export function homesStoppedAfterEach(): (extra?: Record<string, string>) => NodeJS.ProcessEnv {
  const homes: NodeJS.ProcessEnv[] = [];
  afterEach(() => {
    for (const env of homes.splice(0)) runCli(['serve', 'stop'], { env });
  });
  return (extra = {}) => {
    const env = isolatedEnv(tmpProject(), { AGENT_HOOKS_SERVE_PORT: '0', AGENT_HOOKS_SERVE_AUTOSTART: '0', ...extra });
    delete env.XDG_RUNTIME_DIR;
    homes.push(env);
    return env;
  };
}

/** A one-word launcher, as an installed entry has (the client passes it through to the fallback). */
export function launcher(env: NodeJS.ProcessEnv): string {
  const file = path.join(env.HOME!, 'agent-hooks');
  writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(HOOKS)} "$@"\n`, { mode: 0o755 });
  return file;
}

export function client(env: NodeJS.ProcessEnv, args: string[], input: string, cwd = env.HOME!) {
  const r = spawnSync(CLIENT, args, { env, input, encoding: 'utf8', cwd, timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Events the running server answered; undefined when none runs. */
export const served = (env: NodeJS.ProcessEnv) => {
  const r = runCli(['serve', 'status'], { env });
  return r.code === 0 ? Number(/(\d+) answered/.exec(r.stdout)?.[1]) : undefined;
};
