// Wildcard event keys: `*` and `group:...` run their hooks on every event of the group they fit, after the
// event's own hooks (all else equal). Real bash and node hooks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS } from '../../src/events/catalog.js';
import { bash, event, isolatedEnv, runCli, runnerWith, tmpProject } from '../helpers.js';
import type { HooksConfig } from '../../src/config/schema.js';

const eventsOf = async (config: HooksConfig, id: string) => (await runnerWith(config)).config.hooks.filter((h) => h.id === id).map((h) => h.event);

describe('a hook under a wildcard key', () => {
  it('"*" runs a command hook on every event', async () => {
    expect(await eventsOf({ hooks: { '*': [{ id: 'all', command: 'true' }] } }, 'all')).toEqual(EVENTS.map((e) => e.name));
  });

  it('a builtin runs on the events it acts on: command-safety on preToolUse, audit-log on all', async () => {
    expect(await eventsOf({ hooks: { '*': [{ builtin: 'command-safety' }] } }, 'command-safety')).toEqual(['preToolUse']);
    expect(await eventsOf({ hooks: { '*': [{ builtin: 'audit-log', options: { path: 'audit.jsonl' } }] } }, 'audit-log')).toEqual(EVENTS.map((e) => e.name));
  });

  it('"match" keeps it to events with a tool; "if" to events that have the fields', async () => {
    expect(await eventsOf({ hooks: { '*': [{ id: 'm', command: 'true', match: 'exec' }] } }, 'm')).toEqual(EVENTS.filter((e) => e.tool).map((e) => e.name));
    const prompt = await eventsOf({ hooks: { '*': [{ id: 'p', command: 'true', if: { prompt: '*secret*' } }] } }, 'p');
    expect(prompt).toContain('userPromptSubmit');
    expect(prompt).not.toContain('sessionStart');
  });

  it('runs after the event’s own hooks and the group’s, whatever the key order; priority still comes first', async () => {
    const runner = await runnerWith({
      hooks: {
        '*': [{ id: 'star', command: 'true' }, { id: 'urgent', command: 'true', priority: 10 }],
        'group:tool': [{ id: 'tools', command: 'true' }],
        preToolUse: [{ id: 'own', command: 'true' }],
      },
    });
    expect(runner.plan(bash('ls')).map((p) => p.hook.id)).toEqual(['urgent', 'own', 'tools', 'star']);
    expect(runner.plan(event('stop', {})).map((p) => p.hook.id)).toEqual(['urgent', 'star']);
  });

  it('is a real hook: a "*" bash hook logs every event it sees, and its exit 2 blocks where blocking has an effect', async () => {
    const dir = tmpProject();
    const log = path.join(dir, 'seen.log');
    const runner = await runnerWith({ hooks: { '*': [{ id: 'log', command: `echo "$HOOKS_EVENT" >> ${JSON.stringify(log)}; [ "$HOOKS_EVENT" = preToolUse ] && { echo "stopped by *" >&2; exit 2; }; exit 0` }] } });
    await runner.run(event('sessionStart', { source: 'startup' }));
    const pre = await runner.run(bash('ls'));
    await runner.run(event('stop', { stop_hook_active: false }));
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['sessionStart', 'preToolUse', 'stop']);
    expect(pre.decision).toBe('block');
    expect(pre.reason).toBe('stopped by *');
    expect(pre.results[0]!.source.key).toBe('hooks.*[0]');
  });

  it('HOOKS_SKIP skips it on every event', async () => {
    const runner = await runnerWith({ hooks: { '*': [{ id: 'w', command: 'exit 2' }] } }, { env: { HOOKS_SKIP: 'w' } });
    expect((await runner.run(bash('ls'))).decision).toBe('continue');
  });
});

describe('wildcard config errors are loud', () => {
  it('an entry that fits no event of its group', async () => {
    await expect(runnerWith({ hooks: { 'group:session': [{ builtin: 'command-safety' }] } })).rejects.toThrow(
      /hooks\.group:session\[0\]: runs on no event of "group:session" \(sessionStart, sessionEnd\): command-safety acts on preToolUse/,
    );
    await expect(runnerWith({ hooks: { 'group:session': [{ command: 'true', match: 'exec' }] } })).rejects.toThrow(/"match" needs an event with a tool/);
  });

  it('a misspelt group is an unknown event with a suggestion', async () => {
    await expect(runnerWith({ hooks: { 'group:tools': [{ command: 'true' }] } } as HooksConfig)).rejects.toThrow(/unknown event.*group:tool/);
  });

  it('a bad match pattern under "*" is reported once', async () => {
    const error = await runnerWith({ hooks: { '*': [{ command: 'true', match: 'no_such_tool' }] } }).catch((e: Error & { context?: { issues?: string[] } }) => e);
    expect((error as Error).message).toContain('"no_such_tool" matches no known tool');
    expect((error as { context: { issues: string[] } }).context.issues).toHaveLength(1);
  });

  it('a local override of a "*" hook switches it off on every event', () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { '*': [{ id: 'w', command: 'exit 2' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { '*': [{ id: 'w', enabled: false }] } }),
    });
    const env = isolatedEnv(dir);
    const r = runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'ls' } }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
