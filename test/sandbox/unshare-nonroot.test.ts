// The unshare sandbox as an ordinary user (uid 65534), the way it runs on a developer's machine: when
// the tests run as root, the CLI and the rewritten command are both run as that user with setpriv.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeForOtherUsers, ROOT } from '../helpers.js';

const UID = 65534;
const possible =
  process.getuid?.() === 0 &&
  spawnSync('setpriv', ['--reuid', String(UID), '--regid', String(UID), '--clear-groups', 'unshare', '--user', '--map-root-user', '--mount', '--net', 'true']).status === 0;

function asUser(args: string[], cwd: string, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('setpriv', ['--reuid', String(UID), '--regid', String(UID), '--clear-groups', ...args], { cwd, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

describe.skipIf(!possible)('unshare sandbox as an ordinary user (real)', () => {
  it('routes, runs as the user, writes the project only, no network, cannot undo the read-only mounts', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-nonroot-'));
    chmodSync(root, 0o755);
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    for (const dir of [home, project]) {
      mkdirSync(dir);
      chownSync(dir, UID, UID);
    }
    // The CLI as that user can read it: the repository may sit in a folder only root can enter
    // (CI clones it into a 0700 mktemp folder), so the bin and the bundle are copied beside the project.
    const cli = path.join(root, 'agent-hooks');
    for (const part of ['bin', path.join('dist', 'bundle')]) cpSync(path.join(ROOT, part), path.join(cli, part), { recursive: true });
    const command = 'id -u; echo ok > made.txt; touch "$HOME/escape" 2>/dev/null || echo home-ro; mount -o remount,bind,rw / 2>/dev/null || echo no-remount; curl -sS -m 3 http://127.0.0.1:9/ 2>/dev/null || echo no-net';
    const env = ['env', '-i', `HOME=${home}`, `CLAUDE_PROJECT_DIR=${project}`, `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`];
    const event = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: project });
    const routed = await asUser([...env, nodeForOtherUsers(), path.join(cli, 'bin', 'hooks.js'), 'guard', 'sandbox'], project, event);
    expect(routed.code, routed.stderr).toBe(0);
    const wrapped = JSON.parse(routed.stdout).hookSpecificOutput.updatedInput.command as string;
    const ran = await asUser([...env, '/bin/bash', '-c', wrapped], project);
    expect(ran.stderr).not.toContain('agent-hooks sandbox');
    expect(ran.stdout).toBe(`${UID}\nhome-ro\nno-remount\nno-net\n`);
    expect(readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(path.join(home, 'escape'))).toBe(false);
  });
});
