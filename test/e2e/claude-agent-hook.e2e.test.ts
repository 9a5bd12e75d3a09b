// A Claude Code `agent` hook, run by the real Claude Code 2.1.332 twice against the same fake model server:
// natively (the hook in .claude/settings.json, its verifier run by Claude Code), and imported with
// `hooks import claude-code` (the verifier run by agent-hooks' own loop). The scripted verifier reads the
// project's POLICY.md with its Read tool, then denies any command holding "rm -rf" only if the file's text
// came back, so a verdict that did not rest on the tool call cannot match. Both runs must make the same
// calls, leave the same files, and run the verifier on the same commands.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { cleanUpAfterAll, HOOKS_BIN, hooksRun, makeWorkspace } from './harness/workspace.js';

const SETTINGS = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Read POLICY.md and block the command if the policy forbids it. The call: $ARGUMENTS' }] }] } };
const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });
const SCRIPT: Step[] = [bash('touch ran1.marker'), bash('rm -rf ./victim'), bash('touch ran2.marker'), { text: 'done' }];
const MARKS = ['ran1.marker', 'victim/keep', 'ran2.marker'];

let claude: string;
const servers: ModelServer[] = [];

async function runClaude(through: 'native' | 'runner') {
  const ws = makeWorkspace(`claude-agent-${through}`);
  ws.write({ 'victim/keep': 'x\n', 'POLICY.md': 'POLICY: no deleting folders (rm -rf) in this project.\n' });
  if (through === 'native') ws.write({ '.claude/settings.json': SETTINGS });
  else {
    writeFileSync(path.join(ws.dir, 'claude-settings.json'), JSON.stringify(SETTINGS, null, 2));
    const env = ws.env();
    const imported = await run(process.execPath, [HOOKS_BIN, 'import', 'claude-code', '--from', 'claude-settings.json'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).not.toMatch(/not imported/);
    const trusted = await run(process.execPath, [HOOKS_BIN, 'trust', '--yes'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    ws.write({ '.claude/settings.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: hooksRun('pre-tool-use', 'claude-code'), timeout: 90 }] }] } } });
  }
  const model = await startModelServer('anthropic', SCRIPT, ws.root, { agentDeny: 'rm -rf', agentRead: path.join(ws.dir, 'POLICY.md') });
  servers.push(model);
  const result = await run(claude, ['-p', 'tidy up', '--output-format', 'json', '--allowedTools', 'Bash'], { cwd: ws.dir, timeoutMs: 150_000, env: ws.env(claudeEnv(model.url)) });
  model.stop();
  expect(result.timedOut, result.stderr).toBe(false);
  const verified = model.requests().filter((r) => r.kind === 'verify');
  const answers = verified.map((r) => r.step as { tool: { name: string; input: { ok?: boolean } } }).filter((s) => s.tool.name === 'StructuredOutput');
  return {
    marks: Object.fromEntries(MARKS.map((m) => [m, ws.exists(m)])),
    turns: model.turns().length,
    verdicts: answers.map((s) => s.tool.input.ok),
    reads: verified.length - answers.length,
    // The command each verifier run was about, read from the event JSON in its first message.
    verifiedCommands: verified.filter((r) => (r.step as { tool: { name: string } }).tool.name === 'Read').map((r) => /\\"command\\":\\"(.*?)\\"/.exec(JSON.stringify(r.body.messages))?.[1] ?? ''),
    stdout: result.stdout,
  };
}

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

describe('a Claude Code agent hook, natively and through agent-hooks (real CLI, same scripted verifier)', () => {
  it('the same calls are verified with a Read of the policy, the same one is denied, the same files are left', async () => {
    const native = await runClaude('native');
    const runner = await runClaude('runner');
    // Claude Code's agent hook blocks without ending the turn: the rm is denied and the next call runs.
    expect(native.verifiedCommands, native.stdout).toEqual(['touch ran1.marker', 'rm -rf ./victim', 'touch ran2.marker']);
    expect(native.verdicts).toEqual([true, false, true]);
    expect(native.marks).toEqual({ 'ran1.marker': true, 'victim/keep': true, 'ran2.marker': true });
    expect(runner.marks).toEqual(native.marks);
    expect(runner.verdicts).toEqual(native.verdicts);
    expect(runner.verifiedCommands).toEqual(native.verifiedCommands);
    expect(runner.reads).toBe(native.reads);
    expect(runner.turns).toBe(native.turns);
  });
});
