// The docker-mcp dialect: the gateway's tools/call request or CallToolResult in; empty stdout to pass,
// a CallToolResult to answer (before) or replace (after); always exit 0 (any other exit fails the call).
import { describe, expect, it } from 'vitest';
import { dockerMcp } from '../../src/dialects/docker-mcp.js';
import { dialectKit } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(dockerMcp, 'docker-mcp');

describe('docker-mcp: toEvent', () => {
  it.each([
    ['before.json', undefined, 'preToolUse', 'get_me', { }],
    ['before.blocked.json', 'before:exec', 'preToolUse', 'execute_command', { command: 'rm -rf ./victim', timeout_ms: 30000 }],
    ['before.go-struct.json', 'before', 'preToolUse', 'search', { query: 'hello', options: { limit: 3 }, enabled: false }],
    ['after.request-response.json', 'after:exec', 'postToolUse', 'get_me', {}],
  ])('%s (%s) → %s on %s', (file, name, event, tool, input) => {
    const e = ev(file, name);
    expect(e.name).toBe(event);
    expect(e.payload.hook_event_name).toBe(event === 'preToolUse' ? 'PreToolUse' : 'PostToolUse');
    expect(e.payload.tool_name).toBe(tool);
    expect(e.payload.tool_input).toEqual(input);
  });

  it('MCP tool names keep their names; mcp__<server>__<tool> when the request names the server', () => {
    expect(ev('before.blocked.json').tool).toEqual({ name: 'execute_command', canonical: 'exec' });
    expect(dockerMcp.toEvent({ ...load('before.json'), server: 'github' }, undefined).tool).toEqual({ name: 'mcp__github__get_me', canonical: 'mcp__github__get_me' });
  });

  it('after: the result is tool_response; a bare result does not name its tool', () => {
    const e = ev('after.json', 'after');
    expect(e.payload.tool_response).toEqual(load('after.json'));
    expect(e.payload.tool_name).toBe('mcp');
    expect(ev('after.request-response.json').payload.tool_response).toEqual({ content: [{ type: 'text', text: '{"login":"dev"}' }], isError: false });
  });

  // Neither shape: refused, never passed on as an unnamed tool with no arguments.
  it.each([
    [{}, 'before', /^stdin: a docker-mcp before event must be an MCP tools\/call request: \{"method": "tools\/call", "params"/],
    [{ method: 'tools/list' }, 'before:exec', /^stdin: a docker-mcp before:exec event must be an MCP tools\/call request/],
    [{}, 'after', /^stdin: a docker-mcp after event must be a CallToolResult: \{"content": \[\.\.\.\]/],
    [{ result: 'ok' }, 'after:exec', /^stdin: a docker-mcp after:exec event must be a CallToolResult/],
  ])('an unrecognised payload %j on %s is EVENT_INVALID naming the expected shapes', (payload, name, message) => {
    expect(() => dockerMcp.toEvent(payload, name)).toThrow(expect.objectContaining({ code: 'EVENT_INVALID', message: expect.stringMatching(message) }));
  });

  it('names other than before/after are unknown', () => {
    expect(() => ev('before.json', 'during')).toThrow(expect.objectContaining({ code: 'EVENT_UNKNOWN', message: expect.stringContaining('docker-mcp events: before, before:exec') }));
    expect(() => ev('before.json', 'after')).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
  });
});

describe('docker-mcp: answer', () => {
  const blocked = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

  it('pass: empty stdout (the gateway reads any byte as a result), exit 0', () => {
    expect(dockerMcp.answer(decide(ev('before.json'), 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(dockerMcp.answer(decide(ev('before.json'), 'allow'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('block and halt: an error CallToolResult with the reason, exit 0', () => {
    expect(json(decide(ev('before.blocked.json'), 'block', { reason: 'no rm' }))).toMatchObject({ exitCode: 0, json: blocked('no rm') });
    expect(json(decide(ev('before.blocked.json'), 'halt', { reason: 'stop' })).json).toEqual(blocked('stop'));
  });

  it('ask and input rewrites cannot be expressed: the call is refused, with a warning in the gateway log', () => {
    const ask = json(decide(ev('before.json'), 'ask', { reason: 'sure?' }));
    expect(ask.json).toEqual(blocked('sure? (a hook asked for confirmation, which the MCP gateway cannot ask for)'));
    expect(ask.stderr).toContain('cannot ask for');
    const rewrite = json(decide(ev('before.json'), 'modify', { updatedInput: { x: 1 } }));
    expect(rewrite.json?.isError).toBe(true);
    expect(rewrite.stderr).toContain('cannot pass on');
  });

  it('after: an output rewrite replaces the result; a string becomes a text block', () => {
    const e = ev('after.json', 'after');
    const redacted = { content: [{ type: 'text', text: '{"login":"dev","token":"[REDACTED]"}' }] };
    expect(json(decide(e, 'modify', { updatedOutput: { value: redacted } })).json).toEqual(redacted);
    expect(json(decide(e, 'modify', { updatedOutput: { value: 'plain' } })).json).toEqual({ content: [{ type: 'text', text: 'plain' }] });
    expect(json(decide(e, 'block', { reason: 'hidden' })).json).toEqual(blocked('hidden'));
  });

  it('after: context rides along the result as one more text block; before: dropped with a warning', () => {
    expect(json(decide(ev('after.request-response.json'), 'continue', { additionalContext: ['note'] })).json).toEqual({
      content: [{ type: 'text', text: '{"login":"dev"}' }, { type: 'text', text: 'note' }],
      isError: false,
    });
    const before = json(decide(ev('before.json'), 'continue', { additionalContext: ['note'] }));
    expect(before.stdout).toBe('');
    expect(before.stderr).toContain('dropped');
  });

  it('failures go to the gateway log (stderr) only', () => {
    expect(dockerMcp.answer(decide(ev('before.json'), 'continue', { warnings: ['w'] }))).toEqual({ stdout: '', stderr: 'agent-hooks: w\n', exitCode: 0 });
  });
});
