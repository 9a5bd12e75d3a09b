// `hooks test [paths...]`: runs test cases (an event and the decision it must get) through the engine.
import { HooksError } from '../../errors.js';
import { findCaseFiles, loadCaseFile, showPath, type CaseFile } from '../../testing/load.js';
import { summarize } from '../../testing/report.js';
import { runCases, type CaseResult } from '../../testing/run.js';
import { saveCaseFile, setExpectation, updatedExpectation } from '../../testing/update.js';
import type { Command } from '../command.js';
import { wantsColour } from '../context.js';
import { createStyle } from '../style.js';

const REPORTERS = ['text', 'json', 'junit'] as const;
type ReporterName = (typeof REPORTERS)[number];

export const command: Command = {
  help: `Usage: hooks test [paths...] [options]

Runs test cases through the same engine as hooks run and checks the combined decision. A case
file (JSON or YAML) holds one case, a list of cases, or { "cases": [...] }; each case has a
name, an event (inline, a sample, or a file), and what to expect. Paths are case files or
folders (searched for .json, .yaml, .yml; files named *hooksrc* are configs, not cases).
Default: hooks-tests/. Format and examples: docs/testing.md.

Options:
  --config <path>      the config for cases that name none (default: the config search from
                       each case file's folder, as hooks run does)
  --hook <id>          test this hook alone, in every case whose event has it (others are skipped)
  --filter <text>      only cases whose name contains text (case-insensitive)
  --reporter <name>    text (default) | json | junit (JUnit XML for CI)
  --json               same as --reporter json
  --update             write the current decision into failing cases' expectations (JSON files;
                       YAML files are left alone and the expectation to paste is printed);
                       not with --hook

A case passes only on what the agent would see: an untrusted (or edited since trusted) project
config fails its cases with one line naming the file and hooks trust; a config that does not
validate fails its cases with the file and key path; a hook that failed where the case names no
failure is shown under the case (marked !) and counted above the summary.

Exit codes: 0 all passed, 1 a case failed, or a runner error (bad case file, a config file that is
not there; one line on stderr naming the file and key path).

Examples:
  npx agent-hooks test
  npx agent-hooks test hooks-tests/no-force-push.json --filter lease
  npx agent-hooks test --hook no-force-push
  npx agent-hooks test --reporter junit > hooks-junit.xml
`,
  args: {
    positional: [],
    rest: 'paths',
    flags: { config: 'string', hook: 'string', filter: 'string', reporter: 'string', json: 'boolean', update: 'boolean' },
  },
  async run(args, ctx) {
    const reporter = reporterName(args.flags);
    if (args.flags.update === true && typeof args.flags.hook === 'string') {
      // One hook's decision is not what the whole config decides: it must not become the expectation.
      throw new HooksError('USAGE', '--update cannot be used with --hook: a case expects what the whole config decides; set "hook" in the case to test one hook alone');
    }
    const paths = args.rest;
    const files = await findCaseFiles(paths, ctx.cwd);
    const caseFiles: CaseFile[] = [];
    for (const file of files) {
      caseFiles.push(await loadCaseFile(file, { cwd: ctx.cwd, ...(typeof args.flags.config === 'string' ? { config: args.flags.config } : {}) }));
    }
    const filter = typeof args.flags.filter === 'string' ? args.flags.filter.toLowerCase() : undefined;
    const cases = caseFiles.flatMap((f) => f.cases).filter((c) => filter === undefined || c.name.toLowerCase().includes(filter));
    if (cases.length === 0) {
      throw new HooksError('USAGE', `no test cases${filter === undefined ? '' : ` match --filter "${args.flags.filter}"`} in ${files.map((f) => showPath(f, ctx.cwd)).join(', ')}`);
    }

    // The report goes to stdout: colour only when that is a terminal.
    const s = createStyle(reporter === 'text' && wantsColour(ctx.stdoutIsTTY, ctx.env));
    const { formatCase, formatSummary } = await import('../../testing/reporters/text.js');
    const notes: string[] = [];
    const touched = new Set<CaseFile>();
    const started = performance.now();
    const results = await runCases(cases, {
      cwd: ctx.cwd,
      env: ctx.env,
      ...(typeof args.flags.hook === 'string' ? { hook: args.flags.hook } : {}),
      signal: ctx.signal,
      onResult(result) {
        if (args.flags.update === true) update(result, caseFiles, touched, notes, ctx.cwd);
        if (reporter === 'text') ctx.stdout(formatCase(result, ctx.cwd, s));
      },
    });
    for (const file of touched) await saveCaseFile(file);
    if (typeof args.flags.hook === 'string' && results.every((r) => r.status === 'skipped')) {
      throw new HooksError('USAGE', `--hook ${args.flags.hook}: no case's event has a hook with that id`);
    }
    const report = summarize(results, ctx.cwd, Math.round(performance.now() - started), notes);

    if (reporter === 'json') ctx.stdout((await import('../../testing/reporters/json.js')).formatJson(report));
    else if (reporter === 'junit') ctx.stdout((await import('../../testing/reporters/junit.js')).formatJunit(report));
    else ctx.stdout(formatSummary(report, s));
    return report.failed > 0 ? 1 : 0;
  },
};

function reporterName(flags: Record<string, string | boolean | undefined>): ReporterName {
  const name = flags.json === true ? 'json' : (flags.reporter ?? 'text');
  if (flags.json === true && flags.reporter !== undefined && flags.reporter !== 'json') {
    throw new HooksError('USAGE', `--json and --reporter ${String(flags.reporter)} contradict each other`);
  }
  if (!REPORTERS.includes(name as ReporterName)) {
    throw new HooksError('USAGE', `--reporter: expected ${REPORTERS.join(', ')}, got "${String(name)}"`);
  }
  return name as ReporterName;
}

/** A failed case gets the current decision as its expectation; JSON files only (YAML would lose its comments). */
function update(result: CaseResult, caseFiles: CaseFile[], touched: Set<CaseFile>, notes: string[], cwd: string): void {
  if (result.status !== 'failed' || result.observed === undefined) return;
  const file = caseFiles.find((f) => f.cases.includes(result.case))!;
  const current = result.case.raw.expect as Record<string, unknown> | undefined;
  const next = updatedExpectation(current, result.checks, result.observed);
  if (file.format !== 'json') {
    const where = `${showPath(file.file, cwd)}${result.case.key === '' ? '' : `: ${result.case.key}`}`;
    notes.push(`${where}: not updated (--update rewrites JSON case files only, a rewrite would drop the YAML's comments); set it by hand: expect: ${JSON.stringify(next)}`);
    return;
  }
  setExpectation(result.case.raw, next);
  touched.add(file);
  result.status = 'updated';
}

