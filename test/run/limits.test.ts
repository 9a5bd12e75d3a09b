// Events past the documented limits (issue 10, items 2 and 8): over-deep events cannot be judged (a block on an
// intercepting event, a loud warning elsewhere), never a stack overflow; over-large events are a runner error
// naming the limit.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_LIMITS, nestsDeeperThan } from '../../src/json.js';
import { cliInProcess, event, isolatedEnv, runnerWith, tmpProject } from '../helpers.js';

const nested = (levels: number): unknown => {
  let v: unknown = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
};
const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, at any depth, without recursion', () => {
    expect(nestsDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: {} }, 1)).toBe(true);
    expect(nestsDeeperThan(nested(256), 256)).toBe(false);
    expect(nestsDeeperThan(nested(257), 256)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(deepText(1_000_000)), 256)).toBe(true);
    expect(nestsDeeperThan('x', 0)).toBe(false);
  });

  it('a cycle counts as too deep', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(nestsDeeperThan(a, 256)).toBe(true);
  });
});

describe('an over-deep event cannot be judged', () => {
  it('preToolUse: a 4,000-level array beside rm -rf / is blocked, not passed by a crashed guard', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } });
    const decision = await runner.run(event('preToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, deep: nested(4000) }));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toBe(`agent-hooks: cannot be judged: the event nests deeper than ${EVENT_LIMITS.maxDepth} levels`);
    expect(decision.results).toEqual([]);
  });

  it('the same through the CLI with a command hook: exit 2, never an internal error', async () => {
    const dir = tmpProject();
    const config = path.join(dir, 'hooks.json');
    writeFileSync(config, JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { command: 'cat > /dev/null' }] } }));
    const input = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"deep":${deepText(6000)}}`;
    const out = await cliInProcess(['run', 'pre-tool-use', '--config', config], { cwd: dir, env: isolatedEnv(dir), input });
    expect(out.code).toBe(2);
    expect(out.stdout).toContain('cannot be judged');
    expect(out.stderr).not.toContain('internal error');
  });

  it('hooks guard <id> answers the same way', async () => {
    const dir = tmpProject();
    const input = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"deep":${deepText(4000)}}`;
    for (const id of ['command-safety', 'sensitive-paths']) {
      const out = await cliInProcess(['guard', id], { cwd: dir, env: isolatedEnv(dir), input });
      expect(out.code, id).toBe(2);
      expect(out.stdout, id).toContain('cannot be judged');
    }
  });

  it('postToolUse: a token beside a 3,000-level value never reaches the agent (the output is withheld)', async () => {
    const runner = await runnerWith({ hooks: { postToolUse: [{ builtin: 'redact-secrets' }] } });
    const decision = await runner.run(event('postToolUse', { tool_name: 'Bash', tool_input: { command: 'env' }, tool_response: { stdout: `GITHUB_TOKEN=${TOKEN}`, deep: nested(3000) } }));
    expect(decision.decision).toBe('modify');
    expect(decision.updatedOutput).toEqual({ value: `[withheld by agent-hooks: the tool output cannot be judged: the event nests deeper than ${EVENT_LIMITS.maxDepth} levels]` });
    expect(JSON.stringify({ ...decision, event: undefined })).not.toContain(TOKEN);
  });

  it('postToolUse through the CLI: Claude Code gets the output replaced (updatedToolOutput), never the token', async () => {
    const dir = tmpProject();
    const config = path.join(dir, 'hooks.json');
    writeFileSync(config, JSON.stringify({ hooks: { postToolUse: [{ builtin: 'redact-secrets' }] } }));
    const input = `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"env"},"tool_response":{"stdout":"GITHUB_TOKEN=${TOKEN}","deep":${deepText(3000)}}}`;
    const out = await cliInProcess(['run', 'post-tool-use', '--config', config], { cwd: dir, env: isolatedEnv(dir), input });
    const answer = JSON.parse(out.stdout) as { hookSpecificOutput: { updatedToolOutput: string } };
    expect(answer.hookSpecificOutput.updatedToolOutput).toContain('withheld by agent-hooks');
    expect(out.stdout + out.stderr).not.toContain(TOKEN);
  });

  it('an observe event is a loud warning, and no hook runs on it', async () => {
    const dir = tmpProject();
    const marker = path.join(dir, 'ran');
    const runner = await runnerWith({ hooks: { sessionStart: [{ command: `touch ${JSON.stringify(marker)}` }] } });
    const decision = await runner.run(event('sessionStart', { source: 'startup', deep: nested(1000) }));
    expect(decision.decision).toBe('continue');
    expect(decision.warnings).toEqual([`cannot be judged: the event nests deeper than ${EVENT_LIMITS.maxDepth} levels; no hooks ran on sessionStart`]);
  });

  it('an event within the limit runs as usual', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } });
    const decision = await runner.run(event('preToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, deep: nested(200) }));
    expect(decision.decision).toBe('continue');
    expect(decision.results.map((r) => r.id)).toEqual(['command-safety']);
  });

  it('a deep event no hook would run on passes untouched', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } });
    const decision = await runner.run(event('preToolUse', { tool_name: 'WebSearch', tool_input: { query: 'x' }, deep: nested(1000) }));
    expect(decision.decision).toBe('continue');
  });

  it('a cyclic payload from the library API is blocked, not a crash', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ command: 'cat > /dev/null' }] } });
    const ev = event('preToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    (ev.payload as Record<string, unknown>).self = ev.payload;
    expect((await runner.run(ev)).decision).toBe('block');
  });
});

describe('an over-large event', () => {
  it(`over ${EVENT_LIMITS.maxBytes / 1024 / 1024} MiB is a runner error naming the limit (exit 1; 2 with --on-error block)`, async () => {
    const dir = tmpProject();
    const input = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"blob":"${'x'.repeat(EVENT_LIMITS.maxBytes)}"}`;
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir), input });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(`agent-hooks: stdin: the event is ${Buffer.byteLength(input)} bytes, over the limit of 64 MiB (${EVENT_LIMITS.maxBytes} bytes) on an event; it cannot be judged\n`);
    const blocked = await cliInProcess(['run', 'pre-tool-use', '--on-error', 'block'], { cwd: dir, env: isolatedEnv(dir), input });
    expect(blocked.code).toBe(2);
  });
});

describe('a builtin guard that cannot judge an intercepting event', () => {
  it('a builtin on preToolUse fails closed by default (onFailure "block"); an explicit "continue" is kept', async () => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths', onFailure: 'continue' }], postToolUse: [{ builtin: 'redact-secrets' }], stop: [{ builtin: 'audit-log' }] } });
    const byId = Object.fromEntries(runner.config.hooks.map((h) => [`${h.event}:${h.id}`, h.onFailure]));
    expect(byId).toEqual({ 'preToolUse:command-safety': 'block', 'preToolUse:sensitive-paths': 'continue', 'postToolUse:redact-secrets': 'block', 'stop:audit-log': 'continue' });
  });

  it('hooks guard sensitive-paths on a `**` word beside a secret read never passes', async () => {
    const dir = tmpProject();
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls ** ; cat ~/.ssh/id_rsa' } });
    const out = await cliInProcess(['guard', 'sensitive-paths'], { cwd: dir, env: isolatedEnv(dir), input });
    expect(out.code).toBe(2);
  });
});

describe('the audit log on an event that cannot be judged', () => {
  it('still records the block, with a payload hash, or why there is none where this Node cannot serialize it', async () => {
    const dir = tmpProject();
    const log = path.join(dir, 'audit.jsonl');
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { builtin: 'audit-log', options: { path: log } }] } });
    const payload = { tool_name: 'Bash', tool_input: { command: 'ls' }, deep: nested(20_000) };
    const decision = await runner.run(event('preToolUse', payload));
    expect(decision.decision).toBe('block');
    expect(decision.warnings).toEqual([]);
    const [record] = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(record).toMatchObject({ kind: 'event', decision: 'block', decidedBy: 'agent-hooks' });
    // Node 26's JSON.stringify takes 20,000 levels, where earlier lines overflow the stack.
    let serializable = true;
    try {
      JSON.stringify(payload);
    } catch {
      serializable = false;
    }
    expect(record!.payloadHash).toMatch(serializable ? /^sha256:[0-9a-f]{64}$/ : /^unavailable: the payload cannot be serialized$/);
  });
});
