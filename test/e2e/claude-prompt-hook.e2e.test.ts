// A Claude Code `prompt` hook, run by the real Claude Code 2.1.332 twice against the same fake model
// server: natively (the hook in .claude/settings.json, judged by Claude Code itself), and imported with
// `hooks import claude-code` into .hooksrc.json with only the runner in .claude/settings.json (judged by
// agent-hooks). The judge denies any command holding "rm -rf" and allows the rest: both runs must make
// the same calls, leave the same files, and ask the judge the same number of times with the same event.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { cleanUpAfterAll, HOOKS_BIN, hooksRun, makeWorkspace } from './harness/workspace.js';

const PROMPT = 'Block any command that deletes files. The call: $ARGUMENTS';
const settingsWith = (extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: PROMPT, ...extra }] }] } });
const SETTINGS = settingsWith();
const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });
const SCRIPT: Step[] = [bash('touch ran1.marker'), bash('rm -rf ./victim'), bash('touch ran2.marker'), { text: 'done' }];
const MARKS = ['ran1.marker', 'victim/keep', 'ran2.marker'];

let claude: string;
const servers: ModelServer[] = [];

async function runClaude(through: 'native' | 'runner', settings: typeof SETTINGS | typeof STOP_SETTINGS = SETTINGS, script: Step[] = SCRIPT) {
  const SETTINGS = settings;
  const SCRIPT = script;
  const event = 'Stop' in settings.hooks ? 'stop' : 'pre-tool-use';
  const ws = makeWorkspace(`claude-prompt-${event}-${through}`);
  ws.write({ 'victim/keep': 'x\n' });
  if (through === 'native') ws.write({ '.claude/settings.json': SETTINGS });
  else {
    writeFileSync(path.join(ws.dir, 'claude-settings.json'), JSON.stringify(SETTINGS, null, 2));
    const env = ws.env();
    const imported = await run(process.execPath, [HOOKS_BIN, 'import', 'claude-code', '--from', 'claude-settings.json'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).not.toMatch(/not imported/);
    const trusted = await run(process.execPath, [HOOKS_BIN, 'trust', '--yes'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    const key = event === 'stop' ? 'Stop' : 'PreToolUse';
    ws.write({ '.claude/settings.json': { hooks: { [key]: [{ hooks: [{ type: 'command', command: hooksRun(event, 'claude-code'), timeout: 60 }] }] } } });
  }
  const model = await startModelServer('anthropic', SCRIPT, ws.root, { judgeDeny: 'rm -rf' });
  servers.push(model);
  const result = await run(claude, ['-p', 'tidy up', '--output-format', 'json', '--allowedTools', 'Bash'], { cwd: ws.dir, timeoutMs: 90_000, env: ws.env(claudeEnv(model.url)) });
  model.stop();
  expect(result.timedOut, result.stderr).toBe(false);
  const judged = model.requests().filter((r) => r.kind === 'judge');
  return {
    marks: Object.fromEntries(MARKS.map((m) => [m, ws.exists(m)])),
    turns: model.turns().length,
    verdicts: judged.map((r) => (r.step as { text: string }).text),
    // The command each judge request was about, read from the event JSON in its prompt.
    judgedCommands: judged.map((r) => /\\"command\\":\\"(.*?)\\"/.exec(JSON.stringify(r.body.messages))?.[1] ?? ''),
    stdout: result.stdout,
    judged,
    // What the model was told of each refused call: the tool results it got back, as text.
    toolResults: model.turns().flatMap((t) => toolResults(t.body.messages)),
  };
}

/** The text of every tool_result of the last user message of a turn's request. */
function toolResults(messages: unknown): string[] {
  const last = Array.isArray(messages) ? (messages.at(-1) as { role?: string; content?: unknown }) : undefined;
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  return (last.content as { type?: string; content?: unknown }[]).filter((b) => b.type === 'tool_result').map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)));
}

/** A Stop judge (allowing: its messages hold no "rm -rf"), asked whether the marker was made. */
const STOP_SETTINGS = { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'The assistant created ran1.marker.' }] }] } };

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

describe('a Claude Code prompt hook, natively and through agent-hooks (real CLI, same fake judge)', () => {
  it('the same calls are judged, the same one is denied, the same files are left', async () => {
    const native = await runClaude('native');
    const runner = await runClaude('runner');
    // Claude Code's own prompt hook: the touch is allowed, the rm denied, and ok:false ends the turn
    // (its preventContinuation), so the third call is never made.
    expect(native.judgedCommands, native.stdout).toEqual(['touch ran1.marker', 'rm -rf ./victim']);
    expect(native.verdicts.map((v) => (JSON.parse(v) as { ok: boolean }).ok)).toEqual([true, false]);
    expect(native.marks).toEqual({ 'ran1.marker': true, 'victim/keep': true, 'ran2.marker': false });
    expect(native.turns).toBe(2);
    expect(runner.marks).toEqual(native.marks);
    expect(runner.verdicts).toEqual(native.verdicts);
    expect(runner.judgedCommands).toEqual(native.judgedCommands);
    expect(runner.turns).toBe(native.turns);
  });
});

describe('a Claude Code Stop prompt hook, natively and through agent-hooks: the judge reads the transcript', () => {
  it('both ask once, with the Stop system prompt, the conversation (the touch) first, then the stop-condition question', async () => {
    const script: Step[] = [bash('touch ran1.marker'), { text: 'done' }];
    const shape = (r: Awaited<ReturnType<typeof runClaude>>) =>
      r.judged.map((j) => {
        const messages = j.body.messages as { role: string; content: unknown }[];
        const last = JSON.stringify(messages.at(-1)?.content);
        return {
          system: /You are evaluating a stop-condition hook in Claude Code/.test(JSON.stringify(j.body.system)),
          transcriptFirst: messages.length > 1 && JSON.stringify(messages.slice(0, -1)).includes('touch ran1.marker'),
          question: last.includes('Based on the conversation transcript above, has the following stopping condition been satisfied?') && last.includes('Condition: The assistant created ran1.marker.'),
        };
      });
    const native = await runClaude('native', STOP_SETTINGS, script);
    const runner = await runClaude('runner', STOP_SETTINGS, script);
    expect(shape(native), native.stdout).toEqual([{ system: true, transcriptFirst: true, question: true }]);
    expect(shape(runner), runner.stdout).toEqual(shape(native));
    expect(runner.marks).toEqual(native.marks);
  });
});

describe('the block reason of a prompt hook (continueOnBlock: the model reads it)', () => {
  it('is "[<prompt>]: <reason>" natively, and the same through agent-hooks', async () => {
    const settings = settingsWith({ continueOnBlock: true });
    const native = await runClaude('native', settings);
    const runner = await runClaude('runner', settings);
    // The rm is refused without ending the turn: the model is told why, and goes on to the third call.
    const refused = native.toolResults.filter((t) => t.includes(`[${PROMPT}]: `));
    expect(refused, JSON.stringify(native.toolResults)).toHaveLength(1);
    expect(native.marks).toEqual({ 'ran1.marker': true, 'victim/keep': true, 'ran2.marker': true });
    expect(runner.marks).toEqual(native.marks);
    expect(runner.toolResults.filter((t) => t.includes(`[${PROMPT}]: `)), JSON.stringify(runner.toolResults)).toEqual(refused);
  });
});
