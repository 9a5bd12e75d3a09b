// `hooks run`: what Claude Code reads for each event, the native answer, exit codes, errors. In-process
// (cliInProcess: the same argv, cwd, env, stdin and exit code) for the answers; the built bin as a real
// process, stdin a real pipe, where the point is what the agent's shell sees: exit 2, 1 and 0, stderr no TTY.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, fixture, isolatedEnv, runCli, sample, tmpProject } from '../helpers.js';

/** A project whose config gives each listed event one reply-fixture hook answering `mode`. */
function project(hooks: Record<string, { mode: string; lang?: 'bash' | 'python' | 'node'; extra?: Record<string, unknown> }[]>) {
  const config = {
    hooks: Object.fromEntries(
      Object.entries(hooks).map(([ev, list]) => [
        ev,
        // python3 unless the language is named: it starts in a seventh of node's CPU, and a test names
        // bash, python or node where the mix is the point.
        list.map((h, i) => ({ id: `${h.mode}-${i}`, command: fixture(h.lang ?? 'python'), env: { MODE: h.mode }, ...h.extra })),
      ]),
    ),
  };
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
  return { dir, env: isolatedEnv(dir) };
}

type Project = { dir: string; env: NodeJS.ProcessEnv };
const withJson = <R extends { stdout: string }>(r: R) => ({ ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) });

/** `hooks run <event> [args]` in-process, the payload on stdin. */
async function run(p: Project, event: string, payload: Record<string, unknown>, args: string[] = []) {
  return withJson(await cliInProcess(['run', event, ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) }));
}

/** The same through the built bin, a real process with the payload on a real stdin pipe. */
function spawnRun(p: Project, event: string, payload: Record<string, unknown>, args: string[] = []) {
  return withJson(runCli(['run', event, ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) }));
}

/** The rules Claude Code applies to a command hook's JSON (agent-hook-protocols.md §1.8). */
function expectClaudeShape(eventName: string, json: Record<string, any> | undefined) {
  if (json === undefined) return;
  const allowed = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput'];
  expect(Object.keys(json).filter((k) => !allowed.includes(k))).toEqual([]);
  // A flat permissionDecision is silently ignored by Claude Code.
  expect(json).not.toHaveProperty('permissionDecision');
  if (json.decision !== undefined) {
    expect(json.decision).toBe('block');
    expect(eventName).not.toBe('PreToolUse');
  }
  if (json.hookSpecificOutput !== undefined) {
    expect(json.hookSpecificOutput.hookEventName).toBe(eventName);
    const specific = Object.keys(json.hookSpecificOutput).filter((k) => k !== 'hookEventName');
    const perEvent: Record<string, string[]> = {
      PreToolUse: ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'],
      PostToolUse: ['additionalContext', 'updatedToolOutput'],
      UserPromptSubmit: ['additionalContext'],
      SessionStart: ['additionalContext'],
      PostToolUseFailure: ['additionalContext'],
    };
    expect(specific.filter((k) => !(perEvent[eventName] ?? []).includes(k))).toEqual([]);
    if (json.hookSpecificOutput.permissionDecision !== undefined) {
      expect(['allow', 'deny', 'ask']).toContain(json.hookSpecificOutput.permissionDecision);
    }
  }
}

describe('hooks run answers exactly what Claude Code reads', () => {
  it('PreToolUse block: exit 2, deny JSON, and the reason on stderr (the built bin)', () => {
    const p = project({ preToolUse: [{ mode: 'block-exit2', lang: 'bash' }] });
    const r = spawnRun(p, 'pre-tool-use', sample('pre-tool-use'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by bash' } });
    expect(r.stderr).toBe('blocked by bash\n');
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse rewrite: exit 0, the whole updatedInput and no permission decision (Claude Code still asks its own)', async () => {
    const p = project({ preToolUse: [{ mode: 'modify-input', lang: 'python' }] });
    const payload = sample('pre-tool-use.ls');
    const r = await run(p, 'PreToolUse', payload);
    expect(r.code).toBe(0);
    const input = payload.tool_input as Record<string, string>;
    expect(r.json?.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      updatedInput: { ...input, command: `${input.command} --by-python` },
    });
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse ask and context', async () => {
    const p = project({ preToolUse: [{ mode: 'context', lang: 'node' }, { mode: 'ask-json' }] });
    const r = await run(p, 'preToolUse', sample('pre-tool-use.ls'));
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'python asks', additionalContext: 'context from node' });
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse halt: continue false together with a deny (Claude Code runs the tool on continue:false alone)', async () => {
    const p = project({ preToolUse: [{ mode: 'halt' }] });
    const r = await run(p, 'pre-tool-use', sample('pre-tool-use.ls'));
    // Exit 0: Claude Code reads continue:false from the JSON and records a stop, not a block.
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      continue: false,
      stopReason: 'python halts',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'python halts' },
    });
  });

  it('PostToolUse block and output rewrite', async () => {
    const blocked = await run(project({ postToolUse: [{ mode: 'block-json' }] }), 'post-tool-use', sample('post-tool-use'));
    expect(blocked.code).toBe(2);
    expect(blocked.json).toEqual({ decision: 'block', reason: 'blocked by python' });
    expectClaudeShape('PostToolUse', blocked.json);

    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { postToolUse: [{ command: `echo '{"decision":"modify","updatedOutput":{"stdout":"[redacted]","stderr":"","interrupted":false,"isImage":false}}'` }] } }),
    });
    const rewritten = await run({ dir, env: isolatedEnv(dir) }, 'post-tool-use', sample('post-tool-use'));
    expect(rewritten.code).toBe(0);
    expect(rewritten.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: '[redacted]', stderr: '', interrupted: false, isImage: false } } });
  });

  it('UserPromptSubmit: block, context, and a prompt rewrite Claude Code cannot take', async () => {
    const blocked = await run(project({ userPromptSubmit: [{ mode: 'block-exit2', lang: 'python' }] }), 'user-prompt-submit', sample('user-prompt-submit'));
    expect(blocked.code).toBe(2);
    expect(blocked.json).toEqual({ decision: 'block', reason: 'blocked by python' });

    const context = await run(project({ userPromptSubmit: [{ mode: 'plain-stdout', lang: 'bash' }] }), 'user-prompt-submit', sample('user-prompt-submit'));
    expect(context.code).toBe(0);
    expect(context.json).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'plain text from bash' } });
    expectClaudeShape('UserPromptSubmit', context.json);

    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { userPromptSubmit: [{ command: `echo '{"decision":"modify","prompt":"[redacted]"}'` }] } }) });
    const rewrite = await run({ dir, env: isolatedEnv(dir) }, 'user-prompt-submit', sample('user-prompt-submit'));
    expect(rewrite.code).toBe(2);
    expect(rewrite.json?.decision).toBe('block');
    expect(rewrite.json?.reason).toContain('Claude Code cannot take a rewritten prompt');
    expectClaudeShape('UserPromptSubmit', rewrite.json);
  });

  it('Stop and SubagentStop block: the reason is the next instruction', async () => {
    for (const [ev, file, claude] of [['stop', 'stop', 'Stop'], ['subagent-stop', 'subagent-stop', 'SubagentStop']] as const) {
      const r = await run(project({ [ev]: [{ mode: 'claude-block' }] }), ev, sample(file));
      expect(r.code).toBe(2);
      expect(r.json).toEqual({ decision: 'block', reason: 'python blocks' });
      expect(r.stderr).toBe('python blocks\n');
      expectClaudeShape(claude, r.json);
    }
  });

  it('PreCompact block', async () => {
    const r = await run(project({ preCompact: [{ mode: 'block-exit2', lang: 'bash' }] }), 'pre-compact', sample('pre-compact'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ decision: 'block', reason: 'blocked by bash' });
  });

  it('SessionStart context, and SessionEnd / Notification answer nothing', async () => {
    const start = await run(project({ sessionStart: [{ mode: 'context', lang: 'python' }] }), 'session-start', sample('session-start'));
    expect(start.code).toBe(0);
    expect(start.json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'context from python' } });
    expectClaudeShape('SessionStart', start.json);

    for (const [ev, file] of [['session-end', 'session-end'], ['notification', 'notification']] as const) {
      const r = await run(project({ [ev]: [{ mode: 'continue' }] }), ev, sample(file));
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('PostToolUseFailure context', async () => {
    const r = await run(project({ postToolUseFailure: [{ mode: 'context' }] }), 'post-tool-use-failure', sample('post-tool-use-failure'));
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'context from python' } });
  });

  it('a failure that continues is still reported: systemMessage for the user, a line on stderr', async () => {
    const r = await run(project({ preToolUse: [{ mode: 'exit1', lang: 'bash' }] }), 'pre-tool-use', sample('pre-tool-use.ls'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ systemMessage: 'agent-hooks: hook "exit1-0" failed (exit-1: exited with 1: bash broke); continuing' });
    expect(r.stderr).toBe('agent-hooks: hook "exit1-0" failed (exit-1: exited with 1: bash broke); continuing\n');
  });

  it('nothing to say: empty stdout, exit 0 (the built bin)', () => {
    const r = spawnRun(project({ preToolUse: [{ mode: 'continue' }] }), 'pre-tool-use', sample('pre-tool-use.ls'));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('the event name may come from the payload alone', async () => {
    const r = await run(project({ preToolUse: [{ mode: 'block-exit2', lang: 'bash' }] }), '--dialect=claude-code', sample('pre-tool-use'));
    expect(r.code).toBe(2);
  });
});

describe('the native dialect', () => {
  it('answers the decision with the trace of every hook; exit 2 blocks', async () => {
    const p = project({ preToolUse: [{ mode: 'modify-input', lang: 'bash' }, { mode: 'exit1', lang: 'python' }, { mode: 'block-json', lang: 'node' }] });
    const r = await run(p, 'pre-tool-use', sample('pre-tool-use.ls'), ['--dialect', 'native']);
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({
      decision: 'block',
      reason: 'blocked by node',
      hooks: [
        { id: 'modify-input-0', outcome: 'modify' },
        { id: 'exit1-1', outcome: 'continue', failure: { kind: 'exit-1' } },
        { id: 'block-json-2', outcome: 'block' },
      ],
    });
    expect(typeof r.json?.hooks[0].ms).toBe('number');
  });

  it('is detected for a payload without hook_event_name', async () => {
    const p = project({ preToolUse: [{ mode: 'continue' }] });
    const r = await run(p, 'pre-tool-use', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ decision: 'allow', hooks: [{ id: 'continue-0', outcome: 'continue', ms: expect.any(Number) }] });
  });
});

describe('runner errors are loud, one line, and exit 1 (or block when asked)', () => {
  // The user's own layer: a mistake there is the runner's error (a broken project file only switches itself off).
  const badConfig = () => {
    const dir = tmpProject({ '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'true' }, { command: 'true', timeout: 'soon' }] } }) });
    return { dir, env: isolatedEnv(dir) };
  };

  it('a bad config names the file and the key path (the built bin: exit 1)', () => {
    const p = badConfig();
    const r = spawnRun(p, 'pre-tool-use', sample('pre-tool-use'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`agent-hooks: ${path.join(p.dir, '.config/agent-hooks/config.json')}: hooks.preToolUse[1].timeout: expected number, received string\n`);
  });

  it('--on-error block and HOOKS_ON_ERROR=block turn a runner error into a block', async () => {
    const p = badConfig();
    expect((await run(p, 'pre-tool-use', sample('pre-tool-use'), ['--on-error', 'block'])).code).toBe(2);
    expect((await run({ ...p, env: { ...p.env, HOOKS_ON_ERROR: 'block' } }, 'pre-tool-use', sample('pre-tool-use'))).code).toBe(2);
  });

  it.each([
    ['not json', 'stdin: expected one JSON event, got not JSON'],
    // V8 quotes the text in its message: a newline in it must not split the error.
    ['not json\nsecond line\r\n', 'stdin: expected one JSON event, got not JSON'],
    ['', 'stdin: expected one JSON event, got empty'],
    ['[1]', 'stdin: the event must be a JSON object'],
    [JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' }), 'stdin: hook_event_name is "PostToolUse" but the command line says "pre-tool-use"'],
    [JSON.stringify({ hook_event_name: 'PreToolUse' }), 'stdin: PreToolUse needs a "tool_name"'],
  ])('a bad event %j', async (input, message) => {
    const p = project({});
    const r = await cliInProcess(['run', 'pre-tool-use'], { cwd: p.dir, env: p.env, input });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`agent-hooks: ${message}`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['run', 'pre-tool-uze'], 'event: unknown event "pre-tool-uze" (did you mean "pre-tool-use"?)'],
    [['run', 'stop', '--verbos'], 'unknown option --verbos (did you mean "--verbose"?)'],
    [['runn'], 'unknown command "runn" (did you mean "run"?)'],
    [['run', 'stop', '--dialect', 'claude'], 'unknown dialect "claude"'],
  ])('usage error %j', async (args, message) => {
    const p = project({});
    const r = await cliInProcess(args, { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'Stop' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
  });

  it('HOOKS_DISABLE=1 runs nothing and says so', async () => {
    const p = project({ preToolUse: [{ mode: 'block-exit2' }] });
    const r = await run({ ...p, env: { ...p.env, HOOKS_DISABLE: '1' } }, 'pre-tool-use', sample('pre-tool-use'));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe('agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n');
  });
});

describe('--verbose', () => {
  it('prints one line per hook (id, outcome, ms, where it came from) and the skipped ones (the built bin: stderr not a TTY)', () => {
    const p = project({ preToolUse: [{ mode: 'context' }, { mode: 'continue', extra: { match: 'write' } }, { mode: 'block-exit2', lang: 'bash' }] });
    const r = spawnRun(p, 'pre-tool-use', sample('pre-tool-use.ls'), ['--verbose']);
    const lines = r.stderr.trim().split('\n');
    // First each layer and its trust state.
    expect(lines.shift()).toBe(`hooks: project layer ${path.join(p.dir, '.hooksrc.json')}: trusted`);
    expect(lines[0]).toMatch(/^hooks: context-0 continue \d+ms project hooks\.preToolUse\[0\]$/);
    expect(lines[1]).toMatch(/^hooks: block-exit2-2 block \d+ms project hooks\.preToolUse\[2\] — blocked by bash$/);
    expect(lines[2]).toBe('hooks: continue-1 skipped — match: tool exec (Bash) is not write');
    expect(lines[3]).toBe('hooks: preToolUse → block (blocked by bash)');
    // No colours when stderr is not a TTY.
    expect(r.stderr).not.toContain('\u001b[');
  });
});

describe('the hook sees the same event as the runner', () => {
  it('stdin carries the Claude Code payload, hook_event_name included', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: `python3 -c "import json,sys; e=json.load(sys.stdin); print(json.dumps({'additionalContext': ' '.join([e['hook_event_name'], e['tool_name'], e['tool_input']['command'], e['session_id']])}))"` }] } }),
    });
    const r = await run({ dir, env: isolatedEnv(dir) }, 'pre-tool-use', { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' });
    expect(r.json?.additionalContext).toBe('PreToolUse Bash ls s1');
  });
});
