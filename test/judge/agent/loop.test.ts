// `type: "agent"` hooks through the runner against a scripted fake model on 127.0.0.1, in both provider
// shapes: multi-turn tool use over a real project folder, the confinement of the tools (a model that asks
// for ../../etc/passwd, an absolute path, a symlink out, a .env, a FIFO), a model that loops for ever, a
// slow one, a failing one, a backtracking regex, the cache that re-checks its evidence, the budget.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../../src/config/load.js';
import { resolveConfig } from '../../../src/config/resolve.js';
import { runnerFor } from '../../../src/engine.js';
import { judgeLine } from '../../../src/judge/note.js';
import { bash, event, isolatedEnv, tmpProject } from '../../helpers.js';
import { fakeAgentModel, type FakeAgentModel } from './fake-agent-model.js';

const KEY = 'sk-ant-test-3333-not-a-real-key';
let model: FakeAgentModel;
let outside: string;

beforeAll(async () => {
  outside = tmpProject({ 'secret.txt': 'OUTSIDE-THE-PROJECT-7731\n' });
  model = await fakeAgentModel({
    // Reads a file, greps, then blocks citing what it read.
    verify: { steps: [{ tool: 'Read', input: { file_path: 'src/deploy.sh', offset: 2, limit: 1 } }, { tool: 'Grep', input: { pattern: 'prod', output_mode: 'content' } }, { tool: 'Glob', input: { pattern: '**/*.sh' } }, { answer: { ok: false, reason: 'deploy.sh pushes to prod' } }] },
    allow: { steps: [{ tool: 'Read', input: { file_path: 'src/deploy.sh' } }, { answer: { ok: true, reason: 'fine' } }] },
    escape: {
      steps: [
        { tool: 'Read', input: { file_path: '../../../../../../etc/passwd' } },
        { tool: 'Read', input: { file_path: '/etc/passwd' } },
        { tool: 'Read', input: { file_path: 'link-out/secret.txt' } },
        { tool: 'Read', input: { file_path: 'file-link' } },
        { tool: 'Read', input: { file_path: '.env' } },
        { tool: 'Read', input: { file_path: 'pipe' } },
        { tool: 'Grep', input: { pattern: 'OUTSIDE|API_KEY', output_mode: 'content' } },
        { tool: 'Glob', input: { pattern: '**/*', path: '..' } },
        { tool: 'Read', input: { file_path: 42 } },
        { tool: 'Bash', input: { command: 'true' } },
        { answer: { ok: true, reason: 'done' } },
      ],
    },
    forever: { steps: [{ tool: 'Glob', input: { pattern: '*' } }], loop: true },
    slow: { steps: [{ answer: { ok: true } }], delayMs: 5000 },
    down: { steps: [{ status: 503, body: `overloaded ${KEY}` }] },
    prose: { steps: [{ text: 'I think it is fine.' }] },
    textVerdict: { steps: [{ text: '{"ok": false, "reason": "said in text"}' }] },
    redos: { steps: [{ tool: 'Grep', input: { pattern: '^(a+)+$', output_mode: 'content' } }, { answer: { ok: true, reason: 'searched' } }] },
  });
});
afterAll(async () => model.close());

function project(): string {
  const dir = tmpProject({ 'src/deploy.sh': '#!/bin/sh\nkubectl apply -f prod.yaml\necho done\n', 'README.md': 'hello\n', '.env': 'API_KEY=sk-live-not-real\n', 'bad.txt': `${'a'.repeat(40)}b\n` });
  symlinkSync(outside, path.join(dir, 'link-out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'file-link'));
  execFileSync('mkfifo', [path.join(dir, 'pipe')]);
  return dir;
}

async function runner(dir: string, scenario: string, hook: Record<string, unknown> = {}, provider: 'anthropic' | 'openai' = 'anthropic', extra: Record<string, unknown> = {}) {
  const user = { ...extra, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Is this safe? $ARGUMENTS', ...(provider === 'openai' ? { provider } : {}), ...hook }] }] } };
  const layer: ConfigLayer = { layer: 'user', file: path.join(dir, '.user.json'), dir, config: user, trust: 'implicit' };
  const config = await resolveConfig([layer], { cwd: dir });
  const env = isolatedEnv(dir);
  for (const name of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[name];
  const base = `${model.base}/${scenario}`;
  return runnerFor(config, { ...env, ...(provider === 'openai' ? { OPENAI_BASE_URL: base, OPENAI_API_KEY: KEY } : { ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: KEY }) });
}

describe.each(['anthropic', 'openai'] as const)('an agent hook over %s', (provider) => {
  it('reads, greps and globs the project over several turns, then blocks with the reason', async () => {
    const dir = project();
    const before = model.count('verify');
    const d = await (await runner(dir, 'verify', {}, provider)).run(bash('./src/deploy.sh'));
    expect(d.decision).toBe('block');
    expect(d.reason).toContain('deploy.sh pushes to prod');
    expect(model.count('verify') - before).toBe(4);
    const [read, grep, glob] = model.results('verify');
    expect(read).toBe('     2\tkubectl apply -f prod.yaml\n[1 more lines; read on with offset 3]');
    expect(grep).toContain('src/deploy.sh:2:kubectl apply -f prod.yaml');
    expect(glob).toBe('src/deploy.sh');
    const first = model.seen.filter((s) => s.scenario === 'verify').at(-4)!.body;
    const tools = (first.tools as { name?: string; function?: { name: string } }[]).map((t) => t.name ?? t.function!.name);
    expect(tools).toEqual(['Read', 'Grep', 'Glob', 'StructuredOutput']);
    const system = provider === 'anthropic' ? (first.system as string) : ((first.messages as { content: string }[])[0]!.content);
    expect(system).toContain('You are evaluating a PreToolUse hook in Claude Code.');
    expect(system).toContain('return your result using the StructuredOutput tool');
    expect(d.results[0]?.judge).toMatchObject({ provider, via: 'model', verdict: 'not ok', turns: 4, inputTokens: 200, outputTokens: 20 });
    // --verbose and explain say how many requests the verifier made.
    expect(judgeLine(d.results[0]!.judge!)).toMatch(/: not ok \(model, \d+ms, 4 turns, 200 in \/ 20 out tokens\)$/);
  });

  it('never reads outside the project, a secret file or a FIFO; the model is told why each time', async () => {
    const dir = project();
    const d = await (await runner(dir, 'escape', {}, provider)).run(bash('ls'));
    expect(d.decision).toBe('continue');
    const results = model.results('escape');
    expect(results).toHaveLength(10);
    const all = results.join('\n');
    expect(all).not.toContain('root:');
    expect(all).not.toContain('OUTSIDE-THE-PROJECT');
    expect(all).not.toContain('sk-live-not-real');
    expect(results[0]).toMatch(/outside the project|no such file/);
    expect(results[1]).toMatch(/outside the project/);
    expect(results[2]).toMatch(/outside the project/);
    expect(results[3]).toMatch(/outside the project/);
    expect(results[4]).toMatch(/\.env: not read/);
    expect(results[5]).toMatch(/pipe: not read: not a regular file/);
    expect(results[7]).toMatch(/outside the project/);
    expect(results[8]).toMatch(/"file_path" must be a non-empty string/);
    expect(results[9]).toMatch(/no tool named "Bash"/);
  });

  it('a model that calls tools for ever fails with max-turns after maxTurns requests, never an allow', async () => {
    const dir = project();
    const before = model.count('forever');
    const d = await (await runner(dir, 'forever', { maxTurns: 3, onFailure: 'block' }, provider)).run(bash('ls'));
    expect(model.count('forever') - before).toBe(3);
    expect(d.results[0]?.failure?.kind).toBe('max-turns');
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/used its 3 turns/);
  });
});

describe('agent hook failures', () => {
  it('a slow model is a timeout within the hook timeout, which covers the whole loop', async () => {
    const d = await (await runner(project(), 'slow', { timeout: 1, onFailure: 'block' })).run(bash('ls'));
    expect(d.results[0]?.failure?.kind).toBe('timeout');
    expect(d.decision).toBe('block');
  });

  it('an HTTP error is an error with the key masked; onFailure continue lets the call go on and says so', async () => {
    const d = await (await runner(project(), 'down')).run(bash('ls'));
    expect(d.decision).toBe('continue');
    expect(d.results[0]?.failure?.kind).toBe('error');
    expect(d.results[0]?.failure?.message).toMatch(/HTTP 503/);
    expect(JSON.stringify(d)).not.toContain(KEY);
  });

  it('prose with no tool call is a bad reply; a verdict written as text is read as a prompt hook reads it', async () => {
    const bad = await (await runner(project(), 'prose', { onFailure: 'block' })).run(bash('ls'));
    expect(bad.results[0]?.failure?.kind).toBe('bad-reply');
    expect(bad.decision).toBe('block');
    const text = await (await runner(project(), 'textVerdict')).run(bash('ls'));
    expect(text.decision).toBe('block');
    expect(text.reason).toContain('said in text');
  });

  it('a backtracking regex from the model is stopped in its worker; the loop goes on and answers', async () => {
    const d = await (await runner(project(), 'redos', { timeout: 8 })).run(bash('ls'));
    expect(d.results[0]?.failure).toBeUndefined();
    expect(d.decision).toBe('continue');
    expect(model.results('redos')[0]).toMatch(/took too long and was stopped/);
  }, 30_000);

  it('each model request takes one from the session budget; a spent budget mid-loop is over-budget', async () => {
    const dir = project();
    const r = await runner(dir, 'verify', {}, 'anthropic', { defaults: { judge: { budget: 2 } } });
    const d = await r.run(bash('./src/deploy.sh', { session_id: 'budget-session' }));
    expect(d.results[0]?.failure?.kind).toBe('over-budget');
    expect(d.decision).toBe('block');
  });
});

describe('the verdict cache of an agent hook', () => {
  it('a repeated event costs no request while the files it read are unchanged; a changed file is asked again', async () => {
    const dir = project();
    const r = await runner(dir, 'allow');
    const before = model.count('allow');
    expect((await r.run(bash('./src/deploy.sh'))).decision).toBe('continue');
    expect(model.count('allow') - before).toBe(2);
    const hit = await r.run(bash('./src/deploy.sh'));
    expect(hit.results[0]?.judge?.via).toBe('cache');
    expect(model.count('allow') - before).toBe(2);
    writeFileSync(path.join(dir, 'src/deploy.sh'), '#!/bin/sh\necho changed\n');
    const again = await r.run(bash('./src/deploy.sh'));
    expect(again.results[0]?.judge?.via).toBe('model');
    expect(model.count('allow') - before).toBe(4);
  });
});

describe('the Stop verifier', () => {
  it('is told it verifies a stop condition, and may read the transcript the event names (a .jsonl outside the project)', async () => {
    const dir = project();
    const home = tmpProject({ 'transcript.jsonl': '{"type":"user","message":"run the tests"}\n' });
    mkdirSync(path.join(home, 'x'), { recursive: true });
    const transcript = path.join(home, 'transcript.jsonl');
    const scripted = await fakeAgentModel({ stop: { steps: [{ tool: 'Read', input: { file_path: transcript } }, { answer: { ok: false, reason: 'tests not run' } }] } });
    try {
      const user = { hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'Did the agent run the tests?' }] }] } };
      const config = await resolveConfig([{ layer: 'user', file: path.join(dir, '.user.json'), dir, config: user, trust: 'implicit' }], { cwd: dir });
      const env = isolatedEnv(dir);
      for (const name of ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY']) delete env[name];
      const d = await runnerFor(config, { ...env, ANTHROPIC_BASE_URL: `${scripted.base}/stop`, ANTHROPIC_API_KEY: KEY }).run(event('stop', { transcript_path: transcript, stop_hook_active: false }));
      expect(d.decision).toBe('block');
      expect(d.reason).toContain('tests not run');
      const system = scripted.seen[0]!.body.system as string;
      expect(system).toContain('You are verifying a stop condition in Claude Code.');
      expect(system).toContain(`The conversation transcript is available at: ${transcript}`);
      expect(scripted.results('stop')[0]).toContain('run the tests');
    } finally {
      await scripted.close();
    }
  });
});
