// The audit-log guard: one record per hook and per event, secrets redacted, safe under concurrent runners.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendRecords, auditLogPath, tornMark, type AuditIo } from '../../src/guards/audit-log.js';
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
    // An explicit --config: it runs without `hooks trust`, as the user's own choice.
    const project = tmpProject({ 'hooks.json': JSON.stringify(config) });
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const runs = Array.from({ length: 8 }, () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'run', 'pre-tool-use', '--config', 'hooks.json'], { cwd: project, env: isolatedEnv(project) });
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

describe('audit-log never follows a symlink and never tears', () => {
  const appendOnce = (dir: string, file: string, text = '{"a":1}\n', io?: AuditIo) => appendRecords(file, text, dir, io);

  it('a planted .hooks/audit.jsonl -> ~/.bashrc is refused with one line; the target is untouched', async () => {
    const home = tmpProject({ '.bashrc': 'export PS1=x\n' });
    const dir = tmpProject();
    mkdirSync(path.join(dir, '.hooks'));
    symlinkSync(path.join(home, '.bashrc'), path.join(dir, '.hooks', 'audit.jsonl'));
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'audit-log', options: { path: path.join(dir, '.hooks', 'audit.jsonl') } }] } });
    const decision = await runner.run(bash('ls'));
    expect(decision.warnings).toEqual([`hook "audit-log" could not record the run: refusing to write the audit log ${path.join(dir, '.hooks', 'audit.jsonl')}: it is a symbolic link`]);
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('export PS1=x\n');
  });

  it('a planted folder symlink inside the project is refused too', () => {
    const elsewhere = tmpProject();
    const dir = tmpProject();
    symlinkSync(elsewhere, path.join(dir, '.hooks'));
    expect(() => appendOnce(dir, path.join(dir, '.hooks', 'audit.jsonl'))).toThrow(`refusing to write the audit log ${path.join(dir, '.hooks', 'audit.jsonl')}: ${path.join(dir, '.hooks')} is a symbolic link`);
    expect(existsSync(path.join(elsewhere, 'audit.jsonl'))).toBe(false);
    // Nor does it create folders on the other side of the link first.
    expect(() => appendOnce(dir, path.join(dir, '.hooks', 'new', 'audit.jsonl'))).toThrow('is a symbolic link');
    expect(existsSync(path.join(elsewhere, 'new'))).toBe(false);
  });

  it('a FIFO is refused without hanging the runner', () => {
    const dir = tmpProject();
    const fifo = path.join(dir, 'audit.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(() => appendOnce(dir, fifo)).toThrow(/not a regular file|ENXIO/);
  });

  it.runIf(process.getuid?.() === 0)('a file owned by another user is refused', () => {
    const dir = tmpProject({ 'audit.jsonl': '' });
    const file = path.join(dir, 'audit.jsonl');
    chownSync(file, 65534, 65534);
    expect(() => appendOnce(dir, file)).toThrow(`refusing to write the audit log ${file}: it is owned by uid 65534, not by you (uid 0)`);
  });

  it('the default log is stateDir/audit.jsonl, the file 0600 in a 0700 folder', async () => {
    const home = tmpProject();
    const state = path.join(home, 'state');
    const runner = await runnerWith({ hooks: { preToolUse: [{ builtin: 'audit-log' }] } }, { env: { XDG_STATE_HOME: state } });
    await runner.run(bash('ls'));
    const file = path.join(state, 'agent-hooks', 'audit.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(records(file)).toHaveLength(1);
  });

  it('a short write is reported, and the next record starts on a fresh line (injected write)', () => {
    const dir = tmpProject();
    const file = path.join(dir, 'audit.jsonl');
    appendOnce(dir, file, '{"n":1}\n');
    const short: AuditIo = { write: (fd, data, offset) => writeSync(fd, data, offset, 5) };
    expect(() => appendOnce(dir, file, '{"n":2,"long":"xxxxxxxx"}\n', short)).toThrow(`short write to the audit log ${file}: 5 of 26 bytes (disk full or file size limit?); this run's records are torn, the next run starts on a fresh line`);
    expect(existsSync(tornMark(file))).toBe(true);
    appendOnce(dir, file, '{"n":3}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":\n{"n":3}\n');
    expect(existsSync(tornMark(file))).toBe(false);
    appendOnce(dir, file, '{"n":4}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":\n{"n":3}\n{"n":4}\n');
  });

  it('a real short write (file size limit, ulimit -f) through the CLI: a warning, the decision stands, no glued record', () => {
    const dir = tmpProject();
    const log = path.join(dir, 'audit.jsonl');
    const reason = 'r'.repeat(6000);
    writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify({ hooks: { preToolUse: [{ id: 'no', command: `echo ${reason} >&2; exit 2` }, { builtin: 'audit-log', options: { path: log, maxReasonLength: 10_000 } }] } }));
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'bin', 'hooks.js'))} run pre-tool-use --config hooks.json`;
    // 4 KiB: the first run's records (two lines of over 6 KB each) cannot fit.
    const limited = spawnSync('bash', ['-c', `ulimit -f 4; ${cli}`], { cwd: dir, env: isolatedEnv(dir), input: event, encoding: 'utf8' });
    expect(limited.status).toBe(2);
    // The warning rides in the answer (Claude Code: systemMessage); stderr carries the block reason.
    expect(limited.stdout).toContain(`short write to the audit log ${log}: 4096 of `);
    const normal = spawnSync('bash', ['-c', cli], { cwd: dir, env: isolatedEnv(dir), input: event, encoding: 'utf8' });
    expect(normal.status).toBe(2);
    const lines = readFileSync(log, 'utf8').split('\n');
    expect(lines[0]).toHaveLength(4096);
    // Every line after the torn one is a whole record.
    expect(lines.slice(1, -1).map((l) => JSON.parse(l).kind)).toEqual(['hook', 'event']);
  });
});
