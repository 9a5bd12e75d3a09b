// Cline for real (`cline --json <prompt>`, act mode, auto-approve): its file hooks can only cancel the
// task, so `hooks install cline --project` writes a plugin into .cline/plugins/ whose beforeTool runs
// `hooks run` and skips a blocked call with the reason, which the model reads as that call's result.
// The model is an OpenAI-compatible provider on the fake server (`cline auth -b <url>`).
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { everything, toolOutputs } from './harness/requests.js';
import { DANGER_REASON, DANGEROUS, REDACTED, TOKEN } from './harness/fixtures.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';

let cline: string;

beforeAll(async () => {
  cline = await installAgent('cline');
});
cleanUpAfterAll();

// Cline 3.0's shell tool (from its bundle): a list of commands, each run on its own.
const runCommands = (...commands: string[]): Step => ({ tool: { name: 'run_commands', input: { commands } } });

async function runCline(label: string, options: { script: Step[]; hooks?: Record<string, object[]>; files?: Record<string, string>; prompt?: string; runnerGone?: boolean }) {
  const ws = makeWorkspace(`cline-${label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  // The project depends on agent-hooks (as after npm i -D): the plugin runs node_modules/.bin/agent-hooks.
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } } });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  // Without it Cline checks npm for a newer release and may install it (seen in its bundle).
  const env = ws.env({ CLINE_NO_AUTO_UPDATE: '1' });

  // What a user runs: our installer writes the plugin.
  const install = await run(process.execPath, [HOOKS_BIN, 'install', 'cline', '--project'], { cwd: ws.dir, env, timeoutMs: 30_000 });
  expect(install.code, `hooks install cline --project: ${install.stdout}${install.stderr}`).toBe(0);
  expect(ws.exists('.cline/plugins/agent-hooks.js')).toBe(true);
  // A clone where `npm ci` has not run yet: the plugin is there, the runner it names is not.
  if (options.runnerGone === true) rmSync(path.join(ws.dir, 'node_modules'), { recursive: true });

  const model = await startModelServer('chat', options.script, ws.root);
  try {
    // The provider, as `cline auth` stores it (in the test's HOME).
    const auth = await run(cline, ['auth', '-p', 'openai-compatible', '-k', 'sk-test', '-m', 'fake-model', '-b', `${model.url}/v1`], { cwd: ws.dir, env, timeoutMs: 60_000 });
    expect(auth.code, `cline auth: ${auth.stdout}${auth.stderr}`).toBe(0);
    const result = await run(cline, ['--json', options.prompt ?? 'clean up the workspace'], { cwd: ws.dir, env, timeoutMs: 90_000 });
    const describeRun = () => `cline exit ${result.code} in ${result.ms} ms, ${model.turns().length} turns\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}`;
    expect(result.timedOut, describeRun()).toBe(false);
    return { ws, model, result, describeRun };
  } finally {
    model.stop();
  }
}

describe('Cline (real CLI, plugin from `hooks install cline --project`)', () => {
  it('blocks a dangerous command: it never runs, and the reason reaches the model as the call\'s result', async () => {
    const r = await runCline('block', { script: [runCommands(DANGEROUS)] });
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    const turns = r.model.turns();
    expect(turns.length, r.describeRun()).toBeGreaterThanOrEqual(2);
    expect(everything(turns[0]!)).not.toContain(DANGER_REASON);
    const outputs = toolOutputs('chat', turns[1]!);
    expect(outputs, r.describeRun()).toHaveLength(1);
    expect(outputs[0]!.text).toContain(DANGER_REASON);
  });

  it('a harmless command runs untouched', async () => {
    const r = await runCline('allow', { script: [runCommands('echo fine > fine.txt')] });
    expect(r.ws.read('fine.txt'), r.describeRun()).toBe('fine\n');
  });

  it('a rewrite changes the command that actually runs', async () => {
    const r = await runCline('rewrite', {
      script: [runCommands('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
    });
    expect(r.ws.read('out.txt'), r.describeRun()).toBe('rewritten\n');
    expect(r.model.turns().length, r.describeRun()).toBeGreaterThanOrEqual(2);
  });

  it('redact-secrets: a token in the command output does not reach the model', async () => {
    const r = await runCline('redact', { script: [runCommands(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`)] });
    const outputs = toolOutputs('chat', r.model.turns()[1]!);
    expect(outputs, r.describeRun()).toHaveLength(1);
    expect(outputs[0]!.text).not.toContain(TOKEN);
    expect(outputs[0]!.text).toContain(REDACTED);
    expect(outputs[0]!.text).toContain('OUTPUT-MARKER-3141');
  });

  it('a userPromptSubmit block stops the task: the model never sees the prompt', async () => {
    const r = await runCline('prompt', {
      prompt: 'please deploy PROMPT-SECRET-5150 to production',
      script: [{ text: 'Not deploying.' }],
      hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
    });
    expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), r.describeRun()).toEqual([]);
    expect(r.model.turns(), r.describeRun()).toEqual([]);
  });

  it('a runner that is gone stops the task before the model is asked (fail closed)', async () => {
    // beforeRun is the first gate: with no runner, nothing reaches the model and no tool can run.
    const r = await runCline('nobin', { script: [runCommands('touch ran.marker')], runnerGone: true });
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    expect(r.model.turns(), r.describeRun()).toEqual([]);
    // Cline 3.0.65 shows no stop reason, and a plugin's stderr does not reach its own: only the aborted run says so.
    expect(r.result.stdout, r.describeRun()).toContain('"finishReason":"aborted"');
  });
});
