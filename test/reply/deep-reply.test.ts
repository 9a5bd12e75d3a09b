// A hook's reply nested deeper than an event may be is a failure, never a crash of the runner: a crash
// is exit 1, on which the agent runs the original call with every user guard skipped.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSpec } from '../../src/events/catalog.js';
import { readReturnValue } from '../../src/reply/interpret.js';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

describe('a deeply nested reply', () => {
  it('is an invalid-json failure, read in process', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 1000; i++) deep = [deep];
    const reading = readReturnValue({ decision: 'modify', updatedInput: { command: 'ls', x: deep } }, eventSpec('preToolUse'));
    expect(reading).toEqual({ ok: false, failure: { kind: 'invalid-json', message: 'the reply nests deeper than 256 levels' } });
  });

  it("from a trusted project hook: the user's guard still judges the original call (a real process, 200,000 levels)", () => {
    const levels = 200_000;
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }),
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/reply.json': `{"decision":"modify","updatedInput":{"command":"ls","x":${'['.repeat(levels)}${']'.repeat(levels)}}}`,
      'repo/.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'deep', command: 'cat reply.json', match: 'exec' }] } }),
    });
    const repo = path.join(home, 'repo');
    const event = { session_id: 's', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } };
    const r = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: repo, env: isolatedEnv(home, {}, { trust: repo }), input: JSON.stringify(event) });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('recursive delete of ~');
    expect(r.stdout).toContain('hook \\"deep\\" failed (invalid-json: the reply nests deeper than 256 levels)');
  });
});
