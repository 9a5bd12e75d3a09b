// Claude Code's events and replies, event by event, as Claude Code 2.1.328 reads them: real bash, python3
// and node hooks, run by the engine, answered by the claude-code dialect.
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/dialects/claude-code.js';
import type { HookEvent } from '../../src/types.js';
import { bash, event, runnerWith } from '../helpers.js';

/** A shell-form hook that prints this JSON (through python3, node or printf) and exits with `code`. */
function says(json: unknown, code = 0, lang: 'bash' | 'python' | 'node' = 'bash'): string {
  const text = JSON.stringify(json);
  const quoted = `'${text.replace(/'/g, `'\\''`)}'`;
  switch (lang) {
    case 'python':
      return `python3 -c 'import sys; sys.stdout.write(sys.argv[1]); sys.exit(${code})' ${quoted}`;
    case 'node':
      return `node -e 'process.stdout.write(process.argv[1]); process.exitCode = ${code}' ${quoted}`;
    default:
      return `printf '%s' ${quoted}; exit ${code}`;
  }
}

async function run(ev: HookEvent, hooks: Record<string, unknown>[]) {
  const runner = await runnerWith({ hooks: { [ev.name]: hooks } });
  const decision = await runner.run(ev);
  const answer = claudeCode.answer(decision);
  return { decision, answer, json: answer.stdout.startsWith('{') ? (JSON.parse(answer.stdout) as Record<string, any>) : undefined };
}

const permissionRequest = (command = 'ls') => event('PermissionRequest', { tool_name: 'Bash', tool_input: { command } });

describe('PermissionRequest: hookSpecificOutput.decision.behavior', () => {
  it.each(['bash', 'python', 'node'] as const)('allow with updatedPermissions from a %s hook is sent on as allow', async (lang) => {
    const rules = [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'ls' }], behavior: 'allow', destination: 'session' }];
    const { decision, answer, json } = await run(permissionRequest(), [
      { command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: rules } } }, 0, lang) },
    ]);
    expect(decision.decision).toBe('allow');
    expect(answer.exitCode).toBe(0);
    expect(json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: rules } } });
  });

  it('allow with updatedInput rewrites the call and allows it; the next hook judges the rewrite', async () => {
    const { decision, json } = await run(permissionRequest('ls'), [
      { id: 'rewrite', command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls -la' } } } }) },
      { id: 'judge', command: `python3 -c 'import json,sys; e=json.load(sys.stdin); sys.exit(2 if e["tool_input"]["command"]=="ls -la" else 0)'` },
    ]);
    expect(decision.decision).toBe('block');
    expect(decision.decidedBy).toBe('judge');
    expect(json?.hookSpecificOutput.decision.behavior).toBe('deny');
  });

  it('allow + updatedInput alone gives allow with the new input', async () => {
    const { json } = await run(permissionRequest('ls'), [
      { command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls -la' } } } }) },
    ]);
    expect(json?.hookSpecificOutput.decision).toEqual({ behavior: 'allow', updatedInput: { command: 'ls -la' } });
  });

  it('deny carries its message; exit 0, as Claude Code reads it from the JSON', async () => {
    const { decision, answer, json } = await run(permissionRequest('rm -rf build'), [
      { command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no deletes' } } }) },
    ]);
    expect(decision).toMatchObject({ decision: 'block', reason: 'no deletes' });
    expect(answer.exitCode).toBe(0);
    expect(json?.hookSpecificOutput.decision).toEqual({ behavior: 'deny', message: 'no deletes' });
  });

  it('deny with interrupt stops the agent: a halt, sent as deny + interrupt + continue:false', async () => {
    const { decision, json } = await run(permissionRequest(), [
      { command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'stop now', interrupt: true } } }) },
    ]);
    expect(decision.decision).toBe('halt');
    expect(json).toMatchObject({ continue: false, stopReason: 'stop now', hookSpecificOutput: { decision: { behavior: 'deny', message: 'stop now', interrupt: true } } });
  });

  it('a rewrite without allow is refused, never sent as the original call', async () => {
    const { json, answer } = await run(permissionRequest('curl x | sh'), [{ command: says({ decision: 'modify', updatedInput: { command: 'echo no' } }) }]);
    expect(json?.hookSpecificOutput.decision.behavior).toBe('deny');
    expect(json?.systemMessage).toMatch(/without allowing it/);
    expect(answer.exitCode).toBe(0);
  });

  it('an unknown behavior is a failure, reported', async () => {
    const { decision } = await run(permissionRequest(), [{ command: says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'maybe' } } }) }]);
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(/unknown PermissionRequest behavior "maybe"/);
  });
});

describe('permissionDecision is read only where Claude Code reads it', () => {
  it('a PostToolUse "deny" is ignored (no block feedback), and said', async () => {
    const ev = event('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a' } });
    const { decision, json, answer } = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } }) }]);
    expect(decision.decision).toBe('continue');
    expect(answer.exitCode).toBe(0);
    expect(json?.decision).toBeUndefined();
    expect(json?.systemMessage).toMatch(/permissionDecision.*ignored/);
  });

  it('PreModelSwitch reads allow / deny / ask', async () => {
    const ev = event('PreModelSwitch', { from_model: 'a', to_model: 'b' });
    const ask = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision: 'ask', permissionDecisionReason: 'costly' } }) }]);
    expect(ask.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreModelSwitch', permissionDecision: 'ask', permissionDecisionReason: 'costly' });
    const deny = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision: 'deny', permissionDecisionReason: 'no' } }) }]);
    expect(deny.answer.exitCode).toBe(2);
    expect(deny.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no' });
  });
});

describe('defer (PreToolUse)', () => {
  it('is sent on as defer', async () => {
    const { decision, json } = await run(bash('deploy'), [{ command: says({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }) }]);
    expect(decision).toMatchObject({ decision: 'ask', deferred: true });
    expect(json?.hookSpecificOutput.permissionDecision).toBe('defer');
  });

  it('beats ask, loses to deny', async () => {
    const asks = { command: says({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } }) };
    const defers = { command: says({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }) };
    const denies = { command: 'exit 2' };
    expect((await run(bash('x'), [asks, defers])).json?.hookSpecificOutput.permissionDecision).toBe('defer');
    expect((await run(bash('x'), [defers, denies])).json?.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe('hookEventName naming another event', () => {
  it('makes the reply unreadable, as Claude Code rejects it', async () => {
    const { decision } = await run(bash('ls'), [{ command: says({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }) }]);
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(/names? .*PostToolUse|hookEventName is "PostToolUse"/);
  });

  it('beside a top-level block, only the hookSpecificOutput is dropped', async () => {
    const ev = event('Stop', { stop_hook_active: false });
    const { decision } = await run(ev, [{ command: says({ decision: 'block', reason: 'go on', hookSpecificOutput: { hookEventName: 'SubagentStop', additionalContext: 'x' } }) }]);
    expect(decision).toMatchObject({ decision: 'block', reason: 'go on', additionalContext: [] });
  });
});

describe('systemMessage', () => {
  it("every hook's is kept, in order, before the runner's own warnings", async () => {
    const { json } = await run(bash('ls'), [
      { id: 'one', command: says({ systemMessage: 'first' }, 0, 'python') },
      { id: 'two', command: says({ systemMessage: 'second', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }, 0, 'node') },
      { id: 'broken', command: 'exit 7' },
    ]);
    expect(json?.systemMessage.split('\n').slice(0, 2)).toEqual(['first', 'second']);
    expect(json?.systemMessage).toMatch(/agent-hooks: hook "broken" failed/);
    expect(json?.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('reaches the agent on a block too (exit 2 keeps the JSON)', async () => {
    const { answer, json } = await run(bash('rm -rf /'), [{ command: says({ systemMessage: 'guard fired', decision: 'block', reason: 'no' }) }]);
    expect(answer.exitCode).toBe(2);
    expect(json?.systemMessage).toBe('guard fired');
  });
});

describe('Stop and SubagentStop', () => {
  const stop = event('Stop', { stop_hook_active: false, last_assistant_message: 'done' });

  it('additionalContext keeps the turn going: it is sent on', async () => {
    const { decision, json, answer } = await run(stop, [{ command: says({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'also run the linter' } }) }]);
    expect(decision.warnings).toEqual([]);
    expect(answer.exitCode).toBe(0);
    expect(json).toEqual({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'also run the linter' } });
  });

  it("several hooks' reasons and contexts are all delivered", async () => {
    const { decision, json, answer } = await run(stop, [
      { id: 'tests', command: says({ decision: 'block', reason: 'run the tests' }, 0, 'python') },
      { id: 'docs', command: 'echo "update the docs" >&2; exit 2' },
      { id: 'lint', command: says({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'and lint' } }, 0, 'node') },
    ]);
    expect(decision.decision).toBe('block');
    expect(answer.exitCode).toBe(2);
    expect(json?.reason).toBe('run the tests\n\nupdate the docs');
    expect(answer.stderr).toBe('run the tests\n\nupdate the docs\n');
    expect(json?.hookSpecificOutput.additionalContext).toBe('and lint');
  });
});

describe('continue: false, per event', () => {
  it('is ignored on PreCompact (compaction goes on), and said', async () => {
    const { decision, json } = await run(event('PreCompact', { trigger: 'auto' }), [{ command: says({ continue: false, stopReason: 'no' }) }]);
    expect(decision.decision).toBe('continue');
    expect(json?.continue).toBeUndefined();
    expect(json?.systemMessage).toMatch(/continue: false.*ignored/);
  });

  it('exit 2 still blocks PreCompact', async () => {
    const { decision, answer } = await run(event('PreCompact', { trigger: 'manual' }), [{ command: 'echo busy >&2; exit 2' }]);
    expect(decision.decision).toBe('block');
    expect(answer.exitCode).toBe(2);
  });

  it.each([
    ['UserPromptSubmit', { prompt: 'hi' }],
    ['PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {} }],
    ['Stop', { stop_hook_active: false }],
  ])('on %s: continue:false on exit 0, as Claude Code records a stop', async (name, payload) => {
    const { answer, json } = await run(event(name, payload), [{ command: says({ continue: false, stopReason: 'enough' }) }]);
    expect(answer.exitCode).toBe(0);
    expect(json).toEqual({ continue: false, stopReason: 'enough' });
  });
});

describe('text that only looks like JSON', () => {
  it('is plain-text context on SessionStart and UserPromptSubmit', async () => {
    const { decision } = await run(event('SessionStart', { source: 'startup' }), [{ command: `printf '{branch: main}'` }]);
    expect(decision.additionalContext).toEqual(['{branch: main}']);
    expect(decision.warnings.join('\n')).toMatch(/starts with "\{" but is not JSON.*plain-text context/);
  });

  it('is a failure elsewhere, reported', async () => {
    const { decision } = await run(bash('ls'), [{ command: `printf '{deny}'` }]);
    expect(decision.results[0]!.failure?.kind).toBe('invalid-json');
  });
});

describe('exit 2 with a JSON reply', () => {
  it("the JSON's blocking reason is the reason, not stderr", async () => {
    const { decision } = await run(bash('ls'), [{ command: `echo 'some log' >&2; ${says({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json says no' } }, 2)}` }]);
    expect(decision).toMatchObject({ decision: 'block', reason: 'json says no' });
  });

  it('a JSON allow does not undo exit 2: stderr is the reason; its context is kept', async () => {
    const { decision } = await run(bash('ls'), [{ command: `echo 'stderr says no' >&2; ${says({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', additionalContext: 'ctx' } }, 2)}` }]);
    expect(decision).toMatchObject({ decision: 'block', reason: 'stderr says no', additionalContext: ['ctx'] });
  });
});

describe("the other events' own answers", () => {
  it('PermissionDenied: retry is sent on', async () => {
    const ev = event('PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'ls' }, reason: 'classifier' });
    const { json } = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } }) }]);
    expect(json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } });
  });

  it('TeammateIdle: a block is exit 2 with the reason on stderr', async () => {
    const { answer } = await run(event('TeammateIdle', { teammate_name: 't', team_name: 'x' }), [{ command: 'echo "keep going" >&2; exit 2' }]);
    expect(answer).toEqual({ exitCode: 2, stderr: 'keep going\n', stdout: '' });
  });

  it('WorktreeCreate: the path a hook printed is the whole stdout', async () => {
    const { answer } = await run(event('WorktreeCreate', { name: 'feature' }), [{ command: 'echo "creating..." >&2; echo /tmp/wt/feature' }]);
    expect(answer).toMatchObject({ exitCode: 0, stdout: '/tmp/wt/feature\n' });
  });

  it('Elicitation: decline is a block; accept with content is sent on', async () => {
    const ev = event('Elicitation', { mcp_server_name: 'db', message: 'password?' });
    const declined = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'decline' }, reason: 'never' }) }]);
    expect(declined.decision.decision).toBe('block');
    expect(declined.json?.hookSpecificOutput.action).toBe('decline');
    const accepted = await run(ev, [{ command: says({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { user: 'a' } } }) }]);
    expect(accepted.json?.hookSpecificOutput).toEqual({ hookEventName: 'Elicitation', action: 'accept', content: { user: 'a' } });
  });

  it('CwdChanged: every hook\'s watchPaths are joined', async () => {
    const ev = event('CwdChanged', { old_cwd: '/a', new_cwd: '/b' });
    const { json } = await run(ev, [
      { id: 'a', command: says({ hookSpecificOutput: { hookEventName: 'CwdChanged', watchPaths: ['/b/.envrc'] } }) },
      { id: 'b', command: says({ hookSpecificOutput: { hookEventName: 'CwdChanged', watchPaths: ['/b/.envrc', '/b/.env'] } }) },
    ]);
    expect(json?.hookSpecificOutput.watchPaths).toEqual(['/b/.envrc', '/b/.env']);
  });

  it('SubagentStart and PostToolBatch carry context', async () => {
    for (const [name, payload] of [['SubagentStart', { agent_id: 'a', agent_type: 'Explore' }], ['PostToolBatch', { tool_calls: [] }]] as const) {
      const { json } = await run(event(name, payload), [{ command: says({ hookSpecificOutput: { hookEventName: name, additionalContext: 'note' } }) }]);
      expect(json).toEqual({ hookSpecificOutput: { hookEventName: name, additionalContext: 'note' } });
    }
  });
});

describe('PostToolUse: the legacy updatedMCPToolOutput', () => {
  it('is a rewrite the hooks after it judge, never passed on unread', async () => {
    const ev = event('PostToolUse', { tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' }, tool_response: [{ type: 'text', text: 'ok' }] });
    const { decision, json } = await run(ev, [
      { id: 'legacy', command: says({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: [{ type: 'text', text: 'key AKIAABCDEFGHIJKLMNOP' }] } }) },
      { id: 'judge', command: `python3 -c 'import json,sys; e=json.load(sys.stdin); sys.exit(2 if "AKIA" in json.dumps(e["tool_response"]) else 0)'` },
    ]);
    expect(decision).toMatchObject({ decision: 'block', decidedBy: 'judge' });
    expect(json?.hookSpecificOutput?.updatedMCPToolOutput).toBeUndefined();
  });
});

describe('an event the runner does not know', () => {
  it('runs its hooks as an observe event; a block is passed on as exit 2 with the reason (the forward path)', async () => {
    const ev = event('DirectoryRemoved', { directory: '/x' });
    expect(ev.name).toBe('directoryRemoved');
    const { decision, answer, json } = await run(ev, [
      { id: 'seen', command: `python3 -c 'import json,sys; e=json.load(sys.stdin); print(json.dumps({"systemMessage": "saw " + e["hook_event_name"]}))'` },
      { id: 'blocker', command: 'cat >/dev/null; echo "not this directory" >&2; exit 2' },
    ]);
    expect(decision.results.map((r) => r.id).sort()).toEqual(['blocker', 'seen']);
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toBe('not this directory\n');
    expect(json?.hookSpecificOutput).toBeUndefined();
    expect(json?.systemMessage).toMatch(/^saw DirectoryRemoved/);
  });

  it('its hooks are found under any spelling of its name; a typo of a known event is a config error', async () => {
    for (const key of ['DirectoryRemoved', 'directoryRemoved', 'directory-removed']) {
      const runner = await runnerWith({ hooks: { [key]: [{ id: 'h', command: 'exit 0' }] } });
      const decision = await runner.run(event('DirectoryRemoved', {}));
      expect(decision.results.map((r) => r.id), key).toEqual(['h']);
    }
    await expect(runnerWith({ hooks: { PostToolUs: [{ command: 'exit 0' }] } })).rejects.toThrow(/hooks\.PostToolUs: unknown event \(did you mean "PostToolUse"\?\)/);
    await expect(runnerWith({ hooks: { 'not an event': [{ command: 'exit 0' }] } })).rejects.toThrow(/is not an event name/);
  });
});
