// The library API: the same engine in-process, with in-process handlers beside command hooks.
import { describe, expect, it } from 'vitest';
import { createRunner, defineConfig, getDialect, HooksError, loadConfig, runnerFor } from '../../src/index.js';
import { bash, event, fixture, isolatedEnv, runnerWith, tmpProject } from '../helpers.js';

describe('createRunner', () => {
  it('runs in-process handlers and command hooks in one chain, in priority order', async () => {
    const seen: string[] = [];
    const runner = await runnerWith(
      { hooks: { preToolUse: [{ id: 'cmd', command: fixture('bash'), env: { MODE: 'modify-input' } }] } },
      {
        handlers: [
          {
            event: 'preToolUse',
            id: 'first',
            priority: 10,
            handler: (input) => {
              seen.push(String(input.tool_input?.command));
              return { decision: 'modify', updatedInput: { command: 'npm ci' } };
            },
          },
          {
            event: 'pre-tool-use',
            id: 'last',
            priority: -10,
            match: 'exec',
            handler: (input, ctx) => {
              seen.push(`${ctx.event}/${ctx.tool}: ${String(input.tool_input?.command)}`);
            },
          },
        ],
      },
    );
    const d = await runner.run(bash('npm install'));
    expect(seen).toEqual(['npm install', 'preToolUse/exec: npm ci --by-bash']);
    expect(d.decision).toBe('modify');
    expect(d.updatedInput).toEqual({ command: 'npm ci --by-bash' });
    expect(d.results.map((r) => [r.id, r.source.layer])).toEqual([['first', 'api'], ['cmd', 'project'], ['last', 'api']]);
  });

  it('a handler that throws or hangs is a failure under onFailure, never an exception', async () => {
    const runner = await runnerWith(
      {},
      {
        handlers: [
          { event: 'stop', id: 'throws', handler: () => { throw new Error('boom'); } },
          { event: 'stop', id: 'hangs', timeout: 0.2, onFailure: 'block', handler: (_input, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))) },
        ],
      },
    );
    const d = await runner.run(event('stop', {}));
    expect(d.results.map((r) => r.failure)).toEqual([
      { kind: 'error', message: 'boom' },
      { kind: 'timeout', message: 'timed out after 0.2s' },
    ]);
    expect(d.decision).toBe('block');
  });

  it('a handler cannot change what later hooks see by mutating its input', async () => {
    const runner = await runnerWith(
      {},
      {
        handlers: [
          { event: 'preToolUse', id: 'mutator', handler: (input) => { (input.tool_input as Record<string, unknown>).command = 'rm -rf /'; } },
          { event: 'preToolUse', id: 'reader', handler: (input) => ({ additionalContext: String(input.tool_input?.command) }) },
        ],
      },
    );
    expect((await runner.run(bash('ls'))).additionalContext).toEqual(['ls']);
  });

  it('a runner is reusable across events (server mode) and handler specs are validated', async () => {
    const runner = await runnerWith({ hooks: { stop: [{ command: fixture('python'), env: { MODE: 'claude-block' } }] } });
    const first = await runner.run(event('stop', {}));
    const second = await runner.run(event('stop', { stop_hook_active: true }));
    expect([first.decision, second.decision]).toEqual(['block', 'block']);

    const dir = tmpProject();
    await expect(createRunner({ cwd: dir, env: isolatedEnv(dir), handlers: [{ event: 'preToolUse', id: 'x', match: 'nope', handler: () => {} }] })).rejects.toThrow(
      'handlers[0] (x): match: "nope" matches no known tool',
    );
    // A plugin's own tool, said to be one: accepted, and it matches that tool.
    const plugin = await createRunner({ cwd: dir, env: isolatedEnv(dir), handlers: [{ event: 'preToolUse', id: 'x', match: 'nope', matchUnknownTools: true, handler: () => ({ decision: 'block', reason: 'no nope' }) }] });
    expect((await plugin.run(event('preToolUse', { tool_name: 'nope', tool_input: {} }))).decision).toBe('block');
  });

  it('defineConfig, loadConfig and runnerFor compose; a dialect renders the decision', async () => {
    const config = defineConfig({ hooks: { preToolUse: [{ id: 'no', command: fixture('node'), env: { MODE: 'claude-deny' } }] } });
    const dir = tmpProject();
    const resolved = await loadConfig({ cwd: dir, config, env: isolatedEnv(dir) });
    const decision = await runnerFor(resolved, isolatedEnv(dir)).run(bash('ls'));
    expect(getDialect('claude-code').answer(decision)).toEqual({
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'node denies' } })}\n`,
      stderr: 'node denies\n',
      exitCode: 2,
    });
    await expect(loadConfig({ cwd: dir, config: { hooks: { preToolUs: [] } }, env: isolatedEnv(dir) })).rejects.toBeInstanceOf(HooksError);
  });
});

describe('the library example (docs/library.md)', () => {
  it('runs as written: a handler blocks a prod command, eventFromPayload builds the event', async () => {
    const { eventFromPayload } = await import('../../src/index.js');
    const dir = tmpProject();
    const runner = await createRunner({
      cwd: dir,
      env: isolatedEnv(dir),
      handlers: [{
        event: 'preToolUse', id: 'no-prod', match: 'exec',
        handler: (input) => String(input.tool_input?.command).includes('prod')
          ? { decision: 'block', reason: 'not in production' } : undefined,
      }],
    });
    const ok = await runner.run(eventFromPayload({ tool_name: 'Bash', tool_input: { command: 'ls' } }, 'preToolUse'));
    expect(ok.decision).toBe('continue');
    const prod = await runner.run(eventFromPayload({ tool_name: 'Bash', tool_input: { command: 'deploy prod' } }, 'preToolUse'));
    expect(prod).toMatchObject({ decision: 'block', reason: 'not in production', decidedBy: 'no-prod' });
  });
});
