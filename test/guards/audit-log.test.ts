// The audit-log guard: one record per hook and per event, secrets redacted, safe under concurrent runners.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLogPath } from '../../src/guards/audit-log.js';
import { bash, fixture, isolatedEnv, ROOT, runnerWith, tmpProject } from '../helpers.js';

const TOKEN = `ghp_${'a7Xq'.repeat(9)}`; // not a placeholder (one repeated character is one)

function records(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
}

describe('audit-log', () => {
  it('writes one record per hook and one per event, even when an earlier hook blocked', async () => {
    const log = path.join(tmpProject(), 'logs', 'audit.jsonl');
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'ok', command: fixture('bash'), env: { MODE: 'continue' } },
          { id: 'no', command: fixture('python'), env: { MODE: 'block-exit2' } },
          { builtin: 'audit-log', options: { path: log } },
        ],
      },
    });
    const decision = await runner.run(bash('make deploy'));
    expect(decision.decision).toBe('block');
    const [ok, no, event] = records(log);
    expect(ok).toMatchObject({ v: 1, kind: 'hook', event: 'preToolUse', tool: 'exec', toolName: 'Bash', hook: 'ok', outcome: 'continue', sessionId: 'test-session', source: { layer: 'project' } });
    expect(no).toMatchObject({ kind: 'hook', hook: 'no', outcome: 'block', reason: 'blocked by python' });
    expect(event).toMatchObject({ kind: 'event', decision: 'block', decidedBy: 'no', reason: 'blocked by python', hooks: 2 });
    expect(event!.payloadHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ok!.runId).toBe(event!.runId);
    expect(typeof event!.ts).toBe('string');
    // The audit log takes no part in the chain.
    expect(decision.results.map((r) => r.id)).toEqual(['ok', 'no']);
  });

  it('records failures with their kind, and redacts secrets in reasons; never the payload itself', async () => {
    const log = path.join(tmpProject(), 'audit.jsonl');
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'leaky', command: `echo "token ${TOKEN} is bad" >&2; exit 2` },
          { builtin: 'audit-log', options: { path: log } },
        ],
        stop: [
          { id: 'broken', command: fixture('node'), env: { MODE: 'exit1' } },
          { builtin: 'audit-log', options: { path: log } },
        ],
      },
    });
    await runner.run(bash(`echo ${TOKEN}`));
    await runner.run({ name: 'stop', payload: { hook_event_name: 'Stop' } });
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('[REDACTED:github-token]');
    const broken = records(log).find((r) => r.hook === 'broken');
    expect(broken).toMatchObject({ failure: 'exit-1', failureMessage: 'exited with 1: node broke', outcome: 'continue' });
  });

  it('a log it cannot write is a warning, and the decision stands', async () => {
    const dir = tmpProject({ 'file-not-dir': 'x' });
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'audit-log', options: { path: path.join(dir, 'file-not-dir', 'audit.jsonl') } }, { id: 'no', command: 'exit 2' }] } });
    const decision = await runner.run(bash('ls'));
    expect(decision.decision).toBe('block');
    expect(decision.warnings[0]).toMatch(/^hook "audit-log" could not record the run: /);
  });

  it('defaults to $XDG_STATE_HOME/agent-hooks/audit.jsonl, and ~ and relative paths resolve', () => {
    const ctx = { projectDir: '/p', env: { HOME: '/h', XDG_STATE_HOME: '/state' } };
    expect(auditLogPath({}, ctx)).toBe('/state/agent-hooks/audit.jsonl');
    expect(auditLogPath({}, { projectDir: '/p', env: { HOME: '/h' } })).toBe('/h/.local/state/agent-hooks/audit.jsonl');
    expect(auditLogPath({ path: '~/logs/a.jsonl' }, ctx)).toBe('/h/logs/a.jsonl');
    expect(auditLogPath({ path: '.hooks/a.jsonl' }, ctx)).toBe('/p/.hooks/a.jsonl');
  });

  it('eight runners writing at once leave every line whole', async () => {
    const dir = tmpProject();
    const log = path.join(dir, 'audit.jsonl');
    // Long reasons make each run's write large enough that interleaving would show.
    const reason = 'x'.repeat(20_000);
    const config = { hooks: { preToolUse: [{ id: 'big', command: `echo '{"decision":"allow","reason":"${reason}"}'` }, { builtin: 'audit-log', options: { path: log, maxReasonLength: 50_000 } }] } };
    const project = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const runs = Array.from({ length: 8 }, () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'run', 'pre-tool-use'], { cwd: project, env: isolatedEnv(project) });
        child.stdin.end(event);
        child.on('close', resolve);
      }),
    );
    expect(await Promise.all(runs)).toEqual(Array(8).fill(0));
    const lines = records(log);
    expect(lines).toHaveLength(16);
    expect(lines.filter((l) => l.kind === 'hook').every((l) => l.reason.length === 20_000)).toBe(true);
    expect(new Set(lines.map((l) => l.runId)).size).toBe(8);
  });
});
