// A repository can plant a FIFO, or a link to a device or to the runner's own stdout pipe, at a config
// name. Read plainly, each would hang the runner (the agent's hook times out and the tool runs with
// every guard off). None is ever read: the file is reported, and the guards still run.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';


const PLANTS: [string, (file: string) => void][] = [
  ['a link to the runner\'s own stdout (/proc/self/fd/1) as .hooksrc.json', (dir) => symlinkSync('/proc/self/fd/1', path.join(dir, '.hooksrc.json'))],
  ['a FIFO as .hooksrc.json', (dir) => execFileSync('mkfifo', [path.join(dir, '.hooksrc.json')])],
  ['a FIFO as .hooksrc.local.json beside a real config', (dir) => {
    writeFileSync(path.join(dir, '.hooksrc.json'), '{"hooks":{}}');
    execFileSync('mkfifo', [path.join(dir, '.hooksrc.local.json')]);
  }],
  ['/dev/zero as package.json', (dir) => symlinkSync('/dev/zero', path.join(dir, 'package.json'))],
];

describe('special files at config names', () => {
  it.each(PLANTS)('%s: never read; the user guard still blocks, within seconds', (_name, plant) => {
    const home = tmpProject({ '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }) });
    const repo = path.join(home, 'repo');
    mkdirSync(path.join(repo, '.git'), { recursive: true });
    plant(repo);
    const event = { session_id: 's', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } };
    const r = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: repo, env: isolatedEnv(home), input: JSON.stringify(event) });
    expect(r.ms).toBeLessThan(20_000);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    // Refused either as no regular file or, for a pipe open to others, by the owner and mode check.
    expect(r.stdout).toMatch(/not a regular file|skipped: the file is/);
  });
});
