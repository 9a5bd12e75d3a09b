#!/usr/bin/env node
// `npm test` after the build: the vitest suite, then the repository's own `hooks test` cases, and one
// closing line counting both, `N passed, N failed`, alone on the last line (CI and people read that
// line; vitest's summary and hooks test's each count only half). Exits 1 on any failure, or when
// either half did not report (a crash must not read as "0 failed").
//
// `--typecheck` (npm test passes it) adds the type check of src/ and test/. It and the hooks test cases run
// beside vitest, not before or after it: the suite leaves about a tenth of two cores idle while its tests wait
// on processes, and the two fill it (npm test 197 -> 189 s on a quiet 2-core machine). Their output is printed
// after vitest's, whole.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-test-'));
const args = process.argv.slice(2);
const typecheck = args.includes('--typecheck');
const problems = [];
let passed = 0;
let failed = 0;

try {
  const report = path.join(tmp, 'vitest.json');
  const [vitest, checked, cases] = await Promise.all([
    // 1. vitest, with its usual output on the terminal and a JSON report to count from.
    run([path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args.filter((a) => a !== '--typecheck')], { stdio: 'inherit' }),
    // 2. The type check (TypeScript 7, docs/getting-started.md).
    typecheck ? run([path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit']) : undefined,
    // 3. hooks test on hooks-tests/, through the CLI as a user runs it.
    run([path.join(root, 'bin', 'hooks.js'), 'test', '--json'], { env: isolated() }),
  ]);

  const counts = readJson(report);
  if (counts === undefined) {
    problems.push(`vitest wrote no report (exit ${vitest.status ?? vitest.signal})`);
  } else {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    // A file that fails to load has no test to count: it still fails the run.
    if (vitest.status !== 0 && counts.numFailedTests === 0) problems.push(`vitest exited ${vitest.status ?? vitest.signal} with no failed test (a test file that does not load?)`);
  }

  if (checked !== undefined) {
    process.stdout.write(`\ntype check (src/, test/): ${checked.status === 0 ? 'no errors' : 'failed'}\n`);
    if (checked.status !== 0) {
      process.stdout.write(checked.stdout + checked.stderr);
      problems.push(`the type check failed (exit ${checked.status ?? checked.signal})`);
    }
  }

  process.stdout.write('\nhooks test (hooks-tests/)\n');
  process.stderr.write(cases.stderr);
  let result;
  try {
    result = JSON.parse(cases.stdout);
  } catch {
    problems.push(`hooks test gave no JSON report (exit ${cases.status ?? cases.signal})`);
  }
  if (result !== undefined) {
    for (const c of result.cases) {
      // `!`: passed on the decision, but a hook failed that the case does not expect to (hooks test's own mark).
      const mark = c.status === 'failed' ? '✗' : c.status === 'skipped' ? '-' : c.hookFailures ? '!' : '✓';
      process.stdout.write(` ${mark} ${c.name} ${c.file}${c.key ? ` ${c.key}` : ''}\n`);
      for (const f of c.hookFailures ?? []) process.stdout.write(`     hook ${f.id} failed (${f.kind}): ${String(f.message).split('\n')[0]}\n`);
      if (c.status === 'failed') process.stdout.write(`${JSON.stringify({ failures: c.failures, note: c.note, actual: c.actual }, null, 2).replace(/^/gm, '     ')}\n`);
    }
    passed += result.passed;
    failed += result.failed;
    if (cases.status !== 0 && result.failed === 0) problems.push(`hooks test exited ${cases.status} with no failed case`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// A half that crashed or did not load counts as a failure: the closing line never says "0 failed" on exit 1.
for (const problem of problems) process.stdout.write(`\n${problem}\n`);
failed += problems.length;
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;

/**
 * The environment of the `hooks test` phase: a home of its own, as the vitest tests have (test/helpers.ts
 * isolatedEnv), so a contributor's own user layer, trust store, managed layer or switches (HOOKS_SKIP, ...) never
 * change what the repository's cases see; temporary files go in the run's folder, removed with it.
 */
function isolated() {
  const home = path.join(tmp, 'home');
  const env = { ...process.env, HOME: home, TMPDIR: tmp, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, '.local', 'state'), XDG_CACHE_HOME: path.join(home, '.cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed-agent-hooks.json') };
  for (const name of Object.keys(env)) if (/^HOOKS_/.test(name) || name === 'CLAUDE_PROJECT_DIR' || name === 'XDG_RUNTIME_DIR') delete env[name];
  return env;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Runs `node <args>` in the repository; its output is kept (or shown as it comes, with stdio: 'inherit'). */
function run(nodeArgs, { stdio = 'pipe', env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: root, env, stdio: stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    child.stdout?.setEncoding('utf8').on('data', (d) => (out.stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d) => (out.stderr += d));
    child.on('error', (error) => resolve({ ...out, status: null, signal: error.message }));
    child.on('close', (status, signal) => resolve({ ...out, status, signal }));
  });
}
