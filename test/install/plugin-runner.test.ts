// The `runHooks` both generated plugins (opencode, Cline) carry, on its own: a module made of just that
// snippet, driving fake runners that are real processes (a node script per case), so the spawn, the
// TERM-then-KILL timer, the exit codes and the EPIPE guard are proven once for both plugins.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderRunHooks } from '../../src/install/plugin-runner.js';
import { tmpProject } from '../helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface Runner {
  runHooks(event: string, payload: unknown, cwd: string, failClosed: boolean): Promise<Run>;
  parseAnswer(stdout: string): Record<string, unknown>;
}

let n = 0;
/** The snippet as a module whose HOOKS_BIN is a fake runner with this body (node). */
async function runnerWith(body: string, timeoutMs = 10_000, continues = true): Promise<{ dir: string; r: Runner }> {
  const dir = tmpProject();
  const bin = path.join(dir, 'fake-hooks');
  writeFileSync(bin, `#!/usr/bin/env node\n${body}\n`);
  chmodSync(bin, 0o755);
  const file = path.join(dir, `runner-${n++}.mjs`);
  writeFileSync(file, `import { spawn } from 'node:child_process';\nconst HOOKS_BIN = ${JSON.stringify(bin)};\nconst TIMEOUT_MS = ${timeoutMs};\n${renderRunHooks('the agent', continues)}\nexport { runHooks, parseAnswer };\n`);
  return { dir, r: (await import(pathToFileURL(file).href)) as Runner };
}

describe('runHooks in a generated plugin', () => {
  it('hands the event on stdin with the args and cwd, and passes the exit code and both streams back', async () => {
    const { dir, r } = await runnerWith(
      `const input = require('fs').readFileSync(0, 'utf8'); console.log(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), input: JSON.parse(input) })); console.error('said'); process.exit(2);`,
    );
    const run = await r.runHooks('pre-tool-use', { tool_name: 'Bash' }, dir, true);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('said\n');
    expect(JSON.parse(run.stdout)).toEqual({ args: ['run', 'pre-tool-use', '--dialect', 'native', '--on-error', 'block'], cwd: dir, input: { tool_name: 'Bash' } });
    expect(JSON.parse((await r.runHooks('post-tool-use', {}, dir, false)).stdout).args).toEqual(['run', 'post-tool-use', '--dialect', 'native']);
  });

  it('a runner that ignores SIGTERM past the budget is killed and comes back as -1 with one line', async () => {
    const { dir, r } = await runnerWith(`process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`, 300);
    const run = await r.runHooks('pre-tool-use', {}, dir, false);
    expect(run).toEqual({ code: -1, stdout: '', stderr: 'agent-hooks: hooks run took over 0.3s; continuing' });
    // Fail-closed, or a plugin that blocks on any failure (Cline), never says the call goes on.
    expect((await r.runHooks('pre-tool-use', {}, dir, true)).stderr).toBe('agent-hooks: hooks run took over 0.3s');
    const blocks = await runnerWith(`setInterval(() => {}, 1000);`, 300, false);
    expect((await blocks.r.runHooks('pre-tool-use', {}, blocks.dir, false)).stderr).toBe('agent-hooks: hooks run took over 0.3s');
  }, 30_000);

  it('a runner that exits without reading a large event does not crash the host with EPIPE', async () => {
    const { dir, r } = await runnerWith(`process.exit(0);`);
    const run = await r.runHooks('pre-tool-use', { tool_input: { content: 'x'.repeat(4 << 20) } }, dir, false);
    expect(run.code).toBe(0);
  });

  it('a runner that is not there, or not executable, is code -1 naming it, not a rejection', async () => {
    const { dir, r } = await runnerWith('');
    chmodSync(path.join(dir, 'fake-hooks'), 0o644);
    const run = await r.runHooks('pre-tool-use', {}, dir, false);
    expect(run.code).toBe(-1);
    expect(run.stderr).toMatch(/^agent-hooks: cannot (run|start) .*fake-hooks: /);
  });

  it('parseAnswer takes only a JSON object; anything else is no answer', async () => {
    const { r } = await runnerWith('');
    expect(r.parseAnswer('{"decision":"modify"}\n')).toEqual({ decision: 'modify' });
    for (const text of ['', 'null', '[1]', '{broken', 'warning: {"decision":"deny"}']) expect(r.parseAnswer(text)).toEqual({});
  });
});

// Review (hostile): runHooks resolves only on the child's `close`, which waits for every holder of
// its stdout/stderr pipes. A hook that leaves a background process holding them (here a detached
// grandchild that exits by itself after 20 s) keeps the promise pending past TIMEOUT_MS and past
// the SIGKILL, so the agent's tool call hangs instead of failing closed. Expected to FAIL until the
// timer resolves on its own (resolve at kill time, or on `exit` plus a short drain).
describe('review: runHooks under a pipe-holding grandchild', () => {
  it('still resolves as -1 soon after the budget', async () => {
    const { dir, r } = await runnerWith(
      `require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(0), 20000)'], { stdio: 'inherit', detached: true }).unref(); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`,
      300,
    );
    const pending = Symbol('pending');
    const outcome = await Promise.race([r.runHooks('pre-tool-use', {}, dir, true), new Promise((resolve) => setTimeout(() => resolve(pending), 12_000))]);
    expect(outcome).not.toBe(pending);
    expect(outcome).toMatchObject({ code: -1 });
  }, 40_000);
});

// Both ways out once something else holds the runner's pipes: the KILL (a runner that ignores TERM), and an
// exit in time (whose answer must survive the short drain that replaces waiting for 'close').
describe('runHooks when a process outlives the runner with its pipes', () => {
  // A detached grandchild on the runner's stdout/stderr that ends by itself after 30 s.
  const holder = `require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(0), 30000)'], { stdio: 'inherit', detached: true }).unref();`;
  const pending = Symbol('pending');
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), ms))]);

  it('a runner that ignores TERM is done at the KILL, with the fail-closed line', async () => {
    // The TERM handler is in place before the grandchild starts; the budget leaves node time to get there.
    const { dir, r } = await runnerWith(`process.on('SIGTERM', () => {}); ${holder} setInterval(() => {}, 1000);`, 1500);
    const outcome = await within(r.runHooks('pre-tool-use', {}, dir, true), 20_000);
    expect(outcome).toEqual({ code: -1, stdout: '', stderr: 'agent-hooks: hooks run took over 1.5s' });
  }, 40_000);

  it('a runner that answers and exits in time is passed back whole, not waited on', async () => {
    // exitCode, not process.exit(): Node's writes to a pipe are asynchronous once it is full, and exit() drops
    // what is still queued (a 200 KB answer arrived cut at 64 KB on CI's loaded Node 24 line). The real runner
    // writes its answer with writeSync and waits for any stream it fell back to, so nothing of it is dropped.
    const { dir, r } = await runnerWith(`${holder} process.exitCode = 2; process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'x'.repeat(200000) }));`);
    const outcome = await within(r.runHooks('pre-tool-use', {}, dir, true), 20_000);
    expect(outcome).not.toBe(pending);
    const run = outcome as Run;
    expect(run.code).toBe(2);
    expect(r.parseAnswer(run.stdout)).toEqual({ decision: 'deny', reason: 'x'.repeat(200000) });
  }, 40_000);
});
