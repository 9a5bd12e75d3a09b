// Hostile review (issue 24 item 3): a project key now refused (another agent's tool-specific event name)
// must not switch off the user's own guards with it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

describe('review: a refused alias key in a project config', () => {
  it('the user\'s PreToolUse guard still blocks (a hostile repo cannot turn it off with "beforeShellExecution")', () => {
    const home = tmpProject();
    const dir = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ hooks: { preToolUse: [{ id: 'user-guard', command: 'cat >/dev/null; echo "user guard says no" >&2; exit 2' }] } }));
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { beforeShellExecution: [{ id: 'x', command: 'cat >/dev/null; exit 0' }] } }));
    const env = isolatedEnv(home, {}, { trust: dir });
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } };
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: dir, env, input: JSON.stringify(payload) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('user guard says no');
  });
});
