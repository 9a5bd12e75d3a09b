// Claude Code's settings shape in a config: matcher groups, Claude handler keys, handler types agent-hooks
// cannot run. None of it is ever an error that switches the other hooks off.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import type { ConfigLayer } from '../../src/config/load.js';
import { expandClaudeShape } from '../../src/config/claude-shape.js';
import { HooksError } from '../../src/errors.js';

const FILE = '/home/dev/project/.hooksrc.json';
const project = (config: unknown): ConfigLayer => ({ layer: 'project', file: FILE, dir: path.dirname(FILE), config, trust: 'trusted' });
const resolve = (config: unknown) => resolveConfig([project(config)], { cwd: '/home/dev/project' });
/** Named on the command line: its errors throw instead of switching it off. */
const resolveChosen = (config: unknown) => resolveConfig([{ ...project(config), trust: 'implicit' }], { cwd: '/home/dev/project' });

describe('matcher groups in a config list', () => {
  it('each handler becomes a hook keeping its place in the file, with the group matcher read as Claude Code reads it', async () => {
    const config = await resolve({
      hooks: {
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'a.sh', timeout: 5 }, { type: 'command', command: 'b.sh' }] },
          { matcher: '^Bash$', hooks: [{ type: 'command', command: 'c.sh', if: 'Bash(git push*)' }] },
          { command: 'native.sh', match: 'exec' },
        ],
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'ctx.sh' }] }],
      },
    });
    expect(config.layers[0]!.active).toBe(true);
    expect(config.hooks.map((h) => [h.id, h.source.key, h.match, h.matchMode, h.rule, h.on, h.timeoutMs])).toEqual([
      ['a', 'hooks.PreToolUse[0].hooks[0]', ['Edit', 'Write'], 'claude', undefined, undefined, 5000],
      ['b', 'hooks.PreToolUse[0].hooks[1]', ['Edit', 'Write'], 'claude', undefined, undefined, 600000],
      ['c', 'hooks.PreToolUse[1].hooks[0]', ['/^Bash$/'], 'claude', 'Bash(git push*)', undefined, 600000],
      ['native', 'hooks.PreToolUse[2]', ['exec'], undefined, undefined, undefined, 600000],
      ['ctx', 'hooks.SessionStart[0].hooks[0]', undefined, undefined, undefined, { field: 'source', matcher: 'startup' }, 600000],
    ]);
  });

  it('a bad value inside a group is named by its place in the file', async () => {
    const error = (await resolveChosen({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'ok.sh' }, { type: 'command', command: 'x', timeout: 'ten' }] }] } }).catch((e: unknown) => e)) as HooksError;
    expect(error).toBeInstanceOf(HooksError);
    expect(error.message).toContain(`${FILE}: hooks.PreToolUse[0].hooks[1].timeout: expected number`);
  });

  it('every Claude Code handler type runs: prompt, agent, mcp_tool and command', async () => {
    const config = await resolve({
      hooks: {
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?', model: 'haiku' }, { type: 'agent', prompt: 'check' }, { type: 'command', command: 'ok.sh' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'check', input: { c: '${tool_input.command}' } }] }],
      },
    });
    expect(config.layers[0]!.active).toBe(true);
    const kinds = config.hooks.map((h) => [h.event, h.run.kind, h.onFailure]);
    expect(kinds).toEqual([
      ['preToolUse', 'mcp_tool', 'continue'],
      ['stop', 'prompt', 'continue'],
      ['stop', 'prompt', 'continue'],
      ['stop', 'command', 'continue'],
    ]);
    expect(config.hooks[1]!.run).toEqual({ kind: 'prompt', prompt: 'done?', judge: { model: 'haiku' } });
    expect(config.hooks[1]!.timeoutMs).toBe(30_000);
    // No server named "guard" in this file: the hook runs and fails as Claude Code's "not connected" does.
    expect(config.hooks[0]!.run).toMatchObject({ kind: 'mcp_tool', server: 'guard', tool: 'check', input: { c: '${tool_input.command}' }, missing: "MCP server 'guard' is not in mcpServers of any config that runs" });
    expect(config.hooks[0]!.timeoutMs).toBe(600_000);
    // Claude Code's agent hook: 50 turns, 60 s for the whole loop.
    expect(config.hooks[2]!.run).toEqual({ kind: 'prompt', prompt: 'check', judge: {}, agent: { maxTurns: 50 } });
    expect(config.hooks[2]!.id).toBe('agent');
    expect(config.hooks[2]!.timeoutMs).toBe(60_000);
  });

  it('keys agent-hooks does not use are dropped with one warning each, never an error', async () => {
    const config = await resolve({ hooks: { PreToolUse: [{ matcher: 'Bash', description: 'x', hooks: [{ type: 'command', command: 'a.sh', commandWindows: 'a.cmd', rewakeMessage: 'hi' }] }] } });
    expect(config.layers[0]!.active).toBe(true);
    expect(config.hooks).toHaveLength(1);
    expect(config.warnings).toEqual([
      `${FILE}: hooks.PreToolUse[0].description: not a key of a Claude Code matcher group (matcher, hooks); ignored`,
      `${FILE}: hooks.PreToolUse[0].hooks[0].commandWindows: a key agent-hooks does not use; ignored (the hook runs without it)`,
      `${FILE}: hooks.PreToolUse[0].hooks[0].rewakeMessage: a key agent-hooks does not use; ignored (the hook runs without it)`,
    ]);
  });

  it('async, once, shell and statusMessage are understood; notes say how they run', async () => {
    const config = await resolve({
      hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'fmt.sh', async: true, once: true, statusMessage: 'Formatting', shell: 'bash' }] }] },
    });
    const hook = config.hooks[0]!;
    expect(hook.run).toMatchObject({ kind: 'command', async: true, statusMessage: 'Formatting' });
    expect((hook.run as { shell?: string }).shell).toBeUndefined();
    expect(hook.notes?.join('\n')).toMatch(/once: honoured by Claude Code only in skill frontmatter/);
    expect(hook.notes?.join('\n')).toMatch(/async: started and not waited for/);
  });

  it('a Claude matcher that names no known tool, or does not compile, is a warning (Claude Code matches nothing there too)', async () => {
    const config = await resolve({ hooks: { PreToolUse: [{ matcher: 'mcp__memory', hooks: [{ command: 'a.sh' }] }, { matcher: '(', hooks: [{ command: 'b.sh' }] }] } });
    expect(config.layers[0]!.active).toBe(true);
    expect(config.hooks).toHaveLength(2);
    expect(config.warnings.join('\n')).toMatch(/hooks\.PreToolUse\[1\]\.hooks\[0\]\.matcher "\(": .*not a valid regex/);
  });

  it('default timeouts are Claude Code\'s: 600 s, 30 s on UserPromptSubmit; builtins keep 30 s', async () => {
    const config = await resolve({ hooks: { UserPromptSubmit: [{ hooks: [{ command: 'a.sh' }] }, { builtin: 'redact-secrets' }], Stop: [{ command: 'b.sh' }] } });
    expect(config.hooks.map((h) => [h.event, h.timeoutMs])).toEqual([
      ['userPromptSubmit', 30000],
      ['userPromptSubmit', 30000],
      ['stop', 600000],
    ]);
  });

  it('type http needs a url; a url needs type http', async () => {
    const ok = await resolve({ hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/h', headers: { A: '$TOKEN' }, allowedEnvVars: ['TOKEN'] }] }] } });
    expect(ok.hooks[0]!.run).toEqual({ kind: 'http', url: 'http://127.0.0.1:9/h', headers: { A: '$TOKEN' }, allowedEnvVars: ['TOKEN'] });
    expect(ok.hooks[0]!.id).toBe('http');
    const error = (await resolveChosen({ hooks: { PreToolUse: [{ type: 'http' }] } }).catch((e: unknown) => e)) as HooksError;
    expect(error.message).toContain('hooks.PreToolUse[0].url: type "http" needs "url"');
  });

  it('property: any Claude-shaped list flattens without throwing, and every entry it keeps has its original key path', () => {
    const handler = fc.record(
      {
        type: fc.constantFrom('command', 'http', 'prompt', 'agent', 'mcp_tool', 'nope', 7),
        command: fc.string(),
        matcher: fc.string(),
        timeout: fc.oneof(fc.integer(), fc.string()),
        junk: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const entry = fc.oneof(fc.record({ matcher: fc.oneof(fc.string(), fc.integer()), hooks: fc.array(fc.oneof(handler, fc.anything()), { maxLength: 4 }) }, { requiredKeys: ['hooks'] }), handler, fc.anything());
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('PreToolUse', 'Stop', 'x'), fc.oneof(fc.array(entry, { maxLength: 4 }), fc.anything())), (hooks) => {
        const out = expandClaudeShape({ hooks }, FILE);
        for (const [event, keys] of out.keys) {
          const list = (out.config as { hooks: Record<string, unknown[]> }).hooks[event]!;
          expect(keys).toHaveLength(list.length);
          for (const key of keys) expect(key.startsWith(`hooks.${event}[`)).toBe(true);
        }
        for (const w of out.warnings) expect(w.startsWith(`${FILE}: hooks.`)).toBe(true);
      }),
      { seed: 3, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });
});

describe('an mcp_tool hook whose server no config gives is loud', () => {
  it('in hooks list, hooks doctor and the run that uses it', async () => {
    const { cliInProcess, isolatedEnv, tmpProject } = await import('../helpers.js');
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'mcp_tool', server: 's', tool: 't' }, { type: 'command', command: 'true' }] }] } }) });
    const env = isolatedEnv(dir, {}, { trust: true });
    const list = await cliInProcess(['list'], { cwd: dir, env });
    expect(list.stdout).toMatch(/MCP tool s\/t/);
    const doctor = await cliInProcess(['doctor'], { cwd: dir, env });
    expect(doctor.stdout).toMatch(/warning .*hooks\.Stop\[0\]\.hooks\[0\].*its MCP server cannot be called: MCP server 's' is not in mcpServers/);
    const run = await cliInProcess(['run', 'stop', '--dialect', 'claude-code'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: dir, stop_hook_active: false }) });
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/hook "mcp:s:t" failed .*MCP server 's' is not in mcpServers/);
  });
});

describe('hooks trust shows Claude-shaped entries as they will run', () => {
  it('each handler of a group, http hooks with their url and variables, async and agent types', async () => {
    const { cliInProcess, isolatedEnv, tmpProject } = await import('../helpers.js');
    const dir = tmpProject();
    const env = isolatedEnv(tmpProject());
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      path.join(dir, '.hooksrc.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: './g.sh', async: true, if: 'Bash(rm *)' }, { type: 'http', url: 'http://127.0.0.1:8/h', headers: { A: '$TOK' }, allowedEnvVars: ['TOK'] }, { type: 'agent', prompt: 'x' }] }] } }),
    );
    const r = await cliInProcess(['trust', '--yes'], { cwd: dir, env });
    expect(r.stdout).toContain('runs sh -c "./g.sh"  (matcher "Bash", in the background (async), if "Bash(rm *)")');
    expect(r.stdout).toContain('POSTs each event to "http://127.0.0.1:8/h" with headers {"A":"$TOK"}, filled from the environment variables ["TOK"]');
    expect(r.stdout).toContain('asks a model with your key (the default provider, the default model), letting it read, grep and glob the project (secret files refused) for the answer: "x"');
    const list = await cliInProcess(['list'], { cwd: dir, env });
    expect(list.stdout).toMatch(/match Bash · if Bash\(rm \*\)/);
  });

  it('a prompt hook is shown as what it runs: a model asked with your key, its provider/model and its prompt (shortened)', async () => {
    const { cliInProcess, isolatedEnv, tmpProject } = await import('../helpers.js');
    const dir = tmpProject();
    const env = isolatedEnv(tmpProject());
    const { writeFileSync } = await import('node:fs');
    const long = `Judge this. ${'x'.repeat(300)} $ARGUMENTS`;
    const hooks = [{ type: 'prompt', prompt: 'ok? $ARGUMENTS', model: 'claude-opus-4-1' }, { type: 'prompt', prompt: long, provider: 'openai' }];
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }));
    const r = await cliInProcess(['trust', '--yes'], { cwd: dir, env });
    expect(r.stdout).not.toContain('not run by agent-hooks');
    expect(r.stdout).toContain('asks a model with your key (the default provider, claude-opus-4-1): "ok? $ARGUMENTS"');
    expect(r.stdout).toContain(`asks a model with your key (openai, the default model): "${long.slice(0, 160)}... (${long.length} characters)"`);
  });
});
