// `hooks install openclaw`: the plugin folder and the two keys in openclaw.json, installed and removed
// on real temp files; then the generated plugin imported with a stub OpenClaw `api`, driven with
// OpenClaw-shaped events (tool names and params as openclaw 2026.9.6 hands them to plugins) against a
// fake runner that is a real process: what it is given, and how its answers map back.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';
import { renderOpenclawPlugin } from '../../src/install/openclaw-plugin.js';
import { openclaw } from '../../src/install/agents/openclaw.js';

function hooks(args: string[], cwd: string, home: string, extra: Record<string, string> = {}) {
  return cliInProcess(args, { cwd, env: { ...isolatedEnv(home), ...extra } });
}

const CONFIG = '.openclaw/openclaw.json';
const PLUGIN = '.openclaw/extensions/agent-hooks';

describe('install and uninstall openclaw', () => {
  it('writes the plugin folder and loads it from openclaw.json, keeping the rest of the config; a second install changes nothing', async () => {
    const home = tmpProject();
    const cwd = tmpProject();
    const mine = { models: { providers: { local: { baseUrl: 'http://127.0.0.1:1/v1' } } }, plugins: { entries: { other: { enabled: true } } } };
    mkdirSync(path.join(home, '.openclaw'), { recursive: true });
    writeFileSync(path.join(home, CONFIG), `${JSON.stringify(mine, null, 4)}\n`);
    const r = await hooks(['install', 'openclaw', '--user'], cwd, home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`updated ~/${CONFIG}: 5 agent-hooks entries installed`);
    const config = JSON.parse(readFileSync(path.join(home, CONFIG), 'utf8'));
    expect(config.models).toEqual(mine.models);
    expect(config.plugins.entries).toEqual({ other: { enabled: true }, 'agent-hooks': { enabled: true, hooks: { allowConversationAccess: true } } });
    expect(config.plugins.load.paths).toEqual([path.join(home, PLUGIN)]);
    // The file's own indentation is kept.
    expect(readFileSync(path.join(home, CONFIG), 'utf8')).toContain('\n    "models"');
    const manifest = JSON.parse(readFileSync(path.join(home, PLUGIN, 'openclaw.plugin.json'), 'utf8'));
    expect(manifest).toMatchObject({ id: 'agent-hooks', contracts: { agentToolResultMiddleware: ['openclaw'] } });
    expect(JSON.parse(readFileSync(path.join(home, PLUGIN, 'package.json'), 'utf8')).openclaw).toEqual({ extensions: ['./index.js'] });
    expect(readFileSync(path.join(home, PLUGIN, 'index.js'), 'utf8')).toContain('const HOOKS_BIN = "');
    expect((await hooks(['install', 'openclaw', '--user'], cwd, home)).stdout).toContain(`unchanged ~/${CONFIG}: agent-hooks is already installed, nothing to do`);

    const u = await hooks(['uninstall', 'openclaw', '--user'], cwd, home);
    expect(u.code, u.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, CONFIG), 'utf8'))).toEqual(mine);
    for (const name of ['index.js', 'openclaw.plugin.json', 'package.json']) expect(existsSync(path.join(home, PLUGIN, name))).toBe(false);
    expect((await hooks(['uninstall', 'openclaw', '--user'], cwd, home)).stdout).toContain('nothing to do');
  });

  it('doctor finds the plugin and checks the runner it names: a runner that is gone is an error', async () => {
    const home = tmpProject();
    const cwd = tmpProject();
    expect((await hooks(['install', 'openclaw', '--user', '--fail-closed'], cwd, home)).code).toBe(0);
    const where = `~/${PLUGIN}/index.js (openclaw user)`;
    const doctor = async () => (JSON.parse((await hooks(['doctor', '--json'], cwd, home)).stdout) as { findings: { level: string; where: string; message: string }[] }).findings.filter((f) => f.where === where);
    expect(await doctor()).toEqual([]);
    const file = path.join(home, PLUGIN, 'index.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/const HOOKS_BIN = "[^"]*";/, 'const HOOKS_BIN = "/nonexistent/agent-hooks";'));
    const errors = (await doctor()).filter((f) => f.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('/nonexistent/agent-hooks');
  });

  it('follows OPENCLAW_CONFIG_PATH and OPENCLAW_STATE_DIR, as OpenClaw does', () => {
    const where = (env: NodeJS.ProcessEnv) => openclaw.file('user', { cwd: '/p', home: '/h', env });
    expect(where({})).toBe('/h/.openclaw/openclaw.json');
    expect(where({ OPENCLAW_STATE_DIR: '/s' })).toBe('/s/openclaw.json');
    expect(where({ OPENCLAW_CONFIG_PATH: '/c/oc.json', OPENCLAW_STATE_DIR: '/s' })).toBe('/c/oc.json');
  });

  it('refuses a project install, a plugins key of the wrong type, a deny list naming it, and a plugin folder file not ours', async () => {
    const home = tmpProject();
    const project = await hooks(['install', 'openclaw'], home, home);
    expect(project.code).toBe(1);
    expect(project.stderr).toContain('OpenClaw has no project settings');
    const file = path.join(home, CONFIG);
    mkdirSync(path.dirname(file), { recursive: true });
    for (const [doc, message] of [
      [{ plugins: [] }, 'plugins is not an object'],
      [{ plugins: { load: { paths: 'x' } } }, 'plugins.load.paths is not an array'],
      [{ plugins: { deny: ['agent-hooks'] } }, 'plugins.deny names "agent-hooks"'],
    ] as const) {
      writeFileSync(file, JSON.stringify(doc));
      const r = await hooks(['install', 'openclaw', '--user'], home, home);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`agent-hooks: ${file}: ${message}${message.startsWith('plugins.deny') ? '; take it out first if you mean to run agent-hooks in OpenClaw' : '; agent-hooks will not change it'}\n`);
      expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(doc));
    }
    writeFileSync(file, '{}');
    mkdirSync(path.join(home, PLUGIN), { recursive: true });
    writeFileSync(path.join(home, PLUGIN, 'index.js'), 'export default {}\n');
    const r = await hooks(['install', 'openclaw', '--user'], home, home);
    expect(r.stderr).toBe(`agent-hooks: ${path.join(home, PLUGIN, 'index.js')}: exists and was not written by agent-hooks; move it away first\n`);
    expect(readFileSync(file, 'utf8')).toBe('{}');
  });

  it('joins an allowlist, and leaves it as it was on uninstall', () => {
    const file = '/h/.openclaw/openclaw.json';
    const before = `${JSON.stringify({ plugins: { allow: ['memory'] } }, null, 2)}\n`;
    const { text } = openclaw.install(before, file, { launcher: { kind: 'path' }, timeoutSeconds: 60, failClosed: false }, 'user');
    expect(JSON.parse(text).plugins.allow).toEqual(['memory', 'agent-hooks']);
    expect(openclaw.uninstall(text, file)).toEqual({ text: before, removed: 5 });
  });

  it('property: install then uninstall gives back any config without our keys, and install is idempotent', () => {
    const file = '/h/.openclaw/openclaw.json';
    const options = { launcher: { kind: 'path' } as const, timeoutSeconds: 60, failClosed: false };
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'agent-hooks' && k !== '__proto__');
    const doc = fc.record(
      {
        models: fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        // Containers uninstall would find empty are dropped, so the user's are not empty to begin with.
        plugins: fc.record(
          { entries: fc.dictionary(key, fc.record({ enabled: fc.boolean() }), { minKeys: 1, maxKeys: 3 }), load: fc.record({ paths: fc.array(fc.string({ maxLength: 10 }), { minLength: 1, maxLength: 3 }) }) },
          { requiredKeys: ['entries'] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(doc, (value) => {
        const before = `${JSON.stringify(value, null, 2)}\n`;
        const { text } = openclaw.install(before, file, options, 'user');
        expect(openclaw.install(text, file, options, 'user').text).toBe(text);
        const back = openclaw.uninstall(text, file);
        expect(back.removed).toBe(5);
        expect(JSON.parse(back.text!)).toEqual(JSON.parse(before));
      }),
      { seed: 23, numRuns: 200, interruptAfterTimeLimit: 10_000 },
    );
  });
});

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;
interface Plugin {
  on: Record<string, Handler>;
  options: Record<string, unknown>;
  middleware: Handler;
  middlewareOptions: unknown;
}

interface Answer {
  code?: number;
  stdout?: unknown;
  stderr?: string;
  sleepMs?: number;
}

let n = 0;
/**
 * The generated plugin, registered with a stub api, whose runner is a fake (node) that logs each call
 * (its args and stdin) and answers per event from `answers` (absent: exit 0, nothing said).
 */
async function plugin(answers: Record<string, Answer>, options: { timeoutMs?: number; bin?: string } = {}) {
  const dir = tmpProject();
  const bin = path.join(dir, 'fake-hooks');
  const log = path.join(dir, 'calls.jsonl');
  writeFileSync(
    bin,
    `#!/usr/bin/env node
const fs = require('fs');
const input = fs.readFileSync(0, 'utf8');
const event = process.argv[3];
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), input: JSON.parse(input) }) + '\\n');
const a = (${JSON.stringify(answers)})[event] || {};
setTimeout(() => {
  if (a.stdout !== undefined) process.stdout.write(typeof a.stdout === 'string' ? a.stdout : JSON.stringify(a.stdout));
  if (a.stderr) process.stderr.write(a.stderr);
  process.exit(a.code || 0);
}, a.sleepMs || 0);
`,
  );
  chmodSync(bin, 0o755);
  const file = path.join(dir, `index-${n++}.mjs`);
  writeFileSync(file, renderOpenclawPlugin(JSON.stringify(options.bin ?? bin), options.timeoutMs ?? 10_000, false));
  const mod = (await import(pathToFileURL(file).href)) as { default: { id: string; register(api: unknown): void } };
  const p = { on: {}, options: {} } as Plugin;
  mod.default.register({
    on: (name: string, handler: Handler, opts: unknown) => {
      p.on[name] = handler;
      p.options[name] = opts;
    },
    registerAgentToolResultMiddleware: (handler: Handler, opts: unknown) => {
      p.middleware = handler;
      p.middlewareOptions = opts;
    },
  });
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { args: string[]; cwd: string; input: Record<string, unknown> })
      : [];
  return { p, dir, calls, id: mod.default.id };
}

const toolCtx = (dir: string) => ({ toolName: 'exec', agentId: 'main', sessionKey: 'agent:main:main', sessionId: 'S-1', runId: 'R-1', toolCallId: 'call_1', workspaceDir: dir });

describe('the generated plugin', () => {
  it('registers the five handlers, ours last among before_tool_call handlers, with a budget above the runner timeout', async () => {
    const { p, id } = await plugin({}, { timeoutMs: 7000 });
    expect(id).toBe('agent-hooks');
    expect(Object.keys(p.on).sort()).toEqual(['before_agent_run', 'before_model_resolve', 'before_prompt_build', 'before_tool_call']);
    expect(p.options.before_tool_call).toEqual({ priority: -1000, timeoutMs: 12_000 });
    expect(p.middlewareOptions).toEqual({ runtimes: ['openclaw'] });
  });

  it('before_tool_call: exec is Bash to the runner, in the workspace; exit 2 blocks with the reason; a modify rewrites the params', async () => {
    const { p, dir, calls } = await plugin({ 'pre-tool-use': { code: 2, stderr: 'no curl | sh here\n' } });
    const blocked = await p.on.before_tool_call!({ toolName: 'exec', params: { command: 'curl x | sh', workdir: '/w' }, toolCallId: 'call_1' }, toolCtx(dir));
    expect(blocked).toEqual({ block: true, blockReason: 'Blocked by agent-hooks: no curl | sh here' });
    const [call] = calls();
    expect(call!.args).toEqual(['run', 'pre-tool-use', '--dialect', 'native']);
    expect(call!.cwd).toBe(dir);
    expect(call!.input).toMatchObject({ session_id: 'S-1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'curl x | sh', workdir: '/w' }, tool_use_id: 'call_1' });

    const edit = await plugin({ 'pre-tool-use': { stdout: { decision: 'modify', updatedInput: { file_path: 'b.txt', old_string: 'x', new_string: 'y' } } } });
    const params = { path: 'a.txt', edits: [{ oldText: 'x', newText: 'z' }] };
    expect(await edit.p.on.before_tool_call!({ toolName: 'edit', params }, toolCtx(edit.dir))).toEqual({ params: { path: 'b.txt', edits: [{ oldText: 'x', newText: 'y' }] } });
    expect(edit.calls()[0]!.input).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: 'a.txt', old_string: 'x', new_string: 'z' } });
  });

  it('before_tool_call: ask is OpenClaw\'s own approval; an answer with nothing to do lets the call go on', async () => {
    const ask = await plugin({ 'pre-tool-use': { stdout: { decision: 'ask', reason: 'touches prod' } } });
    expect(await ask.p.on.before_tool_call!({ toolName: 'read', params: { path: 'x' } }, toolCtx(ask.dir))).toEqual({
      requireApproval: { title: 'agent-hooks: allow Read?', description: 'touches prod', severity: 'warning' },
    });
    const quiet = await plugin({});
    expect(await quiet.p.on.before_tool_call!({ toolName: 'exec', params: { command: 'ls' } }, toolCtx(quiet.dir))).toBeUndefined();
  });

  it('fails closed: a missing runner, a crashing one and a slow one each block the call, saying why', async () => {
    const gone = await plugin({}, { bin: '/nonexistent/agent-hooks' });
    const r1 = (await gone.p.on.before_tool_call!({ toolName: 'exec', params: { command: 'ls' } }, toolCtx(gone.dir))) as { block: boolean; blockReason: string };
    expect(r1.block).toBe(true);
    expect(r1.blockReason).toMatch(/^Blocked by agent-hooks \(the runner failed, so nothing was checked\): agent-hooks: cannot run \/nonexistent\/agent-hooks/);
    const crash = await plugin({ 'pre-tool-use': { code: 1, stderr: 'agent-hooks: .hooksrc.json: bad\n' } });
    expect(await crash.p.on.before_tool_call!({ toolName: 'exec', params: { command: 'ls' } }, toolCtx(crash.dir))).toEqual({
      block: true,
      blockReason: 'Blocked by agent-hooks (the runner failed, so nothing was checked): agent-hooks: .hooksrc.json: bad',
    });
    const slow = await plugin({ 'pre-tool-use': { sleepMs: 20_000 } }, { timeoutMs: 300 });
    expect(await slow.p.on.before_tool_call!({ toolName: 'exec', params: { command: 'ls' } }, toolCtx(slow.dir))).toEqual({
      block: true,
      blockReason: 'Blocked by agent-hooks (the runner failed, so nothing was checked): agent-hooks: hooks run took over 0.3s',
    });
    // The tool result the runner could not check is withheld, and the prompt is not sent.
    const result = (await gone.p.middleware({ toolCallId: 'c', toolName: 'exec', args: {}, result: { content: [{ type: 'text', text: 'out' }] } }, { runtime: 'openclaw', sessionId: 'S-1' })) as { result: { content: { text: string }[]; isError: boolean } };
    expect(result.result.isError).toBe(true);
    expect(result.result.content[0]!.text).toMatch(/^Blocked by agent-hooks \(the runner failed/);
    const ctx = { runId: 'R-gone', sessionId: 'S-1', workspaceDir: gone.dir };
    expect(await gone.p.on.before_model_resolve!({ prompt: 'hi' }, ctx)).toBeUndefined();
    const run = (await gone.p.on.before_agent_run!({ prompt: 'hi', messages: [] }, ctx)) as { outcome: string; message: string };
    expect(run.outcome).toBe('block');
    expect(run.message).toMatch(/^Blocked by agent-hooks \(the runner failed/);
  });

  it('the tool-result middleware: a rewrite (redact-secrets) replaces the text the model reads and drops the details that held it', async () => {
    const { p, dir, calls } = await plugin({ 'post-tool-use': { stdout: { decision: 'modify', updatedOutput: 'token [REDACTED:github-token]' } } });
    const event = { toolCallId: 'c1', toolName: 'exec', args: { command: 'cat .env' }, cwd: dir, result: { content: [{ type: 'text', text: 'token SECRET' }, { type: 'image', data: 'i' }], details: { aggregated: 'token SECRET' } } };
    const out = (await p.middleware(event, { runtime: 'openclaw', sessionId: 'S-1' })) as { result: { content: unknown[]; details: unknown } };
    expect(out.result.content).toEqual([{ type: 'text', text: 'token [REDACTED:github-token]' }, { type: 'image', data: 'i' }]);
    expect(JSON.stringify(out.result.details)).not.toContain('SECRET');
    expect(calls()[0]!).toMatchObject({ cwd: dir, input: { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat .env' }, tool_response: 'token SECRET' } });
    const quiet = await plugin({});
    expect(await quiet.p.middleware(event, { runtime: 'openclaw' })).toBeUndefined();
  });

  it('prompt: a userPromptSubmit block is held by before_model_resolve and given by before_agent_run; its context reaches before_prompt_build', async () => {
    const block = await plugin({ 'user-prompt-submit': { code: 2, stderr: 'no deploys\n' } });
    const ctx = { runId: 'R-2', sessionId: 'S-2', workspaceDir: block.dir, modelProviderId: 'fake', modelId: 'm' };
    expect(await block.p.on.before_model_resolve!({ prompt: 'deploy' }, ctx)).toBeUndefined();
    // beforeModel is not asked about a blocked prompt.
    expect(block.calls().map((c) => c.args[1])).toEqual(['user-prompt-submit']);
    expect(await block.p.on.before_agent_run!({ prompt: 'deploy', messages: [] }, ctx)).toEqual({ outcome: 'block', reason: 'Blocked by agent-hooks: no deploys', message: 'Blocked by agent-hooks: no deploys' });

    const context = await plugin({ 'user-prompt-submit': { stdout: { additionalContext: 'the repo is frozen' } } });
    const c2 = { ...ctx, runId: 'R-3', workspaceDir: context.dir };
    await context.p.on.before_model_resolve!({ prompt: 'hi' }, c2);
    expect(await context.p.on.before_prompt_build!({ prompt: 'hi', messages: [] }, c2)).toEqual({ prependContext: 'the repo is frozen' });
    expect(await context.p.on.before_agent_run!({ prompt: 'hi', messages: [] }, c2)).toEqual({ outcome: 'pass' });

    // A rewritten prompt cannot be sent in OpenClaw: it is not sent at all.
    const rewrite = await plugin({ 'user-prompt-submit': { stdout: { decision: 'modify', prompt: 'redacted' } } });
    const c3 = { ...ctx, runId: 'R-4', workspaceDir: rewrite.dir };
    await rewrite.p.on.before_model_resolve!({ prompt: 'secret' }, c3);
    expect(((await rewrite.p.on.before_agent_run!({ prompt: 'secret', messages: [] }, c3)) as { outcome: string }).outcome).toBe('block');
    // A run no before_model_resolve saw is checked at before_agent_run itself.
    const late = await plugin({ 'user-prompt-submit': { code: 2, stderr: 'late\n' } });
    expect(((await late.p.on.before_agent_run!({ prompt: 'x', messages: [] }, { runId: 'R-5', workspaceDir: late.dir })) as { reason: string }).reason).toBe('Blocked by agent-hooks: late');
  });

  it('beforeModel: the model a hook picks is the override; a setting OpenClaw cannot take is said; a messages rewrite stops the run', async () => {
    const pick = await plugin({ 'before-model': { stdout: { decision: 'modify', updatedRequest: { model: 'fake/fake-think', parameters: { thinking_level: 'high' } } } } });
    const ctx = { runId: 'R-6', sessionId: 'S-6', workspaceDir: pick.dir, modelProviderId: 'fake', modelId: 'fake-model' };
    expect(await pick.p.on.before_model_resolve!({ prompt: 'think' }, ctx)).toEqual({ providerOverride: 'fake', modelOverride: 'fake-think' });
    const before = pick.calls().find((c) => c.args[1] === 'before-model')!;
    expect(before.input).toMatchObject({ session_id: 'S-6', hook_event_name: 'BeforeModel', model_request: { model: 'fake/fake-model', messages: [{ role: 'user', content: 'think' }], parameters: {} } });
    expect(await pick.p.on.before_agent_run!({ prompt: 'think', messages: [] }, ctx)).toEqual({ outcome: 'pass' });

    const scrub = await plugin({ 'before-model': { stdout: { decision: 'modify', updatedRequest: { messages: [{ role: 'user', content: '[scrubbed]' }] } } } });
    const c2 = { ...ctx, runId: 'R-7', workspaceDir: scrub.dir };
    expect(await scrub.p.on.before_model_resolve!({ prompt: 'pw 123' }, c2)).toBeUndefined();
    expect(((await scrub.p.on.before_agent_run!({ prompt: 'pw 123', messages: [] }, c2)) as { reason: string }).reason).toContain('rewrote the messages, which OpenClaw takes from no plugin');
  });
});
