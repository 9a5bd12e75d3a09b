// `hooks test` gives prompt hooks the model answer the case records: no network, and a prompt hook
// without a recorded answer fails (it never asks a real model).
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

const CONFIG = { hooks: { preToolUse: [{ id: 'no-push', type: 'prompt', prompt: 'Block git push. $ARGUMENTS', match: 'exec', continueOnBlock: true, onFailure: 'block' }] } };
const exec = (command: string) => ({ sample: 'pre-tool-use', tool: 'exec', input: { command } });

/** `hooks test` in-process (cliInProcess: the same argv, cwd, env and exit code) on these cases. */
function run(cases: unknown[]) {
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify(CONFIG), 'hooks-tests/judge.json': JSON.stringify(cases) });
  // An endpoint nothing listens on: a request that went out would fail the case with "connection refused".
  return cliInProcess(['test'], { cwd: dir, env: isolatedEnv(dir, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'unused' }) });
}

describe('hooks test: recorded judge answers', () => {
  it('a recorded verdict (object or text) decides the case', async () => {
    const r = await run([
      { name: 'push blocked', event: exec('git push'), judge: { 'no-push': { ok: false, reason: 'pushes are reviewed' } }, expect: { decision: 'block', reason: 'pushes are reviewed' } },
      { name: 'status allowed', event: exec('git status'), judge: { 'no-push': '{"ok": true}' }, expect: { decision: 'continue', ran: ['no-push'] } },
      { name: 'bad answer fails closed', event: exec('git status'), judge: { 'no-push': 'sure, go ahead' }, expect: { decision: 'block', failed: [{ id: 'no-push', kind: 'bad-reply' }] } },
    ]);
    expect(r.stdout).toContain('3 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('without continueOnBlock, ok:false also ends the turn (halt), as in Claude Code', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'no-prod', type: 'prompt', prompt: 'No production. $ARGUMENTS', match: 'exec' }] } }),
      'hooks-tests/judge.json': JSON.stringify([{ name: 'push is judged', event: exec('git push'), judge: { 'no-prod': { ok: false, reason: 'pushes are reviewed' } }, expect: { decision: 'halt', reason: 'pushes are reviewed' } }]),
    });
    const r = await cliInProcess(['test'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.stdout).toContain('1 passed, 0 failed');
  });

  it('an agent hook reads a recorded verdict too (its loop does not run): ok:false blocks without ending the turn', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'policy', type: 'agent', prompt: 'Check POLICY.md. $ARGUMENTS', match: 'exec' }] } }),
      'hooks-tests/judge.json': JSON.stringify([
        { name: 'rm is judged', event: exec('rm -rf build'), judge: { policy: { ok: false, reason: 'the policy forbids it' } }, expect: { decision: 'block', reason: 'the policy forbids it' } },
        { name: 'unrecorded', event: exec('ls'), expect: { decision: 'continue', failed: [{ id: 'policy', kind: 'error' }] } },
      ]),
    });
    const r = await cliInProcess(['test'], { cwd: dir, env: isolatedEnv(dir, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'unused' }) });
    expect(r.stdout).toContain('2 passed, 0 failed');
    expect(r.stdout + r.stderr).not.toMatch(/connection refused/);
  });

  it('a prompt hook with no recorded answer fails, and nothing is asked', async () => {
    const r = await run([{ name: 'unrecorded', event: exec('git push'), expect: { decision: 'block', failed: [{ id: 'no-push', kind: 'error' }], reason: 'records no model answer' } }]);
    expect(r.stdout).toContain('1 passed, 0 failed');
    expect(r.stdout + r.stderr).not.toMatch(/connection refused/);
  });
});
