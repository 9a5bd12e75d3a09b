// Validation and merging: every error names the file and the exact key path; defaults and ids.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import type { ConfigLayer } from '../../src/config/load.js';
import { HooksError } from '../../src/errors.js';

const FILE = '/home/dev/project/.hooksrc.json';
const project = (config: unknown): ConfigLayer => ({ layer: 'project', file: FILE, dir: path.dirname(FILE), config });
const resolve = (config: unknown, layers: ConfigLayer[] = []) => resolveConfig([...layers, project(config)], { cwd: '/home/dev/project' });

async function errorOf(config: unknown, layers: ConfigLayer[] = []): Promise<HooksError> {
  const error = await resolve(config, layers).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HooksError);
  return error as HooksError;
}

describe('config errors name the file and the key path', () => {
  it.each([
    [{ hooks: { preToolUse: [{ command: 'a' }, { command: 'b' }, { command: 'c', timeout: '5' }] } }, 'hooks.preToolUse[2].timeout: expected number, received string'],
    [{ hooks: { preToolUse: [{ command: 'a', timout: 5 }] } }, 'hooks.preToolUse[0].timout: unknown key (did you mean "timeout"?)'],
    [{ hooks: { preTooluse: [{ command: 'a' }] } }, 'hooks.preTooluse: unknown event (did you mean "preToolUse"?)'],
    [{ hooks: { stop: [{ command: 'a', onFailure: 'explode' }] } }, 'hooks.stop[0].onFailure: expected one of "block"|"continue"'],
    [{ hooks: { stop: [{ id: 'x' }] } }, 'hooks.stop[0]: needs "command" or "builtin"'],
    [{ hooks: { stop: [{ command: 'a', builtin: 'b' }] } }, 'hooks.stop[0].builtin: use either "command" or "builtin", not both'],
    [{ hooks: { stop: [{ args: ['x'], builtin: 'command-safety' }] } }, 'hooks.stop[0].args: "args" needs "command"'],
    [{ hooks: { preToolUse: [{ command: 'a', match: 'Bsh' }] } }, 'hooks.preToolUse[0]: match: "Bsh" matches no known tool'],
    [{ hooks: { preToolUse: [{ command: 'a', match: 'group:nope' }] } }, 'hooks.preToolUse[0]: match: unknown tool group "group:nope"'],
    [{ hooks: { preToolUse: [{ command: 'a', match: '/^nonexistent_tool$/' }] } }, 'hooks.preToolUse[0]: match: "/^nonexistent_tool$/" matches no known tool'],
    [{ hooks: { preToolUse: [{ command: 'a', match: ['exec', '/^Bsh$/i'] }] } }, 'hooks.preToolUse[0]: match: "/^Bsh$/i" matches no known tool'],
    [{ hooks: { stop: [{ command: 'a', match: 'exec' }] } }, 'hooks.stop[0]: match: stop has no tool to match'],
    [{ hooks: { stop: [{ builtin: 'comand-safety' }] } }, 'hooks.stop[0]: builtin: unknown guard "comand-safety"'],
    [{ defaults: { timeout: -1 } }, 'defaults.timeout: must be greater than 0'],
    [{ hook: {} }, 'hook: unknown key (did you mean "hooks"?)'],
    [{ hooks: { preToolUse: { command: 'a' } } }, 'hooks.preToolUse: expected array, received object'],
  ])('%j', async (config, expected) => {
    const error = await errorOf(config);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`${FILE}: ${expected}`);
    expect(error.message).not.toContain('\n');
  });

  it('every problem is listed, the message names the first and counts the rest', async () => {
    const error = await errorOf({ hooks: { preToolUse: [{ command: 'a', timeout: 'x' }, { command: 'b', priority: 1.5 }] } });
    expect(error.context.issues).toHaveLength(2);
    expect(error.message).toMatch(/timeout: .* \(\+1 more\)$/);
  });

  it('one bad layer fails the whole config: nothing is silently dropped', async () => {
    const user: ConfigLayer = { layer: 'user', file: '/home/dev/.config/agent-hooks/config.json', dir: '/home/dev/.config/agent-hooks', config: { hooks: { stop: [{ command: 'ok' }] } } };
    const error = await errorOf({ hooks: { stop: [{ command: 5 }] } }, [user]);
    expect(error.message).toContain(`${FILE}: hooks.stop[0].command`);
  });

  it('a regex that matches a known name, or names MCP tools, passes; matchUnknownTools lets a plugin tool through', async () => {
    const config = await resolve({
      hooks: {
        preToolUse: [
          { command: 'a', match: ['/^(Edit|Write)$/', '/shell/i', '/^mcp__github__/'] },
          { command: 'b', match: ['/^nonexistent_tool$/', 'get_file_contents'], matchUnknownTools: true },
        ],
      },
    });
    expect(config.hooks.map((h) => h.match)).toEqual([['/^(Edit|Write)$/', '/shell/i', '/^mcp__github__/'], ['/^nonexistent_tool$/', 'get_file_contents']]);
    // The opt-out is for names, not syntax: a broken regex is still an error.
    const error = await errorOf({ hooks: { preToolUse: [{ command: 'a', match: '/(/', matchUnknownTools: true }] } });
    expect(error.message).toContain(`${FILE}: hooks.preToolUse[0]: match: /(/: not a valid regex`);
  });

  it('a tool match on the known names passes: canonical, raw, glob, group, MCP', async () => {
    const config = await resolve({
      hooks: { preToolUse: [{ command: 'a', match: ['exec', 'Bash', 'web_*', 'group:fs', 'mcp__github__*', 'run_shell_command'] }] },
    });
    expect(config.hooks[0]!.match).toHaveLength(6);
  });
});

describe('resolved hooks', () => {
  it('apply defaults, seconds to ms, and remember where they came from', async () => {
    const config = await resolve({
      defaults: { timeout: 10, onFailure: 'block', env: { A: '1', B: '1' } },
      hooks: { 'pre-tool-use': [{ command: './guards/check.sh', env: { B: '2' } }, { command: 'x', timeout: 2.5, onFailure: 'continue' }] },
    });
    const [a, b] = config.hooks;
    expect(a).toMatchObject({ id: 'check', event: 'preToolUse', timeoutMs: 10_000, onFailure: 'block', env: { A: '1', B: '2' }, priority: 0, parallel: false, enabled: true });
    expect(a!.source).toEqual({ layer: 'project', file: FILE, key: 'hooks.pre-tool-use[0]' });
    expect(b).toMatchObject({ timeoutMs: 2500, onFailure: 'continue' });
  });

  it.each([
    ['python3 guards/no_force_push.py', undefined, 'no_force_push'],
    ['./hooks-examples/audit.sh', undefined, 'audit'],
    ['npx prettier --check', undefined, 'npx-prettier'],
    ['node', ['scripts/format.mjs'], 'format'],
  ])('derives a readable id from %s', async (command, args, id) => {
    const config = await resolve({ hooks: { stop: [{ command, ...(args ? { args } : {}) }] } });
    expect(config.hooks[0]!.id).toBe(id);
  });

  it('derived ids stay unique within an event', async () => {
    const config = await resolve({ hooks: { stop: [{ command: './a.sh one' }, { command: './a.sh two' }, { command: './a.sh three' }] } });
    expect(config.hooks.map((h) => h.id)).toEqual(['a', 'a-2', 'a-3']);
  });

  it('all three spellings of an event name the same event', async () => {
    const config = await resolve({ hooks: { preToolUse: [{ command: 'a' }], 'pre-tool-use': [{ command: 'b' }], PreToolUse: [{ command: 'c' }] } });
    expect(new Set(config.hooks.map((h) => h.event))).toEqual(new Set(['preToolUse']));
  });

  it('only the local layer may override by id', async () => {
    const error = await errorOf({ hooks: { stop: [{ id: 'x', enabled: false }] } });
    expect(error.message).toContain('needs "command" or "builtin"');
    const local: ConfigLayer = { layer: 'local', file: '/p/.hooksrc.local.json', dir: '/p', config: { hooks: { stop: [{ id: 'missing', enabled: false }] } } };
    const missing = await resolveConfig([project({ hooks: { stop: [{ id: 'x', command: 'a' }] } }), local], { cwd: '/p' }).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('override: no hook "missing" on stop in the earlier layers');
  });
});
