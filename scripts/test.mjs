#!/usr/bin/env node
// `npm test` after the build: the vitest suite, then the repository's own `hooks test` cases, and one
// closing line counting both, `N passed, N failed`, alone on the last line (CI and people read that
// line; vitest's summary and hooks test's each count only half). Exits 1 on any failure, or when
// either half did not report (a crash must not read as "0 failed").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-test-'));
const problems = [];
let passed = 0;
let failed = 0;

try {
  // 1. vitest, with its usual output on the terminal and a JSON report to count from.
  const report = path.join(tmp, 'vitest.json');
  const vitest = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
    { cwd: root, stdio: 'inherit' },
  );
  const counts = readJson(report);
  if (counts === undefined) {
    problems.push(`vitest wrote no report (exit ${vitest.status ?? vitest.signal})`);
  } else {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    // A file that fails to load has no test to count: it still fails the run.
    if (vitest.status !== 0 && counts.numFailedTests === 0) problems.push(`vitest exited ${vitest.status ?? vitest.signal} with no failed test (a test file that does not load?)`);
  }

  // 2. hooks test on hooks-tests/, through the CLI as a user runs it.
  process.stdout.write('\nhooks test (hooks-tests/)\n');
  const cases = spawnSync(process.execPath, [path.join(root, 'bin', 'hooks.js'), 'test', '--json'], {
    cwd: root,
    env: isolated(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
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
