// OpenTelemetry export end to end: `hooks run` (in-process, from source) with real bash hooks, to an
// OTLP/HTTP receiver that decodes what arrives with the opentelemetry-proto definitions (receiver.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliInProcess, fixture, isolatedEnv, ROOT, tmpProject } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const TOKEN = `ghp_${'a7Xq'.repeat(9)}`; // not a placeholder (one repeated character is one)

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(options?: { answer?: boolean }): Promise<Receiver> {
  const r = await startReceiver(options);
  receivers.push(r);
  return r;
}

/** A project whose preToolUse runs a hook that continues, one that fails (exit 1), then one that blocks with a token in its reason. */
function project(extra: Record<string, unknown> = {}, files: Record<string, string> = {}) {
  const blocks = `printf '%s' '{"decision":"block","reason":"no: the key ${TOKEN} is in the command"}'`;
  const dir = tmpProject({
    '.hooksrc.json': JSON.stringify({
      hooks: {
        preToolUse: [
          { id: 'fine', command: fixture('bash'), env: { MODE: 'continue' } },
          { id: 'broken', command: fixture('bash'), env: { MODE: 'exit1' } },
          { id: 'blocker', command: blocks },
        ],
      },
      ...extra,
    }),
    ...files,
  });
  return dir;
}

function payload(dir: string) {
  return JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'sess-42', cwd: dir, tool_name: 'Bash', tool_input: { command: `deploy --token ${TOKEN}` }, tool_use_id: 't1' });
}

describe('hooks run with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('sends one span per event with a child per hook, attributes redacted, and the metrics', async () => {
    const r = await receiver();
    const dir = project();
    const env = isolatedEnv(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url, OTEL_SERVICE_NAME: 'hooks-under-test', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,team=a%20b' });
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input: payload(dir) });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('no: the key');
    expect(out.stderr).not.toContain('telemetry');

    expect(r.received.every((q) => q.contentType === 'application/x-protobuf')).toBe(true);
    const spans = r.spans();
    const root = spans.find((s) => s.name === 'agent-hooks preToolUse');
    expect(root).toBeDefined();
    expect(root!.parentSpanId).toBe('');
    expect(root!.status?.code).toBe(2); // STATUS_CODE_ERROR: a hook failed
    expect(root!.attributes).toMatchObject({
      'agent_hooks.event': 'preToolUse',
      'agent_hooks.decision': 'block',
      'agent_hooks.decided_by': 'blocker',
      'agent_hooks.dialect': 'claude-code',
      'agent_hooks.agent': 'Claude Code',
      'gen_ai.tool.name': 'Bash',
      'agent_hooks.tool': 'exec',
      'session.id': 'sess-42',
      'agent_hooks.project': dir,
    });
    expect(root!.attributes['agent_hooks.payload']).toBeUndefined();
    expect(root!.resource).toMatchObject({ 'service.name': 'hooks-under-test', 'deployment.environment': 'test', team: 'a b' });

    const children = spans.filter((s) => s.parentSpanId === root!.spanId);
    expect(children.map((s) => s.name)).toEqual(['agent-hooks hook fine', 'agent-hooks hook broken', 'agent-hooks hook blocker']);
    expect(children.every((s) => s.traceId === root!.traceId)).toBe(true);
    const [fine, broken, blocker] = children;
    expect(fine!.attributes).toMatchObject({ 'agent_hooks.hook.id': 'fine', 'agent_hooks.hook.kind': 'command', 'agent_hooks.hook.layer': 'project', 'agent_hooks.hook.decision': 'continue' });
    expect(fine!.status?.code ?? 0).toBe(0);
    expect(broken!.attributes['error.type']).toBe('exit-1');
    expect(broken!.status?.code).toBe(2);
    expect(blocker!.attributes['agent_hooks.hook.decision']).toBe('block');
    expect(String(blocker!.attributes['agent_hooks.hook.reason'])).toContain('no: the key');
    expect(BigInt(blocker!.startTimeUnixNano) >= BigInt(fine!.startTimeUnixNano)).toBe(true);
    // The fake token never arrives, in any request.
    expect(r.received.some((q) => q.body.includes(TOKEN))).toBe(false);

    const metrics = Object.fromEntries(r.metrics().map((m) => [m.name, m]));
    expect(metrics['agent_hooks.events']!.points).toEqual([{ attributes: { 'agent_hooks.event': 'preToolUse', 'agent_hooks.decision': 'block', 'agent_hooks.dialect': 'claude-code' }, value: 1 }]);
    expect(metrics['agent_hooks.events']!.temporality).toBe(1); // DELTA: one process, one event
    expect(metrics['agent_hooks.hook.duration']!.unit).toBe('s');
    expect(metrics['agent_hooks.hook.duration']!.points.map((p) => [p.attributes['agent_hooks.hook.id'], p.count]).sort()).toEqual([['blocker', 1], ['broken', 1], ['fine', 1]]);
    expect(metrics['agent_hooks.hook.failures']!.points).toEqual([{ attributes: { 'error.type': 'exit-1', 'agent_hooks.hook.id': 'broken', 'agent_hooks.hook.kind': 'command' }, value: 1 }]);
    const decisions = metrics['agent_hooks.hook.decisions']!.points.map((p) => `${p.attributes['agent_hooks.hook.kind']}:${p.attributes['agent_hooks.hook.decision']}=${p.value}`).sort();
    expect(decisions).toEqual(['command:block=1', 'command:continue=2']);
  });

  it('reads the telemetry key of the user config (payloads: true adds the payload, redacted), and headers', async () => {
    const r = await receiver();
    const dir = project();
    const env = isolatedEnv(dir, { XDG_CONFIG_HOME: path.join(dir, 'cfg') }, { trust: dir });
    mkdirSync(path.join(dir, 'cfg', 'agent-hooks'), { recursive: true });
    writeFileSync(path.join(dir, 'cfg', 'agent-hooks', 'config.json'), JSON.stringify({ telemetry: { otlp: { endpoint: r.url, headers: { 'x-team-key': 'k1' } }, payloads: true } }));
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input: payload(dir) });
    expect(out.code).toBe(2);
    const root = r.spans().find((s) => s.name === 'agent-hooks preToolUse');
    expect(String(root?.attributes['agent_hooks.payload'])).toContain('deploy --token');
    expect(r.received.some((q) => q.body.includes(TOKEN))).toBe(false);
    expect(r.received.every((q) => q.headers['x-team-key'] === 'k1')).toBe(true);
  });

  it('ignores a project config that sets telemetry, with one line naming the file', async () => {
    const r = await receiver();
    const dir = project({ telemetry: { otlp: { endpoint: r.url }, payloads: true } });
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir), input: payload(dir) });
    expect(out.code).toBe(2);
    // The config's warnings reach the agent with the answer (Claude Code: systemMessage).
    expect(out.stdout + out.stderr).toContain(`${path.join(dir, '.hooksrc.json')}: telemetry is read only from your user config or the managed config`);
    expect(r.received).toEqual([]);
  });

  it("ignores an endpoint or headers that a project's .env set (Gemini CLI loads it into the hooks' environment)", async () => {
    const r = await receiver();
    const dir = project({}, { '.env': `OTEL_EXPORTER_OTLP_ENDPOINT=${r.url}\n` });
    // The project is not the home folder: the search for a .env stops at home.
    const env = isolatedEnv(tmpProject(), { OTEL_EXPORTER_OTLP_ENDPOINT: r.url }, { trust: dir });
    const out = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'gemini'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'BeforeTool', session_id: 's', cwd: dir, tool_name: 'run_shell_command', tool_input: { command: 'ls' } }) });
    expect(out.stderr).toContain(`OTEL_EXPORTER_OTLP_ENDPOINT comes from ${path.join(dir, '.env')}, a project .env file`);
    expect(r.received).toEqual([]);

    // The same value set by the user (not in any .env) is used.
    const clean = project();
    const out2 = await cliInProcess(['run', 'pre-tool-use'], { cwd: clean, env: isolatedEnv(clean, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url }), input: payload(clean) });
    expect(out2.stderr).not.toContain('project .env');
    expect(r.spans().length).toBeGreaterThan(0);
  });

  it('an unreachable collector is a warning; the answer is unchanged', async () => {
    const r = await receiver();
    await r.close();
    const dir = project();
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url }), input: payload(dir) });
    expect(out.code).toBe(2);
    expect(out.stdout).toContain('"permissionDecision":"deny"');
    // The exporter retries a refused connection with backoff, past the bounded wait.
    expect(out.stderr).toMatch(/agent-hooks: telemetry: the OTLP collector \(http:\/\/127\.0\.0\.1:\d+\/v1\/traces\) did not take this event's spans and metrics within 1\.5 s \(unreachable or not answering\); they were dropped/);
  });

  it('OTEL_EXPORTER_OTLP_PROTOCOL=http/json sends OTLP/JSON', async () => {
    const r = await receiver();
    const dir = project();
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), input: payload(dir) });
    expect(out.code).toBe(2);
    const traces = r.received.filter((q) => q.path === '/v1/traces');
    expect(traces.map((q) => q.contentType)).toEqual(['application/json']);
    const body = JSON.parse(traces[0]!.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string; parentSpanId?: string }[] }[] }[] };
    const names = body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((sp) => sp.name))).sort();
    expect(names).toEqual(['agent-hooks hook blocker', 'agent-hooks hook broken', 'agent-hooks hook fine', 'agent-hooks preToolUse']);
    expect(r.received.filter((q) => q.path === '/v1/metrics').map((q) => q.contentType)).toEqual(['application/json']);
    expect(r.received.some((q) => q.body.includes(TOKEN))).toBe(false);
  });

  it('OTEL_SDK_DISABLED=true sends nothing', async () => {
    const r = await receiver();
    const dir = project();
    const out = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url, OTEL_SDK_DISABLED: 'true' }), input: payload(dir) });
    expect(out.code).toBe(2);
    expect(r.received).toEqual([]);
  });
});

describe('the built CLI against a collector that never answers', () => {
  it('gives up after the bounded wait with a warning, and exits with the decision', async () => {
    const r = await receiver({ answer: false });
    const dir = project();
    const out = await runBuiltCli(['run', 'pre-tool-use'], { cwd: dir, env: isolatedEnv(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: r.url }), input: payload(dir) });
    expect(out.code).toBe(2);
    expect(out.stdout).toContain('"permissionDecision":"deny"');
    expect(out.stderr).toContain('agent-hooks: telemetry: the OTLP collector (http://127.0.0.1:');
    expect(out.stderr).toContain('within 1.5 s (unreachable or not answering); they were dropped');
    // It did send: the receiver holds the requests unanswered.
    expect(r.received.length).toBeGreaterThan(0);
  });
});

/** bin/hooks.js as a real process, waited on without blocking this one (the receiver answers in it). A hang fails at the 30 s kill. */
function runBuiltCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}
