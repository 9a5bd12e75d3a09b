// Cline for real (`cline --json <prompt>`, act mode, auto-approve): its file hooks can only cancel the
// task, so `hooks install cline --project` writes a plugin into .cline/plugins/ whose beforeTool runs
// `hooks run` and skips a blocked call with the reason, which the model reads as that call's result.
// The model is an OpenAI-compatible provider on the fake server (`cline auth -b <url>`).
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { freePort, run } from './harness/process.js';
import { everything } from './harness/requests.js';
import { DANGER_REASON, DANGEROUS } from './harness/fixtures.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';
import { toolCallCases, toolCallRun } from './harness/tool-call-cases.js';

let cline: string;

beforeAll(async () => {
  cline = await installAgent('cline');
});
cleanUpAfterAll();

// Cline 3.0's shell tool (from its bundle): a list of commands, each run on its own.
const runCommands = (...commands: string[]): Step => ({ tool: { name: 'run_commands', input: { commands } } });

async function runCline(label: string, options: { script: Step[]; hooks?: Record<string, object[]>; files?: Record<string, string>; prompt?: string; runnerGone?: boolean; env?: Record<string, string>; hub?: boolean }) {
  const ws = makeWorkspace(`cline-${label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  // The project depends on agent-hooks (as after npm i -D): the plugin runs node_modules/.bin/agent-hooks.
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } } });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  const env = ws.env({
    // Without it Cline checks npm for a newer release and may install it (seen in its bundle).
    CLINE_NO_AUTO_UPDATE: '1',
    // In "auto" mode a run that finds no hub starts a hub daemon (fixed port 25463) that outlives the
    // test and competes for the CPU; "local" runs the task in this process, as a first run does anyway.
    CLINE_SESSION_BACKEND_MODE: 'local',
    // Cline drops every plugin, silently, when its sandbox takes over 4 s to load them (see the
    // canary below); a loaded machine can take that long, which is what made a combined run look unguarded.
    CLINE_PLUGIN_IMPORT_TIMEOUT_MS: '60000',
    ...options.env,
  });

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
    if (options.hub === true) {
      // How most users run: a hub daemon already up, which runs the task (and loads the plugins) itself.
      const hub = await run(cline, ['hub', 'start'], { cwd: ws.dir, env, timeoutMs: 60_000 });
      expect(hub.code, `cline hub start: ${hub.stdout}${hub.stderr}`).toBe(0);
    }
    const result = await run(cline, ['--json', options.prompt ?? 'clean up the workspace'], { cwd: ws.dir, env, timeoutMs: 90_000 });
    const describeRun = () => `cline exit ${result.code} in ${result.ms} ms, ${model.turns().length} turns\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}`;
    expect(result.timedOut, describeRun()).toBe(false);
    return { ws, model, result, describeRun, clineLog: () => readFileSync(path.join(ws.home, '.cline', 'data', 'logs', 'cline.log'), 'utf8') };
  } finally {
    // The daemon outlives the run otherwise.
    if (options.hub === true) await run(cline, ['hub', 'stop'], { cwd: ws.dir, env, timeoutMs: 60_000 });
    model.stop();
  }
}

describe('Cline (real CLI, plugin from `hooks install cline --project`)', () => {
  // One task for the four tool-call cases (harness/tool-call-cases.ts): every call is guarded, not just the first.
  describe('block, allow, rewrite and redact-secrets, one call each in one task', () => {
    let r: Awaited<ReturnType<typeof runCline>>;
    beforeAll(async () => {
      r = await runCline('tool-calls', toolCallRun(runCommands));
    });

    it('Cline loaded the plugin (else nothing below was guarded: see the canary on plugin loading)', () => {
      expect(r.clineLog(), r.describeRun()).not.toContain('continuing without plugins');
    });
    toolCallCases(() => r);
  });

  it('through a running hub daemon (`cline hub start`), which runs the task itself, every call is guarded too', async () => {
    const r = await runCline('hub', {
      script: [runCommands(DANGEROUS), runCommands('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
      hub: true,
      // A port of its own, so that no other hub on the machine (Cline's default is 25463) is in play.
      env: { CLINE_SESSION_BACKEND_MODE: 'auto', CLINE_HUB_PORT: String(await freePort()) },
    });
    expect(r.clineLog(), r.describeRun()).toContain('Using discovered local hub runtime host');
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    expect(everything(r.model.turns()[1]!), r.describeRun()).toContain(DANGER_REASON);
    expect(r.ws.read('out.txt'), r.describeRun()).toBe('rewritten\n');
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

  // Cline gives each plugin hook call 3 s (its sandbox's hookTimeoutMs, no setting), kills the sandbox
  // when that runs out and throws, which ends the task: a slow guard does not let its call through.
  it('a hook slower than Cline\'s 3 s per-hook budget: the call still does not run (the task ends)', async () => {
    const r = await runCline('slow', {
      script: [runCommands('echo slow > slow.txt'), runCommands('echo after > after.txt')],
      hooks: { preToolUse: [{ id: 'slow-no', command: `sleep 5; echo 'too slow to say yes' >&2; exit 2`, timeout: 30 }] },
    });
    expect(r.ws.exists('slow.txt'), r.describeRun()).toBe(false);
    expect(r.ws.exists('after.txt'), r.describeRun()).toBe(false);
    expect(r.clineLog(), r.describeRun()).toContain('plugin-sandbox call timed out after 3000ms: invokeHook');
    expect(r.model.turns(), r.describeRun()).toHaveLength(1);
  });

  // Cline's own limit, not the plugin's: its plugin sandbox gets CLINE_PLUGIN_IMPORT_TIMEOUT_MS (default
  // 4000) to load the plugins, and when that runs out Cline logs "plugin loading failed; continuing
  // without plugins" to ~/.cline/data/logs/cline.log and runs the task with no plugin at all: every call
  // unguarded, no word on stdout or stderr. A plugin that is never loaded cannot block anything, so this
  // canary pins the behaviour down (a budget of 1 ms forces it) and fails the day Cline stops failing open.
  it('canary: when Cline cannot load its plugins in time it runs the task without them (fails open)', async () => {
    const r = await runCline('import-timeout', {
      script: [runCommands('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
      env: { CLINE_PLUGIN_IMPORT_TIMEOUT_MS: '1' },
    });
    expect(r.clineLog(), r.describeRun()).toContain('plugin loading failed; continuing without plugins (plugin-sandbox call timed out after 1ms: initialize)');
    // The hook's rewrite never happened, and the run still "succeeded".
    expect(r.ws.read('out.txt'), r.describeRun()).toBe('original\n');
    expect(r.result.code, r.describeRun()).toBe(0);
  });

  it('canary: through a hub daemon the same happens with no word in any log', async () => {
    const r = await runCline('hub-import-timeout', {
      script: [runCommands('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
      hub: true,
      env: { CLINE_SESSION_BACKEND_MODE: 'auto', CLINE_HUB_PORT: String(await freePort()), CLINE_PLUGIN_IMPORT_TIMEOUT_MS: '1' },
    });
    expect(r.clineLog(), r.describeRun()).toContain('Using discovered local hub runtime host');
    expect(r.ws.read('out.txt'), r.describeRun()).toBe('original\n');
    const logs = path.join(r.ws.home, '.cline', 'data', 'logs');
    for (const file of readdirSync(logs)) expect(readFileSync(path.join(logs, file), 'utf8'), file).not.toMatch(/plugin/i);
  });
});
