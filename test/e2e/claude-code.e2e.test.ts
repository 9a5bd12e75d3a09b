// Claude Code for real: the pinned CLI in -p mode against a fake Anthropic Messages server, with
// `hooks run <event> --dialect claude-code` as the hook command of six events. Each test proves
// one effect by what happened on disk and what the model was sent next.
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv, hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { everything, toolResults, userTexts } from './harness/anthropic.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run, waitFor, type RunResult } from './harness/process.js';
import { REDACTED, TOKEN } from './harness/fixtures.js';
import { cleanUpAfterAll, hooksRun, makeWorkspace, type Workspace } from './harness/workspace.js';

const EVENTS = {
  PreToolUse: 'pre-tool-use',
  PostToolUse: 'post-tool-use',
  UserPromptSubmit: 'user-prompt-submit',
  Stop: 'stop',
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  PermissionRequest: 'permission-request',
} as const;

/** .claude/settings.json: every event's one hook command is the runner. */
function claudeSettings(): object {
  return {
    hooks: Object.fromEntries(Object.entries(EVENTS).map(([claude, cli]) => [claude, [{ hooks: [{ type: 'command', command: hooksRun(cli, 'claude-code'), timeout: 30 }] }]])),
  };
}

const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });

interface ClaudeRun {
  ws: Workspace;
  model: ModelServer;
  result: RunResult;
  /** Claude's --output-format json result, when it printed one. */
  json: Record<string, unknown> | undefined;
}

let claude: string;
const servers: ModelServer[] = [];

async function runClaude(label: string, options: { script: Step[]; hooks?: Record<string, object[]>; files?: Record<string, string>; prompt?: string; allowedTools?: string; untrusted?: boolean; outputFormat?: string }): Promise<ClaudeRun> {
  const ws = makeWorkspace(`claude-${label}`);
  ws.write({ '.claude/settings.json': claudeSettings(), '.hooksrc.json': hooksConfig(options.hooks), ...options.files }, { trust: options.untrusted !== true });
  const model = await startModelServer('anthropic', options.script, ws.root);
  servers.push(model);
  const format = options.outputFormat === undefined ? ['--output-format', 'json'] : ['--output-format', options.outputFormat, '--verbose'];
  const result = await run(claude, ['-p', options.prompt ?? 'clean up the workspace', ...format, '--allowedTools', options.allowedTools ?? 'Bash Write Edit Read'], {
    cwd: ws.dir,
    timeoutMs: 90_000,
    env: ws.env(claudeEnv(model.url)),
  });
  model.stop();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  expect(result.timedOut, `claude timed out\n${result.stderr}`).toBe(false);
  return { ws, model, result, json };
}

function describeRun(r: ClaudeRun): string {
  return `exit ${r.result.code}\nstdout: ${r.result.stdout.slice(0, 2000)}\nstderr: ${r.result.stderr.slice(0, 2000)}\nturns: ${r.model.turns().length}`;
}

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

describe('Claude Code (real CLI, --dialect claude-code)', () => {
  it('blocks a dangerous Bash call: the command never runs and the reason reaches the model', async () => {
    // The marker is written by the same command line: if any part of it ran, the file exists.
    const r = await runClaude('block', { script: [bash('touch ran.marker && rm -rf --preserve-root /')] });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.exists('ran.marker')).toBe(false);

    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBeGreaterThanOrEqual(2);
    const results = toolResults(turns[1]!);
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBe(true);
    expect(results[0]!.text).toContain('command-safety: filesystem-destruction: recursive delete of / (the root directory)');
    // Claude also reports it as a permission denial in its own result.
    expect(JSON.stringify(r.json?.permission_denials)).toContain('rm -rf --preserve-root /');
  });

  // A pure rewrite is answered with updatedInput alone (no permissionDecision): Claude Code applies it
  // and then runs its own permission check on the rewritten call. Bash is allowed here, so it runs.
  it('a rewrite (updatedInput alone) changes the command that actually runs', async () => {
    const r = await runClaude('rewrite', {
      script: [bash('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.read('out.txt')).toBe('rewritten\n');
    const turns = r.model.turns();
    expect(turns.length).toBeGreaterThanOrEqual(2);
    const results = toolResults(turns[1]!);
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBeFalsy();
  });

  it('a rewrite does not approve the call: without permission for Bash, the rewritten call is still refused', async () => {
    // -p mode cannot ask, so a call that needs permission is denied. Before, the rewrite was sent
    // with permissionDecision "allow", which skipped this check and ran the command.
    const r = await runClaude('rewrite-no-permission', {
      script: [bash('echo original > out.txt')],
      hooks: { preToolUse: [REWRITE_HOOK.entry] },
      files: REWRITE_HOOK.files,
      allowedTools: 'Read',
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.exists('out.txt'), describeRun(r)).toBe(false);
    // What Claude refused is the rewritten call: the rewrite was applied, then the permission checked.
    expect(r.json?.permission_denials, describeRun(r)).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: expect.objectContaining({ command: 'echo rewritten > out.txt' }) })]);
    const results = toolResults(r.model.turns()[1]!);
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBe(true);
  });

  it('a hook that explicitly allows and rewrites still approves the rewritten call', async () => {
    const r = await runClaude('rewrite-allow', {
      script: [bash('echo original > out.txt')],
      hooks: {
        preToolUse: [
          REWRITE_HOOK.entry,
          { id: 'approve-echo', command: `cat >/dev/null; echo '{"decision":"allow","reason":"echo is fine"}'`, match: 'exec' },
        ],
      },
      files: REWRITE_HOOK.files,
      allowedTools: 'Read',
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.read('out.txt'), describeRun(r)).toBe('rewritten\n');
    expect(r.json?.permission_denials).toEqual([]);
  });

  it('a PostToolUse block: the tool has run, and the reason reaches the model', async () => {
    const reason = 'post-check: this output must not be used (POST-BLOCK-7731)';
    const r = await runClaude('post-block', {
      script: [bash('echo hello > post.txt')],
      hooks: { postToolUse: [{ id: 'post-block', command: `cat >/dev/null; echo '${reason}' >&2; exit 2`, match: 'exec' }] },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.read('post.txt')).toBe('hello\n'); // PostToolUse cannot undo the tool
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBeGreaterThanOrEqual(2);
    expect(everything(turns[0]!)).not.toContain('POST-BLOCK-7731');
    expect(everything(turns[1]!)).toContain(reason);
  });

  it('redact-secrets rewrites the Bash output the model receives (updatedToolOutput)', async () => {
    const r = await runClaude('redact', { script: [bash(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`)] });
    expect(r.result.code, describeRun(r)).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBeGreaterThanOrEqual(2);
    const results = toolResults(turns[1]!);
    expect(results).toHaveLength(1);
    // Claude Code 2.1.328 does apply updatedToolOutput to Bash: the model gets the redacted text.
    // (The token is still in the model's own tool_use input, which the model wrote itself.)
    expect(results[0]!.text).not.toContain(TOKEN);
    expect(results[0]!.text).toContain(REDACTED);
    expect(results[0]!.text).toContain('OUTPUT-MARKER-3141');
    expect(results[0]!.is_error).toBeFalsy();
  });

  it('a UserPromptSubmit block stops the prompt: the model never sees it', async () => {
    const r = await runClaude('prompt-block', {
      script: [{ text: 'I should never be asked.' }],
      prompt: 'please deploy PROMPT-SECRET-5150 to production',
      hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
    });
    const sent = r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150'));
    expect(sent, describeRun(r)).toEqual([]);
    expect(r.model.turns()).toEqual([]);
    expect(r.result.stdout + r.result.stderr).toContain('deploys are not done by the agent');
  });

  it('a Stop block makes Claude go on, with the reason as its next instruction', async () => {
    const r = await runClaude('stop-block', {
      script: [{ text: 'All finished.' }, { text: 'Tests run, now finished.' }],
      hooks: { stop: [{ id: 'stop-guard', command: 'node hooks/stop-guard.mjs' }] },
      files: {
        'hooks/stop-guard.mjs': `import { appendFileSync, readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync('stop-calls.jsonl', JSON.stringify(event) + '\\n');
if (!event.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'Run the tests before you stop (STOP-GUARD-4242)' }));
`,
      },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBe(2);
    expect(everything(turns[0]!)).not.toContain('STOP-GUARD-4242');
    expect(userTexts(turns[1]!).join('\n')).toContain('Run the tests before you stop (STOP-GUARD-4242)');
    const calls = (r.ws.read('stop-calls.jsonl') ?? '').trim().split('\n').map((l) => JSON.parse(l) as { stop_hook_active?: boolean });
    expect(calls.map((c) => c.stop_hook_active ?? false)).toEqual([false, true]);
    expect(r.json?.result).toBe('Tests run, now finished.');
  });

  it('Stop additionalContext keeps the turn going, and two Stop hooks both reach the model', async () => {
    const r = await runClaude('stop-context', {
      script: [{ text: 'All finished.' }, { text: 'Linted and documented.' }],
      hooks: {
        stop: [
          { id: 'stop-context', command: 'node hooks/stop-context.mjs' },
          { id: 'stop-docs', command: 'node hooks/stop-docs.mjs' },
        ],
      },
      files: {
        'hooks/stop-context.mjs': `import { readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
if (!event.stop_hook_active) console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'Also run the linter (STOP-CTX-5151)' } }));
`,
        'hooks/stop-docs.mjs': `import { readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
if (!event.stop_hook_active) console.log(JSON.stringify({ decision: 'block', reason: 'Update the docs (STOP-DOCS-5252)' }));
`,
      },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBe(2);
    const sent = everything(turns[1]!);
    expect(sent).toContain('STOP-CTX-5151');
    expect(sent).toContain('STOP-DOCS-5252');
  });

  it('Stop additionalContext alone keeps the turn going (no block)', async () => {
    const r = await runClaude('stop-context-only', {
      script: [{ text: 'All finished.' }, { text: 'Linted.' }],
      hooks: { stop: [{ id: 'stop-context', command: 'node hooks/stop-context.mjs' }] },
      files: {
        'hooks/stop-context.mjs': `import { readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
if (!event.stop_hook_active) console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'Also run the linter (STOP-CTX-6161)' } }));
`,
      },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBe(2);
    expect(everything(turns[1]!)).toContain('STOP-CTX-6161');
  });

  it('a Stop halt (continue: false) stops Claude: it does not go on for another turn', async () => {
    // A halt on Stop is answered exit 0 + JSON. Exit 2 on Stop means "go on" to an agent that reads only
    // stderr on exit 2 (seen with 2.1.328: a Stop hook exiting 2 with stderr alone made Claude go on for
    // 8 more turns). 2.1.328 also reads the JSON on exit 2, so this passes with either; it guards exit 0.
    const r = await runClaude('stop-halt', {
      script: [{ text: 'All finished.' }, { text: 'I went on (STOP-HALT-IGNORED-6061).' }],
      hooks: { stop: [{ id: 'stop-halt', command: `cat >/dev/null; echo '{"continue": false, "stopReason": "budget spent (STOP-HALT-8080)"}'` }] },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.model.turns().length, describeRun(r)).toBe(1);
    expect(r.result.stdout).not.toContain('STOP-HALT-IGNORED-6061');
  });

  // A halt is answered on exit 0 (continue:false + a deny in the JSON): Claude Code reads it as a stop,
  // and the deny keeps the tool from running (continue:false alone would let it run first).
  it('a PreToolUse halt: the command never runs and Claude stops, on exit 0', async () => {
    const r = await runClaude('pre-halt', {
      script: [bash('touch halted.marker'), { text: 'I went on (PRE-HALT-IGNORED-7071).' }],
      hooks: { preToolUse: [{ id: 'pre-halt', command: `cat >/dev/null; echo '{"continue": false, "stopReason": "maintenance window (PRE-HALT-9090)"}'` }] },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.exists('halted.marker')).toBe(false);
    expect(r.model.turns().length, describeRun(r)).toBe(1);
    expect(r.result.stdout).not.toContain('PRE-HALT-IGNORED-7071');
  });

  // Bash is not allowed here: without the hook, -p mode refuses the call.
  it('a PermissionRequest allow lets a call run that the settings do not allow', async () => {
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
    const r = await runClaude('permission-allow', {
      script: [bash('touch allowed.marker'), { text: 'Done.' }],
      allowedTools: 'Write Edit Read',
      hooks: { permissionRequest: [{ id: 'allow-touch', command: `cat >/dev/null; echo '${JSON.stringify(allow)}'` }] },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.exists('allowed.marker'), describeRun(r)).toBe(true);
  });

  it('without a PermissionRequest hook the same call is refused (the control)', async () => {
    const r = await runClaude('permission-none', { script: [bash('touch allowed.marker'), { text: 'Done.' }], allowedTools: 'Write Edit Read' });
    expect(r.ws.exists('allowed.marker'), describeRun(r)).toBe(false);
  });

  it('SessionStart context reaches the model, and SessionEnd fires', async () => {
    const r = await runClaude('session', {
      script: [{ text: 'Hello.' }],
      hooks: {
        sessionStart: [{ id: 'session-note', command: `echo 'Project note: deploys go through make ship (SESSION-CONTEXT-9917)'` }],
        sessionEnd: [{ id: 'session-end-marker', command: `cat > session-end.json` }],
      },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, describeRun(r)).toBeGreaterThanOrEqual(1);
    // Claude Code puts it at the head of the system context: "SessionStart hook additional context: ...".
    expect(everything(turns[0]!)).toContain('SessionStart hook additional context: Project note: deploys go through make ship (SESSION-CONTEXT-9917)');
    const end = await waitFor(() => r.ws.read('session-end.json') || undefined, { timeoutMs: 10_000, what: 'the SessionEnd marker' });
    const payload = JSON.parse(end) as { hook_event_name: string; reason: string };
    expect(payload.hook_event_name).toBe('SessionEnd');
    expect(typeof payload.reason).toBe('string');
  });

  it("an untrusted repository's hooks do not run, and the user is told why (systemMessage)", async () => {
    const r = await runClaude('untrusted', {
      script: [bash('echo hi > hi.txt')],
      untrusted: true,
      outputFormat: 'stream-json',
      hooks: {
        sessionStart: [{ id: 'pwn', command: 'echo PWNED > pwned.marker' }],
        preToolUse: [{ id: 'pre', command: 'touch pre.marker' }],
      },
    });
    expect(r.result.code, describeRun(r)).toBe(0);
    expect(r.ws.exists('pwned.marker'), describeRun(r)).toBe(false);
    expect(r.ws.exists('pre.marker'), describeRun(r)).toBe(false);
    // Untrusted is not a block: the tool call goes through.
    expect(r.ws.read('hi.txt')).toBe('hi\n');
    // What the user sees: Claude Code's hook output carries the systemMessage naming the file and the fix.
    const shown = r.result.stdout + r.result.stderr;
    expect(shown, describeRun(r)).toContain('.hooksrc.json is not trusted, so its hooks do not run');
    expect(shown).toContain('npx agent-hooks trust');
  });
});
