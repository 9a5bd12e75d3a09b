// Matching a hook to an event: tool globs, groups, raw names, `if` on input fields.
import { describe, expect, it } from 'vitest';
import { checkToolPattern, selectHooks } from '../../src/match/select.js';
import { bash, event } from '../helpers.js';

const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
/** A hook as the resolver makes it: every glob field a list. */
const hook = (extra: Record<string, unknown>) => ({
  id: 'h',
  enabled: true,
  ...extra,
  ...(extra.if === undefined ? {} : { if: Object.fromEntries(Object.entries(extra.if as object).map(([k, v]) => [k, list(v)])) }),
});
const picks = (h: Record<string, unknown>, ev = bash('git push origin main')) => selectHooks([hook(h)], ev)[0]!.selected;

describe('selectHooks', () => {
  it.each([
    [{ match: ['exec'] }, true],
    [{ match: ['Bash'] }, true],
    [{ match: ['ex*'] }, true],
    [{ match: ['group:runtime'] }, true],
    [{ match: ['group:fs'] }, false],
    [{ match: ['read', 'exec'] }, true],
    // Any agent's spelling of the tool, in any case: ai4j's `bash`, Codex's `shell`, Gemini's name.
    [{ match: ['bash'] }, true],
    [{ match: ['BASH'] }, true],
    [{ match: ['shell'] }, true],
    [{ match: ['run_shell_command'] }, true],
    [{ match: ['run_*'] }, true],
    [{ match: ['read_file'] }, false],
    [{ if: { command: 'git push*' } }, true],
    [{ if: { command: ['rm *', 'git *'] } }, true],
    [{ if: { command: 'git pull*' } }, false],
    [{ if: { command: '*origin*' } }, true],
    [{ if: { nonexistent: '*' } }, false],
    [{ match: ['exec'], if: { command: 'git*' } }, true],
  ])('%j on `git push origin main` → %s', (h, expected) => {
    expect(picks(h)).toBe(expected);
  });

  it("a matcher written for one agent fires on every agent's spelling of the tool", () => {
    const codex = event('preToolUse', { tool_name: 'shell', tool_input: { command: 'ls' } });
    const gemini = event('preToolUse', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    for (const ev of [bash('ls'), codex, gemini]) for (const pattern of ['bash', 'Bash', 'shell', 'exec']) expect(picks({ match: [pattern] }, ev), `${pattern} on ${ev.tool?.name}`).toBe(true);
    const patch = event('preToolUse', { tool_name: 'apply_patch', tool_input: { input: '' } });
    expect(picks({ match: ['apply-patch'] }, patch)).toBe(true);
    expect(picks({ match: ['Write'] }, patch)).toBe(false);
  });

  it('path fields match by basename, and relative to the event cwd', () => {
    const edit = event('preToolUse', { cwd: '/home/dev/project', tool_name: 'Edit', tool_input: { file_path: '/home/dev/project/src/app/.env' } });
    expect(picks({ if: { file_path: '*.env' } }, edit)).toBe(true);
    expect(picks({ if: { file_path: '.env' } }, edit)).toBe(true);
    expect(picks({ if: { file_path: 'src/**' } }, edit)).toBe(true);
    expect(picks({ if: { file_path: 'test/**' } }, edit)).toBe(false);
    expect(picks({ match: ['edit'] }, edit)).toBe(true);
    expect(picks({ match: ['group:fs'] }, edit)).toBe(true);
  });

  it('a newline in a path does not take it out of a ** glob (picomatch builds ** on ".", which stops at one)', () => {
    for (const file of ['/home/dev/project/src/a\nb/.env', '/home/dev/project/src/\n/x.ts', 'src/x\n.ts']) {
      const edit = event('preToolUse', { cwd: '/home/dev/project', tool_name: 'Edit', tool_input: { file_path: file } });
      expect(picks({ if: { file_path: 'src/**' } }, edit), JSON.stringify(file)).toBe(true);
      expect(picks({ if: { file_path: 'test/**' } }, edit), JSON.stringify(file)).toBe(false);
    }
  });

  it('a path field is read as the path it names, however the agent spells it', () => {
    for (const file of ['/home/dev/project/src//app/.env', '/home/dev/project/./src/app/.env', '/home/dev/project/test/../src/app/.env', 'src/./app/.env']) {
      const edit = event('preToolUse', { cwd: '/home/dev/project', tool_name: 'Edit', tool_input: { file_path: file } });
      expect(picks({ if: { file_path: 'src/app/.env' } }, edit), file).toBe(true);
    }
    const detour = event('preToolUse', { cwd: '/home/dev/project', tool_name: 'Edit', tool_input: { file_path: '/home/dev/project/src/../test/x.ts' } });
    expect(picks({ if: { file_path: 'src/**' } }, detour)).toBe(false);
  });

  it('commands spanning lines still match', () => {
    expect(picks({ if: { command: '*deploy --prod*' } }, bash('cd app &&\n  deploy --prod'))).toBe(true);
  });

  it('if also reads top-level fields (prompt, source)', () => {
    expect(picks({ if: { prompt: '*deploy*' } }, event('userPromptSubmit', { prompt: 'please deploy it' }))).toBe(true);
    expect(picks({ if: { source: 'resume' } }, event('sessionStart', { source: 'startup' }))).toBe(false);
  });

  it('MCP tools keep their names', () => {
    const mcp = event('preToolUse', { tool_name: 'mcp__github__create_issue', tool_input: {} });
    expect(picks({ match: ['mcp__github__*'] }, mcp)).toBe(true);
    expect(picks({ match: ['exec'] }, mcp)).toBe(false);
  });

  it('a tool matcher never matches an event without a tool', () => {
    expect(selectHooks([hook({ match: ['*'] })], event('stop', {}))[0]).toMatchObject({ selected: false, why: 'has a tool matcher, and this event has no tool' });
  });
});

describe('checkToolPattern', () => {
  it.each([['exec'], ['Bash'], ['*'], ['web_*'], ['group:web'], ['mcp__x__y'], ['run_shell_command'], ['Glob']])('%s is fine', (p) => {
    expect(checkToolPattern(p)).toBeUndefined();
  });
  it.each([['Bsh'], ['shel'], ['group:xyz'], ['exec_']])('%s is an error', (p) => {
    expect(checkToolPattern(p)).toBeDefined();
  });
});
