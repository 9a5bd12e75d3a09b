// `type: "prompt"` hooks against their adversaries: a hostile repository (switching the provider to
// reach the user's key), the agent (same uid, spending the budget file) and a talkative server or proxy
// (echoing the key, a model name, an endpoint password), through the whole runner.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigLayer, LayerName } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { runnerFor } from '../../src/engine.js';
import { bash, event, isolatedEnv, tmpProject } from '../helpers.js';
import { fakeModel, type FakeModel } from '../judge/fake-model.js';

// Fake keys: data for the runner only.
const ANTHROPIC_KEY = 'sk-ant-test-1111-not-a-real-key-aaaaaaaaaaaaaaaa';
const PADDING = 'e'.repeat(180);
let model: FakeModel;

beforeAll(async () => {
  model = await fakeModel({
    thirdparty: { text: '{"ok": true}' },
    allow: { text: '{"ok": true}' },
    echo: { status: 500, body: `${PADDING}${ANTHROPIC_KEY}` },
    // A 200 answer whose "model" field echoes the key (a logging proxy, a misconfigured gateway).
    modelecho: { status: 200, body: JSON.stringify({ model: `gateway for ${ANTHROPIC_KEY}`, content: [{ type: 'text', text: '{"ok": true}' }], stop_reason: 'end_turn' }) },
  });
});
afterAll(() => model.close());

function layers(dir: string, user: unknown, project: unknown): ConfigLayer[] {
  const make = (name: LayerName, config: unknown): ConfigLayer => ({ layer: name, file: path.join(dir, `${name}.json`), dir, config, trust: name === 'user' ? 'implicit' : 'trusted' });
  return [make('user', user), make('project', project)];
}

/** A clean environment: no key or base URL from the machine running the tests. */
function cleanEnv(home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = isolatedEnv(home);
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_SMALL_FAST_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL']) delete env[name];
  return { ...env, ...extra };
}

const projectPrompt = (extra: Record<string, unknown>) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS', ...extra }] }] } });

describe('prompt hooks: a project hook naming the other provider', () => {
  it('a project prompt hook with provider "anthropic" does not send the Anthropic key to the endpoint the user set for an OpenAI-compatible server', async () => {
    const dir = tmpProject();
    // The user's own judge: a third-party OpenAI-compatible service (no key needed from ANTHROPIC_API_KEY).
    const user = { defaults: { judge: { provider: 'openai', endpoint: `${model.base}/thirdparty/v1` } } };
    const config = await resolveConfig(layers(dir, user, projectPrompt({ provider: 'anthropic' })), { cwd: dir });
    const before = model.seen.length;
    await runnerFor(config, cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY })).run(bash('git status'));
    const sent = model.seen.slice(before);
    // Either no request, or one that does not carry the user's Anthropic key to the OpenAI-compatible host.
    for (const request of sent) expect(JSON.stringify(request.headers)).not.toContain(ANTHROPIC_KEY);
  });

  it("a project prompt hook with provider \"openai\" does not send the user's Anthropic apiKeyFile key to OPENAI_BASE_URL", async () => {
    const dir = tmpProject();
    const keyFile = path.join(dir, 'anthropic.key');
    writeFileSync(keyFile, ANTHROPIC_KEY);
    chmodSync(keyFile, 0o600);
    const user = { defaults: { judge: { provider: 'anthropic', apiKeyFile: keyFile } } };
    const config = await resolveConfig(layers(dir, user, projectPrompt({ provider: 'openai' })), { cwd: dir });
    const before = model.seen.length;
    await runnerFor(config, cleanEnv(dir, { OPENAI_BASE_URL: `${model.base}/thirdparty/v1` })).run(bash('git status'));
    const sent = model.seen.slice(before);
    for (const request of sent) expect(JSON.stringify(request.headers)).not.toContain(ANTHROPIC_KEY);
  });
});

describe('prompt hooks: a budget the agent spent', () => {
  it('a PreToolUse prompt guard whose session budget the agent has spent does not let the call through by default', async () => {
    const dir = tmpProject();
    const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'Block pushes to main. $ARGUMENTS' }] }] } };
    const config = await resolveConfig(layers(dir, user, {}), { cwd: dir });
    const env = cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${model.base}/allow` });
    // The agent (same uid) writes the session's count: as good as making 200 cheap tool calls first.
    const budgetDir = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'judge-budget');
    mkdirSync(budgetDir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(budgetDir, createHash('sha256').update('test-session').digest('hex')), '999999', { mode: 0o600 });
    const decision = await runnerFor(config, env).run(bash('git push origin main'));
    expect(decision.results[0]?.failure?.kind).toBe('over-budget');
    expect(decision.decision).toBe('block');
    // It says why it blocked without an onFailure, not that the hook has one.
    expect(decision.results[0]?.reply.reason).toMatch(/a spent budget blocks unless the hook sets onFailure$/);
  });

  it('an onFailure the hook or the defaults set is kept; a Stop (not an intercepting event) goes on', async () => {
    const dir = tmpProject();
    const env = cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${model.base}/allow` });
    const budgetDir = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'judge-budget');
    mkdirSync(budgetDir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(budgetDir, createHash('sha256').update('test-session').digest('hex')), '999999', { mode: 0o600 });
    const guard = (extra: Record<string, unknown>) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS', ...extra }] }] } });
    const run = async (user: unknown, ev = bash('git push origin main')) => runnerFor(await resolveConfig(layers(dir, user, {}), { cwd: dir }), env).run(ev);
    for (const user of [guard({ onFailure: 'continue' }), { defaults: { onFailure: 'continue' }, ...guard({}) }]) {
      const decision = await run(user);
      expect(decision.results[0]?.failure?.kind).toBe('over-budget');
      expect(decision.decision).toBe('continue');
    }
    const after = await run({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'done? $ARGUMENTS' }] }] } }, event('stop', { stop_hook_active: false }));
    expect(after.results[0]?.failure?.kind).toBe('over-budget');
    expect(after.decision).toBe('continue');
  });
});

describe('prompt hooks: the key in error messages', () => {
  it('a server that echoes the key past the 200-character cut does not get a part of it into the failure message', async () => {
    const dir = tmpProject();
    const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS' }] }] } };
    const config = await resolveConfig(layers(dir, user, {}), { cwd: dir });
    const decision = await runnerFor(config, cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${model.base}/echo` })).run(bash('git status'));
    const message = decision.results[0]?.failure?.message ?? '';
    expect(message).toContain('HTTP 500');
    expect(message).not.toContain(ANTHROPIC_KEY.slice(0, 16));
  });
});

describe('prompt hooks: the key and an endpoint password in traces', () => {
  it('a "model" field the server echoes the key in does not carry the key into the judge note (verbose, explain, audit log, cache file)', async () => {
    const dir = tmpProject();
    const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS' }] }] } };
    const config = await resolveConfig(layers(dir, user, {}), { cwd: dir });
    const decision = await runnerFor(config, cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${model.base}/modelecho` })).run(bash('git status'));
    expect(decision.results[0]?.judge?.verdict).toBe('ok');
    expect(JSON.stringify(decision.results[0]?.judge)).not.toContain(ANTHROPIC_KEY);
  });

  it('the password of an endpoint written with user:password@ is not in the failure message', async () => {
    const dir = tmpProject();
    const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS' }] }] } };
    const config = await resolveConfig(layers(dir, user, {}), { cwd: dir });
    const base = model.base.replace('http://', 'http://proxyuser:proxy-pass-not-real-0000@');
    const decision = await runnerFor(config, cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${base}/nosuchscenario` })).run(bash('git status'));
    const message = decision.results[0]?.failure?.message ?? '';
    expect(message).toContain('HTTP 404');
    expect(message).not.toContain('proxy-pass-not-real-0000');
  });
});

describe('prompt hooks: a locked runner and the budget file', () => {
  it('a locked runner does not read a budget count the agent can write (the managed prompt guard still judges)', async () => {
    const dir = tmpProject();
    const managed = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'Block pushes to main. $ARGUMENTS' }] }] } };
    const make = (config: unknown): ConfigLayer => ({ layer: 'managed', file: path.join(dir, 'managed.json'), dir, config, trust: 'implicit' });
    const config = { ...(await resolveConfig([make(managed)], { cwd: dir })), locked: true };
    const env = cleanEnv(dir, { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: `${model.base}/allow` });
    const budgetDir = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'judge-budget');
    mkdirSync(budgetDir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(budgetDir, createHash('sha256').update('test-session').digest('hex')), '999999', { mode: 0o600 });
    const decision = await runnerFor(config, env).run(bash('git status'));
    expect(decision.results[0]?.failure?.kind).toBeUndefined();
    expect(decision.results[0]?.judge?.verdict).toBe('ok');
  });
});

