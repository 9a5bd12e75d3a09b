// `hooks run` as a real process: what Claude Code reads for each event, the native answer, exit codes, errors.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, isolatedEnv, runCli, sample, tmpProject } from '../helpers.js';

const REPLY = fixture('node');

/** A project whose config gives each listed event one reply-fixture hook answering `mode`. */
function project(hooks: Record<string, { mode: string; lang?: 'bash' | 'python' | 'node'; extra?: Record<string, unknown> }[]>) {
  const config = {
    hooks: Object.fromEntries(
      Object.entries(hooks).map(([ev, list]) => [
        ev,
        list.map((h, i) => ({ id: `${h.mode}-${i}`, command: fixture(h.lang ?? 'node'), env: { MODE: h.mode }, ...h.extra })),
      ]),
    ),
  };
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
  return { dir, env: isolatedEnv(dir) };
}

function run(p: { dir: string; env: NodeJS.ProcessEnv }, event: string, payload: Record<string, unknown>, args: string[] = []) {
  const r = runCli(['run', event, ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
  return { ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) };
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
  it('PreToolUse block: exit 2, deny JSON, and the reason on stderr', () => {
    const p = project({ preToolUse: [{ mode: 'block-exit2', lang: 'bash' }] });
    const r = run(p, 'pre-tool-use', sample('pre-tool-use'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'blocked by bash' } });
    expect(r.stderr).toBe('blocked by bash\n');
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse rewrite: exit 0, the whole updatedInput and no permission decision (Claude Code still asks its own)', () => {
    const p = project({ preToolUse: [{ mode: 'modify-input', lang: 'python' }] });
    const payload = sample('pre-tool-use.ls');
    const r = run(p, 'PreToolUse', payload);
    expect(r.code).toBe(0);
    const input = payload.tool_input as Record<string, string>;
    expect(r.json?.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      updatedInput: { ...input, command: `${input.command} --by-python` },
    });
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse ask and context', () => {
    const p = project({ preToolUse: [{ mode: 'context' }, { mode: 'ask-json' }] });
    const r = run(p, 'preToolUse', sample('pre-tool-use.ls'));
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'node asks', additionalContext: 'context from node' });
    expectClaudeShape('PreToolUse', r.json);
  });

  it('PreToolUse halt: continue false together with a deny (Claude Code runs the tool on continue:false alone)', () => {
    const p = project({ preToolUse: [{ mode: 'halt' }] });
    const r = run(p, 'pre-tool-use', sample('pre-tool-use.ls'));
    // Exit 0: Claude Code reads continue:false from the JSON and records a stop, not a block.
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      continue: false,
      stopReason: 'node halts',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'node halts' },
    });
  });

  it('PostToolUse block and output rewrite', () => {
    const blocked = run(project({ postToolUse: [{ mode: 'block-json' }] }), 'post-tool-use', sample('post-tool-use'));
    expect(blocked.code).toBe(2);
    expect(blocked.json).toEqual({ decision: 'block', reason: 'blocked by node' });
    expectClaudeShape('PostToolUse', blocked.json);

    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { postToolUse: [{ command: `echo '{"decision":"modify","updatedOutput":{"stdout":"[redacted]","stderr":"","interrupted":false,"isImage":false}}'` }] } }),
    });
    const rewritten = run({ dir, env: isolatedEnv(dir) }, 'post-tool-use', sample('post-tool-use'));
    expect(rewritten.code).toBe(0);
    expect(rewritten.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: '[redacted]', stderr: '', interrupted: false, isImage: false } } });
  });

  it('UserPromptSubmit: block, context, and a prompt rewrite Claude Code cannot take', () => {
    const blocked = run(project({ userPromptSubmit: [{ mode: 'block-exit2', lang: 'python' }] }), 'user-prompt-submit', sample('user-prompt-submit'));
    expect(blocked.code).toBe(2);
    expect(blocked.json).toEqual({ decision: 'block', reason: 'blocked by python' });

    const context = run(project({ userPromptSubmit: [{ mode: 'plain-stdout', lang: 'bash' }] }), 'user-prompt-submit', sample('user-prompt-submit'));
    expect(context.code).toBe(0);
    expect(context.json).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'plain text from bash' } });
    expectClaudeShape('UserPromptSubmit', context.json);

    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { userPromptSubmit: [{ command: `echo '{"decision":"modify","prompt":"[redacted]"}'` }] } }) });
    const rewrite = run({ dir, env: isolatedEnv(dir) }, 'user-prompt-submit', sample('user-prompt-submit'));
    expect(rewrite.code).toBe(2);
    expect(rewrite.json?.decision).toBe('block');
    expect(rewrite.json?.reason).toContain('Claude Code cannot take a rewritten prompt');
    expectClaudeShape('UserPromptSubmit', rewrite.json);
  });

  it('Stop and SubagentStop block: the reason is the next instruction', () => {
    for (const [ev, file, claude] of [['stop', 'stop', 'Stop'], ['subagent-stop', 'subagent-stop', 'SubagentStop']] as const) {
      const r = run(project({ [ev]: [{ mode: 'claude-block' }] }), ev, sample(file));
      expect(r.code).toBe(2);
      expect(r.json).toEqual({ decision: 'block', reason: 'node blocks' });
      expect(r.stderr).toBe('node blocks\n');
      expectClaudeShape(claude, r.json);
    }
  });

  it('PreCompact block', () => {
    const r = run(project({ preCompact: [{ mode: 'block-exit2', lang: 'bash' }] }), 'pre-compact', sample('pre-compact'));
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ decision: 'block', reason: 'blocked by bash' });
  });

  it('SessionStart context, and SessionEnd / Notification answer nothing', () => {
    const start = run(project({ sessionStart: [{ mode: 'context', lang: 'python' }] }), 'session-start', sample('session-start'));
    expect(start.code).toBe(0);
    expect(start.json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'context from python' } });
    expectClaudeShape('SessionStart', start.json);

    for (const [ev, file] of [['session-end', 'session-end'], ['notification', 'notification']] as const) {
      const r = run(project({ [ev]: [{ mode: 'continue' }] }), ev, sample(file));
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('PostToolUseFailure context', () => {
    const r = run(project({ postToolUseFailure: [{ mode: 'context' }] }), 'post-tool-use-failure', sample('post-tool-use-failure'));
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'context from node' } });
  });

  it('a failure that continues is still reported: systemMessage for the user, a line on stderr', () => {
    const r = run(project({ preToolUse: [{ mode: 'exit1', lang: 'bash' }] }), 'pre-tool-use', sample('pre-tool-use.ls'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ systemMessage: 'agent-hooks: hook "exit1-0" failed (exit-1: exited with 1: bash broke); continuing' });
    expect(r.stderr).toBe('agent-hooks: hook "exit1-0" failed (exit-1: exited with 1: bash broke); continuing\n');
  });

  it('nothing to say: empty stdout, exit 0', () => {
    const r = run(project({ preToolUse: [{ mode: 'continue' }] }), 'pre-tool-use', sample('pre-tool-use.ls'));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('the event name may come from the payload alone', () => {
    const r = run(project({ preToolUse: [{ mode: 'block-exit2', lang: 'bash' }] }), '--dialect=claude-code', sample('pre-tool-use'));
    expect(r.code).toBe(2);
  });
});

describe('the native dialect', () => {
  it('answers the decision with the trace of every hook; exit 2 blocks', () => {
    const p = project({ preToolUse: [{ mode: 'modify-input', lang: 'bash' }, { mode: 'exit1', lang: 'python' }, { mode: 'block-json' }] });
    const r = run(p, 'pre-tool-use', sample('pre-tool-use.ls'), ['--dialect', 'native']);
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

  it('is detected for a payload without hook_event_name', () => {
    const p = project({ preToolUse: [{ mode: 'continue' }] });
    const r = run(p, 'pre-tool-use', { tool_name: 'Bash', tool_input: { command: 'ls' } });
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

  it('a bad config names the file and the key path', () => {
    const p = badConfig();
    const r = run(p, 'pre-tool-use', sample('pre-tool-use'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`agent-hooks: ${path.join(p.dir, '.config/agent-hooks/config.json')}: hooks.preToolUse[1].timeout: expected number, received string\n`);
  });

  it('--on-error block and HOOKS_ON_ERROR=block turn a runner error into a block', () => {
    const p = badConfig();
    expect(run(p, 'pre-tool-use', sample('pre-tool-use'), ['--on-error', 'block']).code).toBe(2);
    expect(run({ ...p, env: { ...p.env, HOOKS_ON_ERROR: 'block' } }, 'pre-tool-use', sample('pre-tool-use')).code).toBe(2);
  });

  it.each([
    ['not json', 'stdin: expected one JSON event, got not JSON'],
    // V8 quotes the text in its message: a newline in it must not split the error.
    ['not json\nsecond line\r\n', 'stdin: expected one JSON event, got not JSON'],
    ['', 'stdin: expected one JSON event, got empty'],
    ['[1]', 'stdin: the event must be a JSON object'],
    [JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' }), 'stdin: hook_event_name is "PostToolUse" but the command line says "pre-tool-use"'],
    [JSON.stringify({ hook_event_name: 'PreToolUse' }), 'stdin: PreToolUse needs a "tool_name"'],
  ])('a bad event %j', (input, message) => {
    const p = project({});
    const r = runCli(['run', 'pre-tool-use'], { cwd: p.dir, env: p.env, input });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`agent-hooks: ${message}`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['run', 'pre-tool-uze'], 'event: unknown event "pre-tool-uze" (did you mean "pre-tool-use"?)'],
    [['run', 'stop', '--verbos'], 'unknown option --verbos (did you mean "--verbose"?)'],
    [['runn'], 'unknown command "runn" (did you mean "run"?)'],
    [['run', 'stop', '--dialect', 'claude'], 'unknown dialect "claude"'],
  ])('usage error %j', (args, message) => {
    const p = project({});
    const r = runCli(args, { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'Stop' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
  });

  it('HOOKS_DISABLE=1 runs nothing and says so', () => {
    const p = project({ preToolUse: [{ mode: 'block-exit2' }] });
    const r = run({ ...p, env: { ...p.env, HOOKS_DISABLE: '1' } }, 'pre-tool-use', sample('pre-tool-use'));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe('agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n');
  });
});

describe('--verbose', () => {
  it('prints one line per hook (id, outcome, ms, where it came from) and the skipped ones', () => {
    const p = project({ preToolUse: [{ mode: 'context' }, { mode: 'continue', extra: { match: 'write' } }, { mode: 'block-exit2', lang: 'bash' }] });
    const r = run(p, 'pre-tool-use', sample('pre-tool-use.ls'), ['--verbose']);
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
  it('stdin carries the Claude Code payload, hook_event_name included', () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log(JSON.stringify({additionalContext:e.hook_event_name+' '+e.tool_name+' '+e.tool_input.command+' '+e.session_id}))"` }] } }),
    });
    const r = run({ dir, env: isolatedEnv(dir) }, 'pre-tool-use', { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's1' });
    expect(r.json?.additionalContext).toBe('PreToolUse Bash ls s1');
  });
});
