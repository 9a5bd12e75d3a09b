// `type: "prompt"` hooks against fake Anthropic and OpenAI servers on 127.0.0.1: the verdict is read as
// Claude Code reads it, every way the model can fail is a named failure under onFailure, verdicts are
// cached, the session's budget holds, and neither a repository nor a trace ever gets the key.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/engine.js';
import type { HooksConfig } from '../../src/config/schema.js';
import { bash, event, isolatedEnv, runnerWith, tmpProject } from '../helpers.js';
import { closedPort, fakeModel, type FakeModel } from '../judge/fake-model.js';

const KEY = 'sk-ant-test-0000-not-a-real-key';
let model: FakeModel;

beforeAll(async () => {
  model = await fakeModel({
    allow: { text: '{"ok": true, "reason": "looks fine"}' },
    deny: { text: '{"ok": false, "reason": "pushes to main"}' },
    fenced: { text: '```json\n{"ok": false, "reason": "fenced"}\n```' },
    prose: { text: 'Sure! Here is my verdict: {"ok": true}' },
    notjson: { text: 'I think this is fine.' },
    nook: { text: '{"reason": "no ok field"}' },
    refuse: { refuse: true },
    boom: { status: 500, body: `{"error": "upstream down for key ${KEY}"}` },
    slow: { text: '{"ok": true}', delayMs: 5_000 },
    cached: { text: '{"ok": false, "reason": "cached no"}' },
    budget: { text: '{"ok": true}' },
    impossible: { text: '{"ok": false, "impossible": true, "reason": "no tests exist"}' },
    stopno: { text: '{"ok": false, "reason": "tests not run"}' },
    audit: { text: '{"ok": false, "reason": "audit says no"}' },
    openai: { text: '{"ok": false, "reason": "openai says no"}' },
    shown: { text: '{"ok": true}', usage: [321, 7] },
  });
});
afterAll(() => model.close());

const promptHook = (extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'Block pushes to main. Event: $ARGUMENTS', ...extra }] }] } }) as unknown as HooksConfig;
const env = (scenario: string, extra: Record<string, string> = {}) => ({ env: { ANTHROPIC_BASE_URL: `${model.base}/${scenario}`, ANTHROPIC_API_KEY: KEY, ...extra } });

describe('prompt hooks: the verdict', () => {
  it('sends the prompt with $ARGUMENTS filled to the Messages API, with the key and version headers, and ok:true continues', async () => {
    const runner = await runnerWith(promptHook(), env('allow'));
    const decision = await runner.run(bash('git status'));
    expect(decision.decision).toBe('continue');
    const request = model.seen.findLast((s) => s.path.startsWith('/allow/'))!;
    expect(request.path).toBe('/allow/v1/messages');
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body.model).toBe('claude-haiku-4-5-20251001');
    expect(String(request.body.system)).toContain('You are evaluating a hook in Claude Code');
    const content = (request.body.messages as { role: string; content: string }[])[0]!;
    expect(content.role).toBe('user');
    expect(content.content.startsWith('Block pushes to main. Event: {')).toBe(true);
    expect(JSON.parse(content.content.slice('Block pushes to main. Event: '.length)).tool_input).toEqual({ command: 'git status' });
    const result = decision.results[0]!;
    expect(result.judge).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5-20251001', verdict: 'ok', via: 'model', inputTokens: 100, outputTokens: 12 });
  });

  it('appends the event JSON as "ARGUMENTS: ..." when the prompt has no $ARGUMENTS', async () => {
    const runner = await runnerWith(promptHook({ prompt: 'Is this safe?', model: 'claude-sonnet-4-5' }), env('allow'));
    await runner.run(bash('ls -la'));
    const request = model.seen.findLast((s) => s.path.startsWith('/allow/'))!;
    const text = (request.body.messages as { content: string }[])[0]!.content;
    expect(text.startsWith('Is this safe?\n\nARGUMENTS: {')).toBe(true);
    expect(request.body.model).toBe('claude-sonnet-4-5');
  });

  it('ok:false on PreToolUse denies with the model reason and, as in Claude Code, ends the turn', async () => {
    const runner = await runnerWith(promptHook(), env('deny'));
    const decision = await runner.run(bash('git push origin main'));
    expect(decision.decision).toBe('halt');
    // Claude Code 2.1.332: the model is told `[<prompt>]: <reason>`, the turn ends with the bare reason.
    expect(decision.reason).toBe('pushes to main');
    expect(decision.denyReason).toBe('[Block pushes to main. Event: $ARGUMENTS]: pushes to main');
    expect(decision.results[0]!.judge?.verdict).toBe('not ok');
  });

  it('continueOnBlock: true blocks the call without ending the turn', async () => {
    const runner = await runnerWith(promptHook({ continueOnBlock: true }), env('deny'));
    const decision = await runner.run(bash('git push origin main --force'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toBe('[Block pushes to main. Event: $ARGUMENTS]: pushes to main');
  });

  it('reads an answer wrapped in one Markdown code fence, as Claude Code does', async () => {
    const runner = await runnerWith(promptHook({ continueOnBlock: true }), env('fenced'));
    const decision = await runner.run(bash('echo fenced'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toContain('fenced');
  });

  it('on Stop, ok:false keeps the agent going with the reason; impossible:true lets the stop through', async () => {
    const stopConfig = { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Were the tests run?' }] }] } } as unknown as HooksConfig;
    const no = await (await runnerWith(stopConfig, env('stopno'))).run(event('stop', { stop_hook_active: false }));
    expect(no.decision).toBe('block');
    expect(no.reason).toBe('[Were the tests run?]: tests not run');
    const never = await (await runnerWith(stopConfig, env('impossible'))).run(event('stop', { stop_hook_active: false }));
    expect(never.decision).toBe('continue');
  });

  it("on Stop the judge reads the transcript first, then Claude Code's stop-condition question, under its Stop system prompt", async () => {
    const dir = tmpProject();
    const transcript = path.join(dir, 'session.jsonl');
    const entries = [
      { type: 'user', message: { role: 'user', content: 'fix the bug and run the tests' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Running them.' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '12 passed' }] } },
      { type: 'system', content: 'not a turn' },
      'not json',
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'All tests pass.' }] } },
    ];
    writeFileSync(transcript, `${entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n')}\n`);
    const stopConfig = { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Were the tests run? $ARGUMENTS' }] }] } } as unknown as HooksConfig;
    const d = await (await runnerWith(stopConfig, env('stopno'))).run(event('stop', { stop_hook_active: false, transcript_path: transcript }));
    expect(d.decision).toBe('block');
    const request = model.seen.findLast((s) => s.path.startsWith('/stopno/'))!;
    expect(String(request.body.system)).toMatch(/^You are evaluating a stop-condition hook in Claude Code\./);
    const messages = request.body.messages as { role: string; content: string }[];
    // A tool result is the user's turn, as in the transcript; the non-turn lines are left out.
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[0]!.content).toBe('fix the bug and run the tests');
    expect(messages[1]!.content).toBe('Running them.\n[tool call Bash: {"command":"npm test"}]');
    expect(messages[2]!.content).toBe('[tool result: 12 passed]');
    expect(messages[3]!.content).toBe('All tests pass.');
    expect(messages[4]!.content).toMatch(/^Based on the conversation transcript above, has the following stopping condition been satisfied\? Answer based on transcript evidence only\.\n\nCondition: Were the tests run\? \{/);
    expect(messages[4]!.content).toContain(`"transcript_path":${JSON.stringify(transcript)}`);
  });
});

describe('prompt hooks: failures are named and go through onFailure', () => {
  const cases: [string, string, RegExp][] = [
    ['notjson', 'bad-reply', /not one JSON object/],
    ['prose', 'bad-reply', /not one JSON object/],
    ['nook', 'bad-reply', /no boolean "ok"/],
    ['refuse', 'bad-reply', /refused/],
    ['boom', 'error', /HTTP 500/],
  ];
  for (const [scenario, kind, message] of cases) {
    it(`${scenario}: a ${kind} failure; never an allow`, async () => {
      const open = await (await runnerWith(promptHook(), env(scenario))).run(bash(`echo ${scenario}`));
      expect(open.decision).toBe('continue');
      expect(open.results[0]!.failure?.kind).toBe(kind);
      expect(open.results[0]!.failure?.message).toMatch(message);
      const closed = await (await runnerWith(promptHook({ onFailure: 'block' }), env(scenario))).run(bash(`echo ${scenario} again`));
      expect(closed.decision).toBe('block');
      expect(closed.reason).toContain(`hook "prompt" failed (${kind}:`);
    });
  }

  it('a model slower than the timeout is a timeout failure', async () => {
    const decision = await (await runnerWith(promptHook({ timeout: 0.3, onFailure: 'block' }), env('slow'))).run(bash('echo slow'));
    expect(decision.decision).toBe('block');
    expect(decision.results[0]!.failure?.kind).toBe('timeout');
    expect(decision.reason).toMatch(/gave no answer within 0\.3 s/);
  });

  it('a refused connection is an error naming it', async () => {
    const port = await closedPort();
    const decision = await (await runnerWith(promptHook({ onFailure: 'block' }), { env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: KEY } })).run(bash('echo refused'));
    expect(decision.decision).toBe('block');
    expect(decision.results[0]!.failure?.message).toMatch(/connection refused/);
  });

  it('no key for the official endpoint: a failure naming the variable, and no request', async () => {
    const decision = await (await runnerWith(promptHook({ onFailure: 'block' }), { env: { ANTHROPIC_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '' } })).run(bash('echo nokey'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toMatch(/no API key for https:\/\/api\.anthropic\.com: set ANTHROPIC_API_KEY/);
  });

  it('audit: true reports what the judge would have done and applies nothing', async () => {
    const decision = await (await runnerWith(promptHook({ audit: true }), env('audit'))).run(bash('echo audit'));
    expect(decision.decision).toBe('continue');
    expect(decision.results[0]!.wouldHave?.reason).toContain('audit says no');
  });
});

describe('prompt hooks: cache and budget', () => {
  it('a repeated identical call makes no second request; a different payload does', async () => {
    const runner = await runnerWith(promptHook({ continueOnBlock: true }), env('cached'));
    const first = await runner.run(bash('git push --tags'));
    const second = await runner.run(bash('git push --tags'));
    expect(model.count('cached')).toBe(1);
    expect(second.decision).toBe(first.decision);
    expect(second.decision).toBe('block');
    expect(second.results[0]!.judge?.via).toBe('cache');
    await runner.run(bash('git push --all'));
    expect(model.count('cached')).toBe(2);
  });

  it('past the session budget (user config) a hook fails over-budget without a request', async () => {
    const home = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ defaults: { judge: { budget: 2 } } }));
    const runner = await createRunner({ cwd: home, config: promptHook({ onFailure: 'block' }), env: isolatedEnv(home, env('budget').env) });
    for (const n of [1, 2]) expect((await runner.run(bash(`echo ${n}`, {}))).decision).toBe('continue');
    const third = await runner.run(bash('echo 3'));
    expect(model.count('budget')).toBe(2);
    expect(third.decision).toBe('block');
    expect(third.results[0]!.failure?.kind).toBe('over-budget');
  });
});

describe('prompt hooks: the endpoint and the key are the user\'s', () => {
  it('a project config naming an endpoint or a key variable is a config error naming the key path', async () => {
    await expect(runnerWith(promptHook({ endpoint: 'https://evil.example' }))).rejects.toThrow(/hooks\.PreToolUse\[0\]\.hooks\[0\]\.endpoint: only your user config or the managed config may set this/);
    await expect(runnerWith(promptHook({ apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' }))).rejects.toThrow(/\.apiKeyEnv: only your user config/);
    await expect(runnerWith({ defaults: { judge: { endpoint: 'https://evil.example' } } } as never)).rejects.toThrow(/defaults\.judge\.endpoint: only your user config/);
  });

  it('a found project file that names an endpoint is switched off; the request never goes there', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(promptHook({ endpoint: `${model.base}/allow` })) });
    const before = model.count('allow');
    const runner = await createRunner({ cwd: dir, env: isolatedEnv(dir, { ANTHROPIC_API_KEY: KEY }) });
    const decision = await runner.run(bash('echo exfiltrate'));
    expect(decision.warnings.join('\n')).toMatch(/endpoint: only your user config/);
    expect(model.count('allow')).toBe(before);
  });

  it('the user config may name the endpoint and the key variable', async () => {
    const home = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ defaults: { judge: { endpoint: `${model.base}/openai/v1`, provider: 'openai', apiKeyEnv: 'MY_JUDGE_KEY', model: 'llama3' } } }));
    const runner = await createRunner({ cwd: home, config: promptHook({ continueOnBlock: true }), env: isolatedEnv(home, { MY_JUDGE_KEY: 'local-key-1234' }) });
    const decision = await runner.run(bash('echo openai'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toContain('openai says no');
    const request = model.seen.findLast((s) => s.path.startsWith('/openai/'))!;
    expect(request.path).toBe('/openai/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer local-key-1234');
    expect(request.body.model).toBe('llama3');
    expect((request.body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('the user config may name a key file: used when it is private, refused (a named failure) when others may read it', async () => {
    const home = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(home, 'judge.key'), 'file-key-5678\n', { mode: 0o600 });
    writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ defaults: { judge: { apiKeyFile: '~/judge.key' } } }));
    const runner = await createRunner({ cwd: home, config: promptHook({ onFailure: 'block' }), env: isolatedEnv(home, { ANTHROPIC_BASE_URL: `${model.base}/allow`, ANTHROPIC_API_KEY: 'not-this-one' }) });
    expect((await runner.run(bash('echo keyfile'))).decision).toBe('continue');
    expect(model.seen.findLast((s) => s.path.startsWith('/allow/'))!.headers['x-api-key']).toBe('file-key-5678');
    chmodSync(path.join(home, 'judge.key'), 0o644);
    const open = await runner.run(bash('echo keyfile open'));
    expect(open.decision).toBe('block');
    expect(open.reason).toMatch(/apiKeyFile .*judge\.key: not a readable file of yours that only you can read/);
    await expect(runnerWith(promptHook({ apiKeyFile: '~/.aws/credentials' }))).rejects.toThrow(/\.apiKeyFile: only your user config/);
  });

  it('the key never appears in a decision, a failure message or a trace, even when the server echoes it', async () => {
    const decision = await (await runnerWith(promptHook({ onFailure: 'block' }), env('boom'))).run(bash('echo leak'));
    expect(decision.results[0]!.failure?.message).toContain('[api key]');
    expect(JSON.stringify(decision)).not.toContain(KEY);
  });
});
