// `hooks run` never runs git for extends (the hot path, no network): a source not fetched is a warning
// naming it; `hooks trust --fetch` fetches it for the user layer, and the next run has its hooks, offline.
import { chmodSync, mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, runCli, sample, tmpProject } from '../helpers.js';
import { bareRepo } from './git-repo.js';

describe('extends on the hot path', () => {
  it('hooks run never runs git; trust --fetch does, once; then the run has the hooks', async () => {
    const { bare, commit } = bareRepo({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'team-block', command: 'echo "team policy says no" >&2; exit 2' }] } }) });

    const home = tmpProject({ '.config/agent-hooks/config.json': JSON.stringify({ extends: `git+file://${bare}#${commit}` }) });
    // A git on PATH that only logs: the run must not call it.
    const fakeBin = path.join(home, 'fake-bin');
    mkdirSync(fakeBin);
    const log = path.join(home, 'git-calls.log');
    writeFileSync(path.join(fakeBin, 'git'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\nexit 1\n`);
    chmodSync(path.join(fakeBin, 'git'), 0o755);
    const env = isolatedEnv(home);
    const input = JSON.stringify({ ...sample('pre-tool-use.ls'), cwd: home });

    const before = runCli(['run', 'pre-tool-use'], { cwd: home, env: { ...env, PATH: `${fakeBin}:${env.PATH}` }, input });
    expect(before.code).toBe(0);
    expect(before.stderr).toMatch(/is not fetched yet, so its hooks do not run; .*npx agent-hooks trust --fetch/);
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');

    const fetched = await cliInProcess(['trust', '--fetch'], { cwd: home, env });
    expect(fetched.code).toBe(0);
    expect(fetched.stdout).toMatch(/extends .*\.cache\/agent-hooks\/extends\/[0-9a-f]+\/tree\/\.hooksrc\.json/);

    const after = runCli(['run', 'pre-tool-use'], { cwd: home, env: { ...env, PATH: `${fakeBin}:${env.PATH}` }, input });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('team policy says no');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
  });
});
