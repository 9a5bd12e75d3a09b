// Reads measurement suites built from other projects' published tests. They live outside the
// repository on purpose (they measure recall, not consistency with our own corpus); a missing
// folder is skipped with a message, never an error.
//
// A suite is `<folder>/<name>/suite.json`:
//   commands: { "kind": "commands", "dangerous": [{ "command", "mode"?, "pack"? }], "ordinary": [...] }
//   paths:    { "kind": "paths", "sensitive": [{ "tool": "Bash"|"Read"|"Write"|"Edit", "input" }], "ordinary": [...] }
// Rows with a `mode` were asserted by their project under a non-default mode (strict, paranoid,
// worktree): they are left out of the default-mode figures. An optional `<name>/policy.json`,
// `[{ "command"|"input", "why" }]`, lists rows whose verdict is a policy choice; figures are given
// with and without them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
// For its temporary folders: removed when the script exits.
import './kit.mjs';

export function suitesFolder(argv) {
  const i = argv.indexOf('--suites');
  return i !== -1 ? argv[i + 1] : (process.env.GUARD_SUITES ?? '/work/suites/guards');
}

/** The suites of `kind` in `folder`, or [] with a message when there are none. */
export function loadSuites(folder, kind) {
  if (folder === undefined || !existsSync(folder)) {
    console.log(`suites: ${folder ?? '(none)'} not found; skipping the suite figures (pass --suites <folder> or set GUARD_SUITES)`);
    return [];
  }
  const suites = [];
  for (const name of readdirSync(folder).sort()) {
    const file = join(folder, name, 'suite.json');
    if (!existsSync(file)) continue;
    let suite;
    try {
      suite = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      console.log(`suites: ${file}: not JSON (${error.message}); skipped`);
      continue;
    }
    if (suite.kind !== kind) continue;
    const policyFile = join(folder, name, 'policy.json');
    const policy = existsSync(policyFile) ? JSON.parse(readFileSync(policyFile, 'utf8')) : [];
    suites.push({ name, ...suite, policy: new Map(policy.map((p) => [p.command ?? `${p.tool ?? ''}\0${p.input}`, p.why])) });
  }
  if (suites.length === 0) console.log(`suites: no ${kind} suites in ${folder}`);
  return suites;
}

export const pct = (n, d) => (d === 0 ? '—' : `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`);

/** `--before <dist>`: a build of the previous version, judged on the same rows in the same run. */
export async function beforeModule(argv, file) {
  const i = argv.indexOf('--before');
  if (i === -1) return undefined;
  const { pathToFileURL } = await import('node:url');
  return import(pathToFileURL(join(argv[i + 1], file)).href);
}
