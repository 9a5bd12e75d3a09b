// How each real agent CLI is configured and run offline: its hook config (every event's one hook
// command is `hooks run <event> --dialect <d>`), its model config pointing at the fake server, its
// command line and environment. Everything goes into the test's own workspace and temp HOME.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installAgent, type AgentName } from './install-agent.js';
import { startModelServer, type ModelServer, type Step, type WireApi } from './model-server.js';
import { run, type RunResult } from './process.js';
import { toolOutputs, type ToolOutput } from './requests.js';
import { hooksRun, makeWorkspace, type Workspace } from './workspace.js';

/** .hooksrc.json: the two builtin guards first, then the test's own hooks (event key -> entries). */
export function hooksConfig(extra: Record<string, object[]> = {}): object {
  const hooks: Record<string, object[]> = {
    preToolUse: [{ builtin: 'command-safety' }],
    postToolUse: [{ builtin: 'redact-secrets' }],
  };
  for (const [event, entries] of Object.entries(extra)) hooks[event] = [...(hooks[event] ?? []), ...entries];
  return { defaults: { timeout: 20 }, hooks };
}

/** A preToolUse hook (node) that rewrites `echo original` into `echo rewritten` in the command. */
export const REWRITE_HOOK = {
  entry: { id: 'rewrite-echo', command: 'node hooks/rewrite.mjs', match: 'exec', if: { command: '*echo original*' } },
  files: {
    'hooks/rewrite.mjs': `import { readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
const command = event.tool_input.command.replace('echo original', 'echo rewritten');
console.log(JSON.stringify({ decision: 'modify', reason: 'test rewrite', updatedInput: { ...event.tool_input, command } }));
`,
  },
};

/** Claude Code against the fake model server at `modelUrl`, with nothing that reaches past 127.0.0.1. */
export function claudeEnv(modelUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
  };
}

export interface AgentSetup {
  api: WireApi;
  args: string[];
  env: Record<string, string>;
}

interface AgentSpec {
  api: WireApi;
  /** Writes the agent's hook and model config; returns its command-line arguments and env. */
  setup(ws: Workspace, model: ModelServer, dialect: string, prompt: string, events?: Record<string, string>): AgentSetup;
}

/** Each agent's event names -> our CLI event names. */
const CODEX_EVENTS = { PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop', SessionStart: 'session-start' };
const GEMINI_EVENTS = { BeforeTool: 'pre-tool-use', AfterTool: 'post-tool-use', BeforeAgent: 'user-prompt-submit', AfterAgent: 'stop', SessionStart: 'session-start', SessionEnd: 'session-end' };
const QWEN_EVENTS = { PreToolUse: 'pre-tool-use', PostToolUse: 'post-tool-use', UserPromptSubmit: 'user-prompt-submit', Stop: 'stop', SessionStart: 'session-start' };
const COPILOT_EVENTS = { preToolUse: 'pre-tool-use', postToolUse: 'post-tool-use', userPromptSubmitted: 'user-prompt-submit', agentStop: 'stop', sessionStart: 'session-start', sessionEnd: 'session-end' };

export const AGENT_SPECS: Record<Exclude<AgentName, 'claude' | 'opencode' | 'cline' | 'pi' | 'omp' | 'openclaw'>, AgentSpec> = {
  codex: {
    api: 'responses',
    setup(ws, model, dialect, prompt) {
      const codexHome = path.join(ws.root, 'codex-home');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        path.join(codexHome, 'config.toml'),
        [
          'model = "gpt-5.5"',
          'model_provider = "mock"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          '',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${model.url}/v1"`,
          'wire_api = "responses"',
          'env_key = "MOCK_API_KEY"',
          '',
          // Without this, Codex 0.169.0 ignores the project's .codex/ layer (hooks included),
          // even with --dangerously-bypass-hook-trust.
          `[projects.${JSON.stringify(ws.dir)}]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      );
      ws.write({
        '.codex/hooks.json': {
          hooks: Object.fromEntries(Object.entries(CODEX_EVENTS).map(([event, cli]) => [event, [{ hooks: [{ type: 'command', command: hooksRun(cli, dialect), timeout: 30 }] }]])),
        },
      });
      return {
        api: 'responses',
        args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', prompt],
        env: { CODEX_HOME: codexHome, MOCK_API_KEY: 'sk-test' },
      };
    },
  },
  gemini: {
    api: 'gemini',
    setup(ws, model, dialect, prompt, events = {}) {
      mkdirSync(path.join(ws.home, '.gemini'), { recursive: true });
      writeFileSync(
        path.join(ws.home, '.gemini', 'settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
      ws.write({
        '.gemini/settings.json': {
          hooks: Object.fromEntries(Object.entries({ ...GEMINI_EVENTS, ...events }).map(([event, cli]) => [event, [{ matcher: '.*', hooks: [{ type: 'command', command: hooksRun(cli, dialect), timeout: 30_000 }] }]])),
        },
      });
      return {
        api: 'gemini',
        args: ['-p', prompt, '--yolo', '--output-format', 'json'],
        env: { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'test-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
      };
    },
  },
  qwen: {
    api: 'chat',
    setup(ws, model, dialect, prompt) {
      mkdirSync(path.join(ws.home, '.qwen'), { recursive: true });
      writeFileSync(
        path.join(ws.home, '.qwen', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'openai' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true } }),
      );
      ws.write({
        '.qwen/settings.json': {
          hooks: Object.fromEntries(Object.entries(QWEN_EVENTS).map(([event, cli]) => [event, [{ matcher: '', hooks: [{ type: 'command', command: hooksRun(cli, dialect), timeout: 30 }] }]])),
        },
      });
      return {
        api: 'chat',
        args: ['-p', prompt, '--yolo', '--output-format', 'json'],
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_MODEL: 'fake-model', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' },
      };
    },
  },
  copilot: {
    api: 'chat',
    setup(ws, model, dialect, prompt) {
      ws.write({
        '.github/hooks/agent-hooks.json': {
          version: 1,
          hooks: Object.fromEntries(Object.entries(COPILOT_EVENTS).map(([event, cli]) => [event, [{ type: 'command', bash: hooksRun(cli, dialect), timeoutSec: 30 }]])),
        },
      });
      return {
        api: 'chat',
        args: ['-p', prompt, '--allow-all-tools', '--no-auto-update', '--disable-client-telemetry'],
        env: {
          COPILOT_OFFLINE: 'true',
          COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
          COPILOT_PROVIDER_API_KEY: 'sk-test',
          COPILOT_MODEL: 'claude-sonnet-4.6',
          COPILOT_ALLOW_ALL: 'true',
          COPILOT_AUTO_UPDATE: 'false',
        },
      };
    },
  },
};

export interface AgentRun {
  ws: Workspace;
  model: ModelServer;
  result: RunResult;
  /** The tool outputs the n-th model turn carried (what went back to the model). */
  outputs(turn: number): ToolOutput[];
  /** For assertion messages. */
  describe(): string;
}

/** Runs one agent once: fresh workspace and HOME, fake model with `script`, hooks through `dialect`. */
export async function runAgent(
  agent: keyof typeof AGENT_SPECS,
  options: {
    label: string;
    dialect: string;
    script: Step[];
    hooks?: Record<string, object[]>;
    files?: Record<string, string>;
    prompt?: string;
    timeoutMs?: number;
    /** More of the agent's events wired to `hooks run` (agent event -> our CLI event name). */
    agentEvents?: Record<string, string>;
    /** More environment for the agent (and so for the hooks it runs). */
    env?: Record<string, string>;
  },
): Promise<AgentRun> {
  const bin = await installAgent(agent);
  const spec = AGENT_SPECS[agent];
  const ws = makeWorkspace(`${agent}-${options.label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  const model = await startModelServer(spec.api, options.script, ws.root);
  try {
    const setup = spec.setup(ws, model, options.dialect, options.prompt ?? 'clean up the workspace', options.agentEvents);
    const result = await run(bin, setup.args, { cwd: ws.dir, env: ws.env({ ...setup.env, ...options.env }), timeoutMs: options.timeoutMs ?? 90_000 });
    const turns = () => model.turns();
    return {
      ws,
      model,
      result,
      outputs: (n) => {
        const req = turns()[n];
        return req === undefined ? [] : toolOutputs(spec.api, req);
      },
      describe: () =>
        `${agent} exit ${result.code}${result.timedOut ? ' (timed out)' : ''} in ${result.ms} ms, ${turns().length} model turns\n` +
        `stdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}`,
    };
  } finally {
    model.stop();
  }
}
