// The Docker MCP gateway's own interceptor contract, end to end through `hooks run --dialect docker-mcp`
// with real hook processes: the gateway's example scripts (jq) run unchanged, a CallToolResult a hook
// prints is the rewritten result (after) or the answer to the call (before), and no edit is dropped
// without a word.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerMcp } from '../../src/dialects/docker-mcp.js';
import { cliInProcess, dialectKit, isolatedEnv, tmpProject } from '../helpers.js';

const { load } = dialectKit(dockerMcp, 'docker-mcp');

function project(hooks: object) {
  const dir = tmpProject();
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks }));
  return { dir, env: isolatedEnv(dir) };
}

async function run(hooks: object, event: string, payload: unknown) {
  const p = project(hooks);
  const r = await cliInProcess(['run', event, '--dialect', 'docker-mcp'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
  return { ...r, dir: p.dir, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) };
}

const LONG = { content: [{ type: 'text', text: 'x'.repeat(300) }] };

describe('bare MCP tool names in match (the gateway sends get_file_contents, not mcp__server__...)', () => {
  const call = (name: string) => ({ method: 'tools/call', params: { name, arguments: {} } });
  const hooks = (extra: object) => ({ preToolUse: [{ id: 'no-read', match: 'get_file_contents', command: 'echo "not that one" >&2; exit 2', ...extra }] });

  it('with matchUnknownTools: true the bare name matches that call and no other', async () => {
    const blocked = await run(hooks({ matchUnknownTools: true }), 'before:exec', call('get_file_contents'));
    expect(blocked.json).toEqual({ content: [{ type: 'text', text: 'not that one' }], isError: true });
    const other = await run(hooks({ matchUnknownTools: true }), 'before:exec', call('search_code'));
    expect(other.stdout).toBe('');
  });

  it('without it, the config error says how to say it (a typo elsewhere stays an error)', async () => {
    const r = await run(hooks({}), 'before:exec', call('get_file_contents'));
    // A project file with an error is switched off, said in the gateway's log (the layers rule).
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/hooks\.preToolUse\[0\]: match: "get_file_contents" matches no known tool;.*"matchUnknownTools": true/);
  });
});

describe("a hook's stderr on success reaches the gateway's log", () => {
  const call = { method: 'tools/call', params: { name: 'search', arguments: { query: 'hello' } } };

  it("the gateway's logging example (echo ... >&2) is passed on as written, hooks in order, the call untouched", async () => {
    const r = await run(
      {
        preToolUse: [
          { id: 'log-query', command: `echo "Query=$(jq -r .params.arguments.query)" >&2` },
          { id: 'log-tool', command: `echo "tool=$(jq -r .tool_name)" >&2` },
        ],
      },
      'before:exec',
      call,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Query=hello\ntool=search\n');
  });

  it('after the call too, beside the rewritten result; a blocking exit 2 keeps stderr as the reason only', async () => {
    const after = await run({ postToolUse: [{ command: `echo trimmed >&2; jq -c '.content[].text |= (.[:3])'` }] }, 'after:exec', LONG);
    expect(after.json).toEqual({ content: [{ type: 'text', text: 'xxx' }] });
    expect(after.stderr).toBe('trimmed\n');
    const blocked = await run({ preToolUse: [{ command: 'echo no >&2; exit 2' }] }, 'before:exec', call);
    expect(blocked.json).toEqual({ content: [{ type: 'text', text: 'no' }], isError: true });
    expect(blocked.stderr).toBe('');
  });
});

describe('after: a CallToolResult on stdout is the rewritten result', () => {
  it("the gateway's own example, jq -c '.content[].text |= (.[:100])', trims the result", async () => {
    const r = await run({ postToolUse: [{ id: 'trim', command: `jq -c '.content[].text |= (.[:100])'` }] }, 'after:exec', LONG);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'x'.repeat(100) }] });
  });

  it('a python script that prints a fresh CallToolResult replaces the result', async () => {
    const script = `python3 -c "import json,sys; r=json.load(sys.stdin); print(json.dumps({'content':[{'type':'text','text':'len=%d' % len(r['content'][0]['text'])}]}))"`;
    expect((await run({ postToolUse: [{ command: script }] }, 'after', LONG)).json).toEqual({ content: [{ type: 'text', text: 'len=300' }] });
  });

  it('a later hook judges the rewritten result (the mirrored content follows the rewrite)', async () => {
    const r = await run(
      {
        postToolUse: [
          { id: 'trim', command: `jq -c '.content[].text |= (.[:5])'` },
          { id: 'check', command: `jq -e '.content[0].text == "xxxxx" and .tool_response.content[0].text == "xxxxx"' >/dev/null || { echo 'saw the old result' >&2; exit 2; }` },
        ],
      },
      'after',
      LONG,
    );
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'xxxxx' }] });
  });

  it('redact-secrets still runs on a gateway result and the redaction is what goes back', async () => {
    const token = `ghp_${'a7Xq'.repeat(9)}`;
    const r = await run({ postToolUse: [{ builtin: 'redact-secrets' }] }, 'after', { content: [{ type: 'text', text: `token ${token}` }] });
    expect(r.json?.content).toHaveLength(1);
    expect(JSON.stringify(r.json)).not.toContain('ghp_');
    expect(JSON.stringify(r.json)).toContain('REDACTED');
  });
});

describe('before: a CallToolResult on stdout answers the call; the tool does not run', () => {
  it('a successful response goes back as it is (not as an error)', async () => {
    const answer = { content: [{ type: 'text', text: 'cached: 42' }], isError: false };
    const r = await run({ preToolUse: [{ id: 'cache', command: `echo '${JSON.stringify(answer)}'` }] }, 'before:exec', load('before.json'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual(answer);
  });

  it("the gateway's before example (jq reads .params.arguments) works on the mirrored request", async () => {
    const r = await run(
      { preToolUse: [{ command: `q=$(jq -r '.params.name'); [ "$q" = get_me ] && echo '{"content":[{"type":"text","text":"answered by the interceptor"}]}'` }] },
      'before',
      load('before.json'),
    );
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'answered by the interceptor' }] });
  });

  it('an answered call ends the chain like a block: no later hook runs', async () => {
    const r = await run(
      { preToolUse: [{ id: 'answer', command: `echo '{"content":[{"type":"text","text":"ok"}]}'` }, { id: 'later', command: `touch "$HOOKS_PROJECT_DIR/later-ran"; exit 2` }] },
      'before',
      load('before.json'),
    );
    expect(r.json).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(existsSync(path.join(r.dir, 'later-ran'))).toBe(false);
  });

  it('a higher-priority guard still blocks before a hook can answer the call', async () => {
    const r = await run(
      { preToolUse: [{ builtin: 'command-safety', priority: 10 }, { command: `echo '{"content":[{"type":"text","text":"fine"}]}'` }] },
      'before',
      { method: 'tools/call', params: { name: 'execute_command', arguments: { command: 'rm -rf /' } } },
    );
    expect(r.json).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('command-safety') }] });
  });

  it('for other agents the answer is a deny with the result text (the tool never runs)', async () => {
    const p = project({ preToolUse: [{ command: `echo '{"content":[{"type":"text","text":"use the cache instead"}]}'` }] });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'ls' } }) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'use the cache instead' });
  });
});

describe('tools/list (piped by a wrapper: the gateway shows interceptors tools/call only)', () => {
  const list = { tools: [{ name: 'search', inputSchema: { type: 'object' } }, { name: 'delete_repo', inputSchema: { type: 'object' } }] };

  it('is beforeToolSelection; a restriction answers the list without the tool', async () => {
    const r = await run({ beforeToolSelection: [{ command: `echo '{"updatedRequest":{"allowed_tools":["search"]}}'` }] }, 'tools/list', list);
    expect(r.json).toEqual({ tools: [list.tools[0]] });
  });

  it('nothing said: empty stdout; a block: no tools, said in the log', async () => {
    expect((await run({ beforeToolSelection: [{ command: 'true' }] }, 'tools/list', list)).stdout).toBe('');
    const blocked = await run({ beforeToolSelection: [{ command: `echo 'no tools today' >&2; exit 2` }] }, 'tools/list', list);
    expect(blocked.json).toEqual({ tools: [] });
    expect(blocked.stderr).toContain('no tools today');
  });

  it('hooks see the tool definitions as model_request.tools', async () => {
    const r = await run({ beforeToolSelection: [{ command: `jq -e '.model_request.tools[1] == {"name":"delete_repo","input_schema":{"type":"object"}}' >/dev/null || exit 2` }] }, 'tools/list', list);
    expect(r.stdout).toBe('');
  });
});
