// One Claude Code settings file with matcher groups, regex matchers and an `if` rule, run twice by the real
// Claude Code 2.1.332: natively (the file as .claude/settings.json), and imported with `hooks import
// claude-code` into .hooksrc.json with only the runner in .claude/settings.json. Both runs must leave the
// same marks: the same hooks ran, the same call was blocked with the same reason, the same calls ran.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './harness/agents.js';
import { toolResults } from './harness/anthropic.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { cleanUpAfterAll, HOOKS_BIN, hooksRun, makeWorkspace } from './harness/workspace.js';

const mark = (name: string) => `touch "$CLAUDE_PROJECT_DIR/${name}"`;

/** The user's Claude Code hooks, as they would write them. */
const SETTINGS = {
  hooks: {
    PreToolUse: [
      {
        matcher: '^Bash$',
        hooks: [
          { type: 'command', if: 'Bash(rm *)', command: `${mark('rule-hook.marker')}; echo "no rm here" >&2; exit 2` },
          { type: 'command', command: `cat >> "$CLAUDE_PROJECT_DIR/bash-hook.log"`, timeout: 20, statusMessage: 'logging' },
        ],
      },
      { matcher: 'Edit|Write', hooks: [{ type: 'command', command: mark('edit-hook.marker') }] },
      { matcher: 'mcp__memory__.*', hooks: [{ type: 'command', command: mark('mcp-hook.marker') }] },
      { matcher: 'Notebook.*', hooks: [{ type: 'command', command: mark('notebook-hook.marker') }] },
    ],
    SessionStart: [
      { matcher: 'startup', hooks: [{ type: 'command', command: mark('startup.marker') }] },
      { matcher: 'resume|clear', hooks: [{ type: 'command', command: mark('resume.marker') }] },
    ],
  },
};

const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });
const SCRIPT: Step[] = [bash('touch ran1.marker && rm -rf ./victim'), bash('touch ran2.marker'), { text: 'done' }];
const MARKS = ['ran1.marker', 'ran2.marker', 'victim/keep', 'rule-hook.marker', 'bash-hook.log', 'edit-hook.marker', 'mcp-hook.marker', 'notebook-hook.marker', 'startup.marker', 'resume.marker'];

let claude: string;
const servers: ModelServer[] = [];

async function runClaude(label: string, through: 'native' | 'runner') {
  const ws = makeWorkspace(`claude-settings-${label}`);
  ws.write({ 'victim/keep': 'x\n' });
  if (through === 'native') ws.write({ '.claude/settings.json': SETTINGS });
  else {
    writeFileSync(path.join(ws.dir, 'claude-settings.json'), JSON.stringify(SETTINGS, null, 2));
    const env = ws.env();
    const imported = await run(process.execPath, [HOOKS_BIN, 'import', 'claude-code', '--from', 'claude-settings.json'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(imported.code, imported.stderr).toBe(0);
    const trusted = await run(process.execPath, [HOOKS_BIN, 'trust', '--yes'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    const runner = (event: string) => [{ hooks: [{ type: 'command', command: hooksRun(event, 'claude-code'), timeout: 60 }] }];
    ws.write({ '.claude/settings.json': { hooks: { PreToolUse: runner('pre-tool-use'), SessionStart: runner('session-start') } } });
  }
  const model = await startModelServer('anthropic', SCRIPT, ws.root);
  servers.push(model);
  const result = await run(claude, ['-p', 'clean up', '--output-format', 'json', '--allowedTools', 'Bash Write Edit Read'], { cwd: ws.dir, timeoutMs: 90_000, env: ws.env(claudeEnv(model.url)) });
  model.stop();
  expect(result.timedOut, result.stderr).toBe(false);
  const marks = Object.fromEntries(MARKS.map((m) => [m, ws.exists(m)]));
  const turns = model.turns();
  const first = turns[1] === undefined ? [] : toolResults(turns[1]);
  const logged = (ws.read('bash-hook.log') ?? '').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { tool_input: { command: string } }).tool_input.command);
  return { marks, firstResult: first[0], logged, code: result.code, stderr: result.stderr };
}

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

describe('a Claude Code settings file imported into agent-hooks behaves as it did natively (real CLI)', () => {
  it('same hooks run, the same call is blocked with the same reason, the same calls run', async () => {
    const native = await runClaude('native', 'native');
    const through = await runClaude('runner', 'runner');
    expect(native.code, native.stderr).toBe(0);
    expect(through.code, through.stderr).toBe(0);
    // What Claude Code does natively (so the comparison compares something).
    expect(native.marks).toEqual({
      'ran1.marker': false,
      'ran2.marker': true,
      'victim/keep': true,
      'rule-hook.marker': true,
      'bash-hook.log': true,
      'edit-hook.marker': false,
      'mcp-hook.marker': false,
      'notebook-hook.marker': false,
      'startup.marker': true,
      'resume.marker': false,
    });
    expect(through.marks).toEqual(native.marks);
    // The one deliberate difference (docs/claude-settings.md): Claude Code runs the matching hooks side by
    // side, so the logger also saw the call the rule hook blocked; agent-hooks runs them in order and a
    // block ends the chain, so it saw only the call that ran.
    expect(native.logged).toEqual(['touch ran1.marker && rm -rf ./victim', 'touch ran2.marker']);
    expect(through.logged).toEqual(['touch ran2.marker']);
    expect(native.firstResult?.is_error).toBe(true);
    expect(through.firstResult?.is_error).toBe(true);
    expect(native.firstResult?.text).toContain('no rm here');
    expect(through.firstResult?.text).toContain('no rm here');
  });
});
