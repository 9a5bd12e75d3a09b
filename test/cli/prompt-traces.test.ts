// What a prompt hook's run says in --verbose, hooks explain and the audit log: the verdict, the model,
// the latency and the token counts, and never the API key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';
import { fakeModel, type FakeModel } from '../judge/fake-model.js';

const KEY = 'sk-ant-trace-1111-not-a-real-key';
let model: FakeModel;
beforeAll(async () => {
  model = await fakeModel({ traced: { text: '{"ok": false, "reason": "judge says no"}', usage: [321, 17] }, dialects: { text: '{"ok": false, "reason": "no deleting"}' } });
});
afterAll(() => model.close());

function project() {
  const dir = tmpProject({
    '.hooksrc.json': JSON.stringify({
      hooks: {
        preToolUse: [{ id: 'judge-push', type: 'prompt', prompt: 'Block git push: $ARGUMENTS', match: 'exec', continueOnBlock: true }],
        '*': [{ builtin: 'audit-log', options: { path: 'audit.jsonl' } }],
      },
    }),
  });
  return { dir, env: isolatedEnv(dir, { ANTHROPIC_BASE_URL: `${model.base}/traced`, ANTHROPIC_API_KEY: KEY, NO_COLOR: '1' }) };
}
const input = (dir: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'trace-session', cwd: dir, tool_name: 'Bash', tool_input: { command: 'git push' }, tool_use_id: 't1' });

describe('prompt hook traces', () => {
  it('--verbose names the model, the verdict, the latency and the tokens; the audit log records them; the key is nowhere', async () => {
    const { dir, env } = project();
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code', '--verbose'], { cwd: dir, env, input: input(dir) });
    expect(r.stderr).toMatch(/judge-push block .*judge anthropic claude-haiku-4-5-20251001: not ok \(model, \d+ms, 321 in \/ 17 out tokens\).*judge says no/);
    expect(r.stdout).toContain('judge says no');
    const log = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    const record = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.hook === 'judge-push')!;
    expect(record.judge).toMatchObject({ provider: 'anthropic', verdict: 'not ok', via: 'model', inputTokens: 321, outputTokens: 17 });
    for (const text of [r.stdout, r.stderr, log]) expect(text).not.toContain(KEY);
  });

  it('hooks explain --json carries the judge note; a repeat is served from the cache', async () => {
    const { dir, env } = project();
    const first = await cliInProcess(['explain', '--json'], { cwd: dir, env, input: input(dir) });
    const again = await cliInProcess(['explain', '--json'], { cwd: dir, env, input: input(dir) });
    const step = (out: string) => (JSON.parse(out) as { steps: { id: string; judge?: Record<string, unknown> }[] }).steps.find((s) => s.id === 'judge-push')!;
    expect(step(first.stdout).judge).toMatchObject({ model: 'claude-haiku-4-5-20251001', verdict: 'not ok' });
    expect(step(again.stdout).judge).toMatchObject({ verdict: 'not ok', via: 'cache' });
    expect(first.stdout + first.stderr + again.stdout).not.toContain(KEY);
  });
});

describe('prompt hooks in list and doctor', () => {
  it('hooks list says what judges; hooks doctor warns when the judge cannot be asked', async () => {
    const { dir } = project();
    const noKey = isolatedEnv(dir, { ANTHROPIC_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' });
    const list = await cliInProcess(['list'], { cwd: dir, env: noKey });
    expect(list.stdout).toMatch(/judge-push.*model judge \(the default model\): "Block git push: \$ARGUMENTS"/);
    const doctor = await cliInProcess(['doctor'], { cwd: dir, env: noKey });
    expect(doctor.stdout).toMatch(/judge-push.*its judge cannot be asked: no API key for https:\/\/api\.anthropic\.com: set ANTHROPIC_API_KEY/);
    const withKey = await cliInProcess(['doctor'], { cwd: dir, env: project().env });
    expect(withKey.stdout).not.toMatch(/its judge cannot be asked/);
  });
});

describe('prompt hooks in other agents', () => {
  const payload = (agent: string, file: string) => readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', agent, file), 'utf8');
  function judged() {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'no-delete', type: 'prompt', prompt: 'Block deleting files: $ARGUMENTS', match: 'exec', continueOnBlock: true }] } }) });
    return { dir, env: isolatedEnv(dir, { ANTHROPIC_BASE_URL: `${model.base}/dialects`, ANTHROPIC_API_KEY: KEY }) };
  }

  it('Gemini CLI: the judge sees the BeforeTool payload and its deny is answered in Gemini\'s shape', async () => {
    const { dir, env } = judged();
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'gemini'], { cwd: dir, env, input: payload('gemini', 'BeforeTool.json') });
    expect(r.stdout).toContain('no deleting');
    expect(JSON.parse(r.stdout) as Record<string, unknown>).toMatchObject({ decision: 'deny' });
    const sent = JSON.stringify(model.seen.findLast((s) => s.path.startsWith('/dialects/'))!.body.messages);
    expect(sent).toContain('run_shell_command');
  });

  it('Codex CLI: the deny reaches Codex as its PreToolUse block', async () => {
    const { dir, env } = judged();
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'codex'], { cwd: dir, env, input: payload('codex', 'PreToolUse.Bash.json') });
    expect(r.stderr).toContain('no deleting');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '[Block deleting files: $ARGUMENTS]: no deleting' } });
  });
});
