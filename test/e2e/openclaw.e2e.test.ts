// OpenClaw for real (`openclaw agent --local --message <prompt>`, its embedded runner, on Node 24 from
// the npm registry): it has no command hooks, so `hooks install openclaw --user` writes a native plugin
// into ~/.openclaw/extensions/agent-hooks/ and loads it from ~/.openclaw/openclaw.json. The model is a
// custom OpenAI-compatible provider in the same config, pointing at the fake server. One OpenClaw run
// takes a minute or more on a loaded machine, so one run covers the three tool-call cases.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { installAgent, nodeLine } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { everything, toolOutputs } from './harness/requests.js';
import { DANGER_REASON, DANGEROUS, REDACTED, TOKEN } from './harness/fixtures.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';

let bin = '';
let nodeDir = '';

beforeAll(async () => {
  nodeDir = path.dirname(await nodeLine(24));
  bin = await installAgent('openclaw');
});
cleanUpAfterAll();

// A hang guard, not a budget: one run took 60-160 s on a loaded 2-core machine.
const RUN_TIMEOUT = 480_000;

/** The files under `dir` whose bytes hold `text` (OpenClaw's SQLite stores and logs included). */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (readFileSync(file).includes(text)) found.push(file);
  }
  return found;
}
const exec = (command: string): Step => ({ tool: { name: 'exec', input: { command } } });

interface RunOptions {
  script: Step[];
  prompt: string;
  hooks?: Record<string, object[]>;
  files?: Record<string, string>;
  runnerGone?: boolean;
}

async function runOpenclaw(label: string, options: RunOptions) {
  const ws = makeWorkspace(`openclaw-${label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  const model = await startModelServer('chat', options.script, ws.root);
  try {
    const env = ws.env({ PATH: `${nodeDir}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    // The user's OpenClaw config before the install: the fake provider (two models, so a beforeModel
    // hook has one to switch to) and the agent's workspace (where .hooksrc.json is).
    const configDir = path.join(ws.home, '.openclaw');
    mkdirSync(configDir, { recursive: true });
    const model_ = (id: string) => ({ id, name: id, reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 4000 });
    const config = {
      models: { providers: { fake: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test', api: 'openai-completions', models: [model_('fake-model'), model_('fake-think')] } } },
      agents: { defaults: { model: { primary: 'fake/fake-model' }, workspace: ws.dir } },
    };
    writeFileSync(path.join(configDir, 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`);

    // What a user runs: the plugin is written and enabled in that config.
    const install = await run(process.execPath, [HOOKS_BIN, 'install', 'openclaw', '--user'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(install.code, `hooks install openclaw --user: ${install.stdout}${install.stderr}`).toBe(0);
    const plugin = path.join(configDir, 'extensions', 'agent-hooks', 'index.js');
    // The runner the plugin names is gone (a global agent-hooks uninstalled since).
    if (options.runnerGone === true) writeFileSync(plugin, readFileSync(plugin, 'utf8').replace(JSON.stringify(HOOKS_BIN), JSON.stringify(path.join(ws.root, 'gone', 'agent-hooks'))));

    const result = await run(bin, ['agent', '--local', '--message', options.prompt], { cwd: ws.dir, env, timeoutMs: RUN_TIMEOUT - 30_000 });
    const describeRun = () => `openclaw exit ${result.code} in ${result.ms} ms, ${model.turns().length} turns\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
    expect(result.timedOut, describeRun()).toBe(false);
    return { ws, model, result, describeRun };
  } finally {
    model.stop();
  }
}

describe('OpenClaw (real CLI, plugin from `hooks install openclaw --user`)', () => {
  it(
    "blocks a dangerous exec with the reason as the call's result, runs a rewritten command, and redacts a secret from a result",
    async () => {
      const r = await runOpenclaw('tools', {
        prompt: 'clean up the workspace',
        script: [exec(DANGEROUS), exec('echo original > out.txt'), exec('echo OUTPUT-MARKER-3141; cat notes.txt'), { text: 'Done.' }],
        hooks: { preToolUse: [REWRITE_HOOK.entry] },
        files: { ...REWRITE_HOOK.files, 'notes.txt': `deploy key: ${TOKEN}\n` },
      });
      const turns = r.model.turns();
      expect(turns.length, r.describeRun()).toBe(4);
      // The dangerous command never ran, and the model read why.
      expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
      expect(everything(turns[0]!)).not.toContain(DANGER_REASON);
      const blocked = toolOutputs('chat', turns[1]!);
      expect(blocked, r.describeRun()).toHaveLength(1);
      expect(blocked[0]!.text).toContain(DANGER_REASON);
      // The rewrite is what ran.
      expect(r.ws.read('out.txt'), r.describeRun()).toBe('rewritten\n');
      // The token in the output never reached the model; the rest of the output did.
      // The fourth turn carries the history: the three results, the last one the secret's.
      const outputs = toolOutputs('chat', turns[3]!);
      expect(outputs, r.describeRun()).toHaveLength(3);
      expect(outputs[2]!.text).toContain('OUTPUT-MARKER-3141');
      expect(outputs[2]!.text).toContain(REDACTED);
      expect(r.model.requests().filter((q) => everything(q).includes(TOKEN)), r.describeRun()).toEqual([]);
      // Nor OpenClaw's own records of the session (its transcript keeps the rewritten result, not exec's raw output).
      expect(filesHolding(path.join(r.ws.home, '.openclaw'), TOKEN)).toEqual([]);
    },
    RUN_TIMEOUT,
  );

  it(
    'the classifier → think-level pair: a userPromptSubmit hook classifies into the metadata bag, a beforeModel hook reads it and picks the model',
    async () => {
      // Two events, two runner processes: the second knows the verdict only from the session's bag.
      const classify = `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log(JSON.stringify({metadata:{thinking:/think hard/.test(e.prompt)?'high':'low'}}))"`;
      const route = `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));const m=e.agent_hooks_metadata||{};if(m.thinking==='high')console.log(JSON.stringify({decision:'modify',updatedRequest:{model:'fake/fake-think',parameters:{thinking_level:'high'}}}))"`;
      const r = await runOpenclaw('classify', {
        prompt: 'think hard about the CLASSIFY-MARKER-77 question',
        script: [{ text: 'Thought about it.' }],
        hooks: { userPromptSubmit: [{ id: 'classify', command: classify }], beforeModel: [{ id: 'route', command: route }] },
      });
      const asked = r.model.requests().filter((q) => everything(q).includes('CLASSIFY-MARKER-77'));
      expect(asked.length, r.describeRun()).toBeGreaterThanOrEqual(1);
      for (const q of asked) expect((q.body as { model?: string }).model, r.describeRun()).toBe('fake-think');
      // The thinking level itself has no place in OpenClaw's plugin API: said, not dropped silently.
      expect(r.result.stderr + r.result.stdout, r.describeRun()).toContain('thinking_level, which OpenClaw takes from no plugin');
    },
    RUN_TIMEOUT,
  );

  it(
    'a userPromptSubmit block: the model is never asked, and the reason is said',
    async () => {
      const r = await runOpenclaw('prompt-block', {
        prompt: 'please deploy PROMPT-SECRET-5150 to production',
        script: [exec('touch ran.marker')],
        hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
      });
      expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), r.describeRun()).toEqual([]);
      expect(r.model.turns(), r.describeRun()).toEqual([]);
      expect(r.result.stdout + r.result.stderr, r.describeRun()).toContain('Blocked by agent-hooks: deploys are not done by the agent');
    },
    RUN_TIMEOUT,
  );

  it(
    'a runner that is gone blocks the prompt before the model is asked (fail closed)',
    async () => {
      const r = await runOpenclaw('nobin', { prompt: 'clean up', script: [exec('touch ran.marker')], runnerGone: true });
      expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
      expect(r.model.turns(), r.describeRun()).toEqual([]);
      expect(r.result.stdout + r.result.stderr, r.describeRun()).toMatch(/Blocked by agent-hooks \(the runner failed, so nothing was checked\): agent-hooks: cannot run .*gone\/agent-hooks/);
    },
    RUN_TIMEOUT,
  );
});
