// opencode for real (`opencode run`): it has no command hooks, so `hooks install opencode --project`
// writes a JS plugin into .opencode/plugin/ that calls `hooks run` on tool.execute.before/after.
// The model is a Chat Completions provider on the fake server (opencode.json in the workspace).
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { installAgent, installOpencodePluginDeps } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { everything, toolOutputs } from './harness/requests.js';
import { DANGER_REASON, DANGEROUS } from './harness/fixtures.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';

let opencode: string;
let pluginDeps: string;

beforeAll(async () => {
  [opencode, pluginDeps] = await Promise.all([installAgent('opencode'), installOpencodePluginDeps()]);
});
cleanUpAfterAll();

const bash = (command: string): Step => ({ tool: { name: 'bash', input: { command, description: 'run it' } } });

async function runOpencode(label: string, options: { script: Step[]; hooks?: Record<string, object[]>; files?: Record<string, string> }) {
  const ws = makeWorkspace(`opencode-${label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  // The project depends on agent-hooks (as after npm i -D): the plugin runs node_modules/.bin/agent-hooks.
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } } });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  const env = ws.env({
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  });

  // What a user runs: our installer writes the plugin.
  const install = await run(process.execPath, [HOOKS_BIN, 'install', 'opencode', '--project'], { cwd: ws.dir, env, timeoutMs: 30_000 });
  expect(install.code, `hooks install opencode --project: ${install.stdout}${install.stderr}`).toBe(0);
  expect(ws.exists('.opencode/plugin/agent-hooks.js')).toBe(true);
  // opencode's own plugin dependencies, pre-installed (see installOpencodePluginDeps).
  for (const name of ['package.json', 'package-lock.json', 'node_modules']) {
    cpSync(path.join(pluginDeps, name), path.join(ws.dir, '.opencode', name), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }

  const model = await startModelServer('chat', options.script, ws.root);
  try {
    ws.write({
      'opencode.json': {
        provider: {
          fake: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Fake',
            options: { baseURL: `${model.url}/v1`, apiKey: 'sk-test' },
            models: { 'fake-model': { name: 'Fake', tool_call: true } },
          },
        },
        model: 'fake/fake-model',
        permission: { bash: 'allow', edit: 'allow', read: 'allow' },
        autoupdate: false,
        share: 'disabled',
      },
    });
    const result = await run(opencode, ['run', 'clean up the workspace'], { cwd: ws.dir, env, timeoutMs: 90_000 });
    const describeRun = () => `opencode exit ${result.code} in ${result.ms} ms, ${model.turns().length} turns\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}`;
    expect(result.timedOut, describeRun()).toBe(false);
    return { ws, model, result, describeRun };
  } finally {
    model.stop();
  }
}

describe('opencode (real CLI, plugin from `hooks install opencode --project`)', () => {
  // One agent start for the tool-call cases: the fake model makes the calls in turn (one per turn),
  // and each case is checked on the turn after its call. Tool outputs accumulate with the
  // conversation: turn k+1 carries exactly k+1 of them, the last being call k's.
  describe('block and rewrite, one call each in one run', () => {
    const BLOCK = 0;
    const REWRITE = 1;
    let r: Awaited<ReturnType<typeof runOpencode>>;
    beforeAll(async () => {
      r = await runOpencode('tool-calls', {
        script: [bash(DANGEROUS), bash('echo original > out.txt')],
        hooks: { preToolUse: [REWRITE_HOOK.entry] },
        files: REWRITE_HOOK.files,
      });
    });
    /** What went back to the model for call `k`, on the turn after it (which carries k+1 outputs). */
    const outputOf = (k: number, what: string) => {
      expect(r.model.turns().length, `${what}: a turn after call ${k}\n${r.describeRun()}`).toBeGreaterThan(k + 1);
      const outputs = toolOutputs('chat', r.model.turns()[k + 1]!);
      expect(outputs, `${what}: turn ${k + 1} carries the outputs of calls 0..${k}\n${r.describeRun()}`).toHaveLength(k + 1);
      return outputs[k]!;
    };

    it('blocks a dangerous bash call: it never runs, and the reason reaches the model', () => {
      expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
      expect(everything(r.model.turns()[BLOCK]!)).not.toContain(DANGER_REASON);
      expect(outputOf(BLOCK, 'block').text).toContain(DANGER_REASON);
    });

    it('a rewrite changes the command that actually runs', () => {
      expect(r.ws.read('out.txt'), r.describeRun()).toBe('rewritten\n');
      expect(r.model.turns().length, r.describeRun()).toBeGreaterThanOrEqual(REWRITE + 2);
    });
  });
});
