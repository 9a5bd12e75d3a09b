#!/usr/bin/env node
// Keep the agent from stopping with untested changes: when `git status` shows changed source
// files and the marker `.hooks/tests-passed` is missing or older than the newest change,
// answer "block" so the agent runs the tests first.
//
// The marker is written by a passing test run, not by this hook, e.g. in package.json:
//   "posttest": "mkdir -p .hooks && touch .hooks/tests-passed"   (npm runs posttest only on success)
// Set HOOKS_TEST_COMMAND (e.g. "npm test") to name the command in the instruction.
//
// Config (.hooksrc.json), for the main agent and, if you like, for subagents:
//   { "hooks": {
//       "stop":         [{ "id": "require-tests", "command": "node hooks-examples/require-tests-before-stop.mjs" }],
//       "subagentStop": [{ "id": "require-tests", "command": "node hooks-examples/require-tests-before-stop.mjs" }] } }
//
// Answers: {"decision":"block","reason":"Run the tests before stopping: ..."} on stdout, or
// exit 0 with no output to let the agent stop (also outside a git repo, or on odd input).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|sh)$/;
const MARKER = join('.hooks', 'tests-passed');

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
}

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

function main() {
  let event = {};
  try {
    event = JSON.parse(readFileSync(0, 'utf8')) ?? {};
  } catch {
    // no event to read: judge the working tree anyway
  }
  // Claude Code sets stop_hook_active when the agent is already continuing because a stop
  // hook blocked. Blocking again could keep it going forever (say, when the tests cannot
  // pass), so the second time round we let it stop.
  if (event.stop_hook_active === true) return;

  const dir = [process.env.HOOKS_PROJECT_DIR, process.env.CLAUDE_PROJECT_DIR, event.cwd].find(
    (d) => typeof d === 'string' && d && mtime(d) !== undefined,
  ) ?? process.cwd();
  let top, status;
  try {
    top = git(dir, 'rev-parse', '--show-toplevel').trim();
    // -z: paths verbatim (no quoting); all: each file in a new directory, not just the directory
    status = git(top, 'status', '--porcelain', '-z', '--untracked-files=all');
  } catch {
    return; // not a repository, or git missing or slow: nothing to judge
  }

  const changed = [];
  const entries = status.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const [xy, path] = [entries[i].slice(0, 2), entries[i].slice(3)];
    if (xy[0] === 'R' || xy[0] === 'C') i++; // renames and copies are followed by the old path
    if (SOURCE.test(path) && !path.startsWith('.hooks/')) changed.push(path);
  }
  if (!changed.length) return;

  // Deleted files have no mtime; their change still counts when there is no marker at all.
  const newest = Math.max(0, ...changed.map((p) => mtime(join(top, p)) ?? 0));
  const marker = mtime(join(dir, MARKER));
  if (marker !== undefined && marker >= newest) return;

  const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? `, and ${changed.length - 5} more` : '');
  const how = process.env.HOOKS_TEST_COMMAND ? `\`${process.env.HOOKS_TEST_COMMAND}\`` : 'the test suite';
  const reason =
    `Run the tests before stopping: ${changed.length} source file(s) changed ` +
    `${marker === undefined ? 'and no passing test run is recorded' : 'since the last passing test run'} (${shown}). ` +
    `Run ${how}; a passing run updates ${MARKER}. If tests fail, fix them or say why you cannot.`;
  process.stdout.write(JSON.stringify({ decision: 'block', reason }) + '\n');
}

main();
