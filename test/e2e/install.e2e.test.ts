// `agent-hooks install` for real: the settings each agent gets from the installer (not hand-written),
// in a project that depends on agent-hooks (node_modules/.bin/agent-hooks links to this checkout), run
// by the real agent CLIs. Proves the project-relative commands resolve as each agent runs them
// ($CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR, the repository root for Codex and Copilot), and that
// --fail-closed makes Claude Code block a tool when the runner is missing or broken.
// Hooks come from the user layer ($XDG_CONFIG_HOME/agent-hooks/config.json), which needs no trust step.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_SPECS, claudeEnv, hooksConfig } from './harness/agents.js';
import { toolResults } from './harness/anthropic.js';
import { DANGER_REASON, DANGEROUS } from './harness/fixtures.js';
import { AGENTS, installAgent } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { toolOutputs } from './harness/requests.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace, type Workspace } from './harness/workspace.js';

cleanUpAfterAll();

/**
 * A workspace whose project depends on agent-hooks, as after `npm i -D agent-hooks`: package.json
 * names it and node_modules/.bin/agent-hooks is a link to this checkout's bin. The guards are in the
 * user layer of the workspace's HOME.
 */
function dependentWorkspace(label: string, config: object | string = hooksConfig()): Workspace {
  const ws = makeWorkspace(label);
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } } });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  mkdirSync(path.join(ws.home, '.config', 'agent-hooks'), { recursive: true });
  writeFileSync(path.join(ws.home, '.config', 'agent-hooks', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return ws;
}

/** `agent-hooks install <agent> ...` in the workspace, as a user would type it; returns the file's text. */
function installInto(ws: Workspace, agent: string, file: string, flags: string[] = []): string {
  const r = spawnSync(process.execPath, [HOOKS_BIN, 'install', agent, ...flags], { cwd: ws.dir, env: ws.env(), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const text = ws.read(file)!;
  // Nothing of this machine in a file teams commit.
  expect(text).not.toContain(ws.root);
  expect(text).not.toContain(path.dirname(HOOKS_BIN));
  return text;
}

const claudeBash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });

async function runClaude(ws: Workspace, script: Step[]) {
  const claude = await installAgent('claude');
  const model = await startModelServer('anthropic', script, ws.root);
  try {
    const result = await run(claude, ['-p', 'clean up the workspace', '--output-format', 'json', '--allowedTools', 'Bash Write Edit Read'], {
      cwd: ws.dir,
      timeoutMs: 90_000,
      env: ws.env(claudeEnv(model.url)),
    });
    const turns = model.turns();
    const describeRun = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}\nturns: ${turns.length}`;
    expect(result.timedOut, describeRun).toBe(false);
    return { result, turns, describeRun, results: turns.length > 1 ? toolResults(turns[1]!) : [] };
  } finally {
    model.stop();
  }
}

describe(`Claude Code ${AGENTS.claude.version} with the installed settings`, () => {
  it('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks runs: a dangerous command is blocked', async () => {
    const ws = dependentWorkspace('install-claude');
    const text = installInto(ws, 'claude-code', '.claude/settings.json');
    expect(text).toContain('"\\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/agent-hooks run pre-tool-use --dialect claude-code # agent-hooks"');
    const r = await runClaude(ws, [claudeBash(DANGEROUS)]);
    expect(ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.results, r.describeRun).toHaveLength(1);
    expect(r.results[0]!.text).toContain(DANGER_REASON);
  });

  it('--fail-closed: with the runner missing (a clone before npm ci), the prompt is blocked before any model call', async () => {
    const ws = dependentWorkspace('install-claude-missing-closed');
    const text = installInto(ws, 'claude-code', '.claude/settings.json', ['--fail-closed']);
    expect(JSON.parse(text).hooks.PreToolUse[0].hooks[0]).toMatchObject({ onFailure: 'block', command: expect.stringContaining('--on-error block') });
    rmSync(path.join(ws.dir, 'node_modules'), { recursive: true });
    const r = await runClaude(ws, [claudeBash('touch ran.marker')]);
    expect(ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.turns, r.describeRun).toHaveLength(0);
    expect(r.result.stdout, r.describeRun).toContain('UserPromptSubmit operation blocked by hook');
  });

  it('--fail-closed: with the runner missing, PreToolUse blocks the tool (onFailure "block" on the handler)', async () => {
    const ws = dependentWorkspace('install-claude-missing-tool');
    const doc = JSON.parse(installInto(ws, 'claude-code', '.claude/settings.json', ['--fail-closed']));
    // Only the tool gate left, so the prompt reaches the model and the model asks for a tool.
    ws.write({ '.claude/settings.json': { hooks: { PreToolUse: doc.hooks.PreToolUse } } });
    rmSync(path.join(ws.dir, 'node_modules'), { recursive: true });
    const r = await runClaude(ws, [claudeBash('touch ran.marker')]);
    expect(ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.results, r.describeRun).toHaveLength(1);
    expect(r.results[0]!.is_error, r.describeRun).toBe(true);
  });

  it('without --fail-closed the same missing runner fails open: the tool runs (why --fail-closed exists)', async () => {
    const ws = dependentWorkspace('install-claude-missing-open');
    installInto(ws, 'claude-code', '.claude/settings.json');
    rmSync(path.join(ws.dir, 'node_modules'), { recursive: true });
    const r = await runClaude(ws, [claudeBash('touch ran.marker')]);
    expect(ws.exists('ran.marker'), r.describeRun).toBe(true);
  });

  it('--fail-closed: a runner error (a broken user config) blocks, with the error as the reason', async () => {
    const ws = dependentWorkspace('install-claude-broken', '{"hooks": {"preToolUse": [{"command": "true", "timeout": "soon"}]}}');
    installInto(ws, 'claude-code', '.claude/settings.json', ['--fail-closed']);
    const r = await runClaude(ws, [claudeBash('touch ran.marker')]);
    expect(ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.turns, r.describeRun).toHaveLength(0);
    expect(r.result.stdout, r.describeRun).toContain('hooks.preToolUse[0].timeout: expected number');
  });
});

/** Runs one of the shell agents on `script` with settings written by `agent-hooks install`. */
async function runInstalled(agent: 'gemini' | 'codex' | 'copilot', handWritten: string, script: Step[], options: { gitSubdir?: string } = {}) {
  const bin = await installAgent(agent);
  const spec = AGENT_SPECS[agent];
  const ws = dependentWorkspace(`install-${agent}`);
  const model = await startModelServer(spec.api, script, ws.root);
  try {
    // The harness's model and home setup, without its hand-written hook file: the installer writes it.
    const setup = spec.setup(ws, model, agent, 'clean up the workspace');
    rmSync(path.join(ws.dir, handWritten));
    installInto(ws, agent, handWritten);
    let cwd = ws.dir;
    if (options.gitSubdir !== undefined) {
      // A repository, and the session started in a folder below its root (hooks then run there).
      expect(spawnSync('git', ['init', '-q', ws.dir]).status).toBe(0);
      cwd = path.join(ws.dir, options.gitSubdir);
      mkdirSync(cwd, { recursive: true });
    }
    const result = await run(bin, setup.args, { cwd, env: ws.env(setup.env), timeoutMs: 90_000 });
    const turns = model.turns();
    const describeRun = `${agent} exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}\nturns: ${turns.length}`;
    expect(result.timedOut, describeRun).toBe(false);
    return { ws, describeRun, outputs: turns.length > 1 ? toolOutputs(spec.api, turns[1]!) : [] };
  } finally {
    model.stop();
  }
}

describe('the other agents with the installed settings', () => {
  it('Gemini CLI 0.61.0: "$GEMINI_PROJECT_DIR"/node_modules/.bin/agent-hooks runs and blocks', async () => {
    const r = await runInstalled('gemini', '.gemini/settings.json', [{ tool: { name: 'run_shell_command', input: { command: DANGEROUS, description: 'run it' } } }]);
    expect(r.ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.outputs.map((o) => o.text).join('\n'), r.describeRun).toContain(DANGER_REASON);
  });

  it(`Codex CLI ${AGENTS.codex.version}: the repository-root command runs and blocks`, async () => {
    const r = await runInstalled('codex', '.codex/hooks.json', [{ tool: { name: 'exec_command', input: { cmd: DANGEROUS } } }]);
    expect(r.ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.outputs.map((o) => o.text).join('\n'), r.describeRun).toContain(DANGER_REASON);
  });

  it(`Codex CLI ${AGENTS.codex.version}: from a folder below the repository root, the command still finds the project's bin`, async () => {
    const r = await runInstalled('codex', '.codex/hooks.json', [{ tool: { name: 'exec_command', input: { cmd: DANGEROUS } } }], { gitSubdir: 'src/deep' });
    expect(r.ws.exists('src/deep/ran.marker'), r.describeRun).toBe(false);
    expect(r.outputs.map((o) => o.text).join('\n'), r.describeRun).toContain(DANGER_REASON);
  });

  it('Copilot CLI 1.0.102: the repository-root command runs and blocks', async () => {
    const r = await runInstalled('copilot', '.github/hooks/agent-hooks.json', [{ tool: { name: 'bash', input: { command: DANGEROUS, description: 'run it' } } }]);
    expect(r.ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.outputs.map((o) => o.text).join('\n'), r.describeRun).toContain(DANGER_REASON);
  });
});
