// sampleEvent: realistic Claude Code payloads, per event and per tool, that the runner accepts as they are.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventFromClaudePayload } from '../../src/dialects/payload.js';
import { EVENTS } from '../../src/events/catalog.js';
import { EVENT_FIELDS, SESSION_FIELDS, TOOL_EVENT_FIELDS } from '../../src/events/fields.js';
import { parseInputPairs, sampleEvent, sampleToolName } from '../../src/events/samples.js';
import { ROOT } from '../helpers.js';

const CWD = '/home/dev/project';
// The real payloads Claude Code sent, kept in the repository (a fresh clone has nothing beside it).
const REAL = path.join(ROOT, 'test', 'fixtures', 'payloads', 'claude');
const opts = { cwd: CWD, home: '/home/dev' };

/** The real payload Claude Code sent for this event (and tool), when the fixtures have one. */
function real(name: string): Record<string, unknown> | undefined {
  const files = readdirSync(REAL);
  return files.includes(`${name}.json`) ? (JSON.parse(readFileSync(path.join(REAL, `${name}.json`), 'utf8')) as Record<string, unknown>) : undefined;
}

describe('sampleEvent', () => {
  it('gives every event a payload the runner accepts, named as Claude Code names it', () => {
    for (const spec of EVENTS) {
      const payload = sampleEvent(spec.cli, opts);
      expect(payload.hook_event_name).toBe(spec.claude);
      expect(payload.cwd).toBe(CWD);
      expect(payload.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(payload.transcript_path).toBe(`/home/dev/.claude/projects/-home-dev-project/${String(payload.session_id)}.jsonl`);
      const event = eventFromClaudePayload(payload, spec.name);
      expect(event.name).toBe(spec.name);
      if (spec.tool) expect(event.tool).toEqual({ name: 'Bash', canonical: 'exec' });
    }
  });

  it("names only fields the event's field table knows (so an `if` on them is checked, not refused)", () => {
    for (const spec of EVENTS) {
      const payload = sampleEvent(spec.cli, opts);
      const known = new Set([...SESSION_FIELDS, ...TOOL_EVENT_FIELDS, 'tool_input', 'effort', ...(EVENT_FIELDS[spec.name] ?? [])]);
      expect(Object.keys(payload).filter((k) => !known.has(k)), spec.name).toEqual([]);
    }
  });

  it('has the same top-level fields as the real Claude Code payloads', () => {
    const pairs: [string, string, string?][] = [
      ['PreToolUse.Bash', 'pre-tool-use', 'exec'],
      ['PreToolUse.Read', 'pre-tool-use', 'read'],
      ['PreToolUse.Write', 'pre-tool-use', 'write'],
      ['PreToolUse.Edit', 'pre-tool-use', 'edit'],
      ['PostToolUse.Bash', 'post-tool-use', 'exec'],
      ['PostToolUse.Read', 'post-tool-use', 'read'],
      ['PostToolUse.Write', 'post-tool-use', 'write'],
      ['PostToolUse.Edit', 'post-tool-use', 'edit'],
      ['PostToolUseFailure.Bash', 'post-tool-use-failure', 'exec'],
      ['UserPromptSubmit', 'user-prompt-submit'],
      ['Stop', 'stop'],
      ['SubagentStop', 'subagent-stop'],
      ['PreCompact', 'pre-compact'],
      ['SessionEnd', 'session-end'],
    ];
    let compared = 0;
    for (const [file, event, tool] of pairs) {
      const want = real(file);
      if (want === undefined) throw new Error(`missing fixture ${file}.json`);
      const got = sampleEvent(event, { ...opts, ...(tool === undefined ? {} : { tool }) });
      expect(Object.keys(got).sort(), file).toEqual(Object.keys(want).sort());
      if (isObject(want.tool_input)) expect(Object.keys(got.tool_input as object).sort(), file).toEqual(Object.keys(want.tool_input).sort());
      if (isObject(want.tool_response)) expect(Object.keys(got.tool_response as object).sort(), file).toEqual(Object.keys(want.tool_response).sort());
      compared++;
    }
    expect(compared).toBe(pairs.length);
  });

  it('takes canonical and raw tool names, and shapes tool_response per tool', () => {
    expect(sampleEvent('pre-tool-use', { ...opts, tool: 'exec' }).tool_name).toBe('Bash');
    expect(sampleEvent('pre-tool-use', { ...opts, tool: 'web_fetch' }).tool_name).toBe('WebFetch');
    expect(sampleEvent('pre-tool-use', { ...opts, tool: 'MultiEdit' }).tool_name).toBe('MultiEdit');
    // Another agent's spelling keeps its name and borrows the canonical tool's input.
    const gemini = sampleEvent('pre-tool-use', { ...opts, tool: 'run_shell_command' });
    expect(gemini.tool_name).toBe('run_shell_command');
    expect(gemini.tool_input).toHaveProperty('command');
    const read = sampleEvent('post-tool-use', { ...opts, tool: 'read', input: { file_path: '/home/dev/project/.env' } });
    expect(read.tool_response).toMatchObject({ type: 'text', file: { filePath: '/home/dev/project/.env' } });
    const mcp = sampleEvent('post-tool-use', { ...opts, tool: 'mcp__github__create_issue' });
    expect(mcp.tool_name).toBe('mcp__github__create_issue');
    expect(sampleEvent('post-tool-use-failure', opts).error).toMatch(/^Exit code 1/);
  });

  it('gives fresh ids that look like the real ones', () => {
    const a = sampleEvent('pre-tool-use', opts);
    const b = sampleEvent('pre-tool-use', opts);
    expect(a.tool_use_id).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
    expect(a.tool_use_id).not.toBe(b.tool_use_id);
    expect(a.session_id).not.toBe(b.session_id);
  });

  it('input sets tool-input fields (deep-merged), and drops the Bash description that would go stale', () => {
    const p = sampleEvent('pre-tool-use', { ...opts, input: { command: 'git push --force' } });
    expect(p.tool_input).toEqual({ command: 'git push --force' });
    expect(sampleEvent('pre-tool-use', opts).tool_input).toEqual({ command: 'npm test', description: 'Run the test suite' });
    const edit = sampleEvent('pre-tool-use', { ...opts, tool: 'edit', input: { replace_all: true } });
    expect(edit.tool_input).toMatchObject({ file_path: '/home/dev/project/src/index.ts', replace_all: true });
  });

  it('input sets event fields on events without a tool; fields set top-level fields', () => {
    expect(sampleEvent('stop', { ...opts, input: { stop_hook_active: true } }).stop_hook_active).toBe(true);
    expect(sampleEvent('user-prompt-submit', { ...opts, input: { prompt: 'deploy' } }).prompt).toBe('deploy');
    expect(sampleEvent('pre-tool-use', { ...opts, fields: { permission_mode: 'plan' } }).permission_mode).toBe('plan');
  });

  it('native dialect: the event without Claude Code session extras or hook_event_name', () => {
    const p = sampleEvent('pre-tool-use', { ...opts, dialect: 'native' });
    for (const key of ['hook_event_name', 'transcript_path', 'permission_mode', 'effort', 'prompt_id']) expect(p).not.toHaveProperty(key);
    expect(p).toMatchObject({ cwd: CWD, tool_name: 'Bash' });
  });

  it('rejects unknown events and tools with a suggestion, and --tool on events without one', () => {
    expect(() => sampleEvent('pre-tol-use', opts)).toThrow(/unknown event "pre-tol-use" \(did you mean "pre-tool-use"\?\)/);
    expect(() => sampleEvent('pre-tool-use', { ...opts, tool: 'Bsh' })).toThrow(/unknown tool "Bsh" \(did you mean "Bash"\?\)/);
    expect(() => sampleEvent('stop', { ...opts, tool: 'exec' })).toThrow(/stop has no tool/);
    expect(sampleToolName('apply_patch')).toBe('apply_patch');
  });
});

describe('parseInputPairs', () => {
  it('parses JSON values when they parse, else keeps strings; dotted keys nest', () => {
    expect(parseInputPairs(['command=ls -la', 'timeout=5000', 'replace_all=true', 'a.b.c=1', 'a.b.d="x"', 'list=["x"]'])).toEqual({
      command: 'ls -la',
      timeout: 5000,
      replace_all: true,
      a: { b: { c: 1, d: 'x' } },
      list: ['x'],
    });
    expect(parseInputPairs(['url=https://a.b/c?d=e'])).toEqual({ url: 'https://a.b/c?d=e' });
  });

  it('takes a whole JSON object', () => {
    expect(parseInputPairs(['{"file_path":"a","content":"b"}'])).toEqual({ file_path: 'a', content: 'b' });
  });

  it('rejects a pair without a key', () => {
    expect(() => parseInputPairs(['=x'])).toThrow(/expected key=value/);
    expect(() => parseInputPairs(['command'])).toThrow(/expected key=value/);
    expect(() => parseInputPairs(['a..b=1'])).toThrow(/empty key/);
  });
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

