// `hooks test` on real case files and real hook processes. The command runs in-process (cliInProcess: the
// same argv, cwd, env and exit code); what is about the process (the exit code the shell sees, no colour
// when stdout is a pipe) is checked on the built bin.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

// Two hooks, a rewrite and a guard, as a project would have them. In python3: what is tested is hooks
// test, not the hook's language (test/run proves every language), and python3 starts in a seventh of node's CPU.
const REWRITE = `import json, sys
e = json.load(sys.stdin)
c = e['tool_input']['command']
if c.startswith('ls '):
    print(json.dumps({'decision': 'modify', 'reason': 'colour off', 'updatedInput': {**e['tool_input'], 'command': c.replace('ls ', 'ls --color=never ', 1)}}))
`;
const GUARD = `import json, os, sys
e = json.load(sys.stdin)
word = os.environ.get('FORBIDDEN', 'production')
if word in e['tool_input']['command']:
    sys.stderr.write('no ' + word + ' commands')
    sys.exit(2)
`;
const CONFIG = {
  hooks: {
    preToolUse: [
      { id: 'rewrite-ls', command: 'python3 hooks/rewrite.py', match: 'exec' },
      { id: 'no-prod', command: 'python3 hooks/guard.py', match: 'exec' },
    ],
  },
};

const exec = (command: string) => ({ sample: 'pre-tool-use', tool: 'exec', input: { command } });
const PASSING = [
  { name: 'rewrites ls', event: exec('ls -la'), expect: { decision: 'modify', updatedInput: { command: 'ls --color=never -la' }, ran: ['rewrite-ls', 'no-prod'] } },
  { name: 'blocks production', event: exec('deploy production'), expect: { decision: 'block', reason: '/^no production/' } },
];
const FAILING = { name: 'wrongly expects allow', event: exec('deploy production'), expect: { decision: 'allow', reason: 'fine' } };

function project(cases: Record<string, unknown>, extra: Record<string, string> = {}) {
  const files: Record<string, string> = {
    '.hooksrc.json': JSON.stringify(CONFIG),
    'hooks/rewrite.py': REWRITE,
    'hooks/guard.py': GUARD,
    ...Object.fromEntries(Object.entries(cases).map(([name, content]) => [name, typeof content === 'string' ? content : JSON.stringify(content, null, 2)])),
    ...extra,
  };
  const dir = tmpProject(files);
  const env = isolatedEnv(dir);
  return {
    dir,
    env,
    run: (args: string[] = []) => cliInProcess(['test', ...args], { cwd: dir, env }),
    /** The built bin as a real process: for what the shell sees. */
    spawn: (args: string[] = []) => runCli(['test', ...args], { cwd: dir, env }),
  };
}

/** `hooks test` in-process, in `dir` with `env`. */
const test = (dir: string, env: NodeJS.ProcessEnv, args: string[] = []) => cliInProcess(['test', ...args], { cwd: dir, env });

const lines = (text: string) => text.split('\n');

describe('hooks test', () => {
  it('passing cases: ✓ per case, the summary line alone, exit 0, no colour off a terminal (the built bin, stdout a pipe)', () => {
    const p = project({ 'hooks-tests/basic.json': PASSING });
    const r = p.spawn();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✓ rewrites ls hooks-tests\/basic\.json \[0\] \d+ms$/m);
    expect(r.stdout).toMatch(/^✓ blocks production hooks-tests\/basic\.json \[1\] \d+ms$/m);
    expect(lines(r.stdout)).toContain('2 passed, 0 failed');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('a failing case: ✗, what failed, a diff of expected and actual, exit 1 (the built bin)', () => {
    const p = project({ 'hooks-tests/basic.json': { cases: [...PASSING, FAILING] } });
    const r = p.spawn();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ wrongly expects allow hooks-tests\/basic\.json cases\[2\] \d+ms$/m);
    expect(r.stdout).toContain('    decision: expected allow, got block\n');
    expect(r.stdout).toContain('    reason: expected text containing "fine", got "no production commands"\n');
    expect(r.stdout).toContain('    -   "decision": "allow"\n    +   "decision": "block"\n');
    expect(r.stdout).toContain('    -   "reason": "fine"\n    +   "reason": "no production commands"\n');
    expect(lines(r.stdout)).toContain('2 passed, 1 failed');
  });

  it('a case with no expectation fails and says how to record one', async () => {
    const r = await project({ 'hooks-tests/new.json': { name: 'new', event: exec('ls -la') } }).run();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no "expect": add one, or run npx agent-hooks test --update');
    expect(lines(r.stdout)).toContain('0 passed, 1 failed');
  });

  it('--json: counts, and per case the status, what the engine decided and what failed', async () => {
    const r = await project({ 'hooks-tests/basic.json': [...PASSING, FAILING] }).run(['--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ passed: 2, failed: 1, skipped: 0 });
    expect(report.cases.map((c: { status: string }) => c.status)).toEqual(['passed', 'passed', 'failed']);
    expect(report.cases[0].actual).toMatchObject({ decision: 'modify', updatedInput: { command: 'ls --color=never -la' }, ran: ['rewrite-ls', 'no-prod'] });
    expect(report.cases[2]).toMatchObject({ name: 'wrongly expects allow', file: 'hooks-tests/basic.json', key: '[2]' });
    expect(report.cases[2].failures.map((f: { field: string }) => f.field)).toEqual(['decision', 'reason']);
  });

  it('--reporter junit: XML with the right counts, one testcase per case, escaped names', async () => {
    const cases = [...PASSING, { ...FAILING, name: 'allow <prod> & "quotes"' }];
    const p = project({ 'hooks-tests/a.json': cases, 'hooks-tests/b.json': PASSING });
    const r = await p.run(['--reporter', 'junit']);
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(r.stdout).toMatch(/<testsuites name="hooks test" tests="5" failures="1" errors="0" skipped="0" time="[\d.]+">/);
    expect(r.stdout).toMatch(/<testsuite name="hooks-tests\/a\.json" tests="3" failures="1"/);
    expect(r.stdout).toMatch(/<testsuite name="hooks-tests\/b\.json" tests="2" failures="0"/);
    expect(r.stdout.match(/<testcase /g)).toHaveLength(5);
    expect(r.stdout.match(/<failure /g)).toHaveLength(1);
    expect(r.stdout).toContain('name="allow &lt;prod&gt; &amp; &quot;quotes&quot;"');
    // Balanced: every opened element is closed.
    for (const tag of ['testsuites', 'testsuite', 'failure']) {
      expect(r.stdout.match(new RegExp(`<${tag}[ >]`, 'g'))?.length).toBe(r.stdout.match(new RegExp(`</${tag}>`, 'g'))?.length);
    }
  });

  it('--filter runs only the cases whose name contains the text', async () => {
    const p = project({ 'hooks-tests/basic.json': [...PASSING, FAILING] });
    const r = await p.run(['--filter', 'REWRITES']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ rewrites ls');
    expect(r.stdout).not.toContain('production');
    expect(lines(r.stdout)).toContain('1 passed, 0 failed');
    const none = await p.run(['--filter', 'nothing like it']);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('agent-hooks: no test cases match --filter "nothing like it" in hooks-tests/basic.json\n');
  });

  it('--update writes the current decision into failing cases, keeps the rest, and a second run passes', async () => {
    const p = project({ 'hooks-tests/basic.json': { cases: [...PASSING, FAILING, { name: 'new', event: exec('ls -la') }] } });
    const file = path.join(p.dir, 'hooks-tests', 'basic.json');
    const r = await p.run(['--update']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('↻ wrongly expects allow');
    expect(lines(r.stdout)).toContain('4 passed, 0 failed');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.cases.slice(0, 2)).toEqual(PASSING);
    expect(written.cases[2].expect).toEqual({ decision: 'block', reason: 'no production commands' });
    expect(written.cases[3].expect).toEqual({ decision: 'modify', reason: 'colour off', updatedInput: { command: 'ls --color=never -la' } });
    const again = await p.run();
    expect(again.code).toBe(0);
    expect(lines(again.stdout)).toContain('4 passed, 0 failed');
  });

  it('--update leaves YAML files alone and prints the expectation to paste', async () => {
    const yaml = '# my cases\nname: wrong\nevent: { sample: pre-tool-use, input: { command: deploy production } }\nexpect: { decision: allow }\n';
    const p = project({ 'hooks-tests/a.yaml': yaml });
    const r = await p.run(['--update']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hooks-tests/a.yaml: not updated (--update rewrites JSON case files only');
    expect(r.stdout).toContain('expect: {"decision":"block","reason":"no production commands"}');
    expect(readFileSync(path.join(p.dir, 'hooks-tests', 'a.yaml'), 'utf8')).toBe(yaml);
  });

  it('hook (in the case) and --hook test one hook alone', async () => {
    const alone = { name: 'guard alone', event: exec('ls -la'), expect: { decision: 'continue', ran: ['no-prod'] } };
    const p = project({ 'hooks-tests/a.json': [alone], 'hooks-tests/b.json': [{ ...alone, name: 'named in the case', hook: 'no-prod' }] });
    const all = await p.run(['hooks-tests/a.json']);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('ran: expected [no-prod] to run, ran [rewrite-ls, no-prod]');
    const flag = await p.run(['hooks-tests/a.json', '--hook', 'no-prod']);
    expect(flag.code).toBe(0);
    expect(lines(flag.stdout)).toContain('1 passed, 0 failed');
    expect((await p.run(['hooks-tests/b.json'])).code).toBe(0);
    const typo = await p.run(['hooks-tests/a.json', '--hook', 'no-prd']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe("agent-hooks: --hook no-prd: no case's event has a hook with that id\n");
  });

  it('--update with --hook is refused (one hook\'s decision is not the whole config\'s), and nothing is written', async () => {
    const cases = [{ name: 'no expectation yet', event: exec('ls -la') }];
    const p = project({ 'hooks-tests/a.json': cases });
    const r = await p.run(['--update', '--hook', 'no-prod']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('agent-hooks: --update cannot be used with --hook: a case expects what the whole config decides; set "hook" in the case to test one hook alone\n');
    expect(JSON.parse(readFileSync(path.join(p.dir, 'hooks-tests', 'a.json'), 'utf8'))).toEqual(cases);
  });

  it("file and inline events in other agents' formats are judged as hooks run judges them", async () => {
    const gemini = { session_id: 's', transcript_path: '/home/dev/.gemini/tmp/chats/session.json', cwd: '/p', hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00.000Z', tool_name: 'run_shell_command', tool_input: { command: 'deploy production' } };
    const cursor = { hook_event_name: 'beforeShellExecution', conversation_id: 'c', generation_id: 'g', cursor_version: '3.9.16', command: 'deploy production', cwd: '/p' };
    const copilot = { sessionId: 's', timestamp: 1795301092650, cwd: '/p', toolName: 'bash', toolArgs: { command: 'ls -la' } };
    const cases = [
      { name: 'gemini inline', event: gemini, expect: { decision: 'block', reason: 'no production commands', ran: ['rewrite-ls', 'no-prod'] } },
      { name: 'cursor file', event: { file: 'cursor.json' }, expect: { decision: 'block', reason: 'no production commands' } },
      { name: 'copilot camelCase, named by eventName', event: copilot, eventName: 'preToolUse', expect: { decision: 'modify', updatedInput: { command: 'ls --color=never -la' } } },
    ];
    const p = project({ 'hooks-tests/agents.json': cases, 'hooks-tests/cursor.json': cursor });
    // hooks-tests/cursor.json is a payload, not a case file: run the case file alone.
    const r = await p.run(['hooks-tests/agents.json']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toContain('3 passed, 0 failed');
    expect(r.code).toBe(0);
    // The same payloads through hooks run (dialect detected): the same decisions.
    const run = async (payload: object, args: string[] = []) => JSON.parse((await cliInProcess(['run', ...args], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) })).stdout);
    expect(await run(gemini)).toMatchObject({ decision: 'deny', reason: 'no production commands' });
    expect(await run(cursor)).toMatchObject({ permission: 'deny', user_message: 'no production commands' });
    expect(await run(copilot, ['preToolUse'])).toMatchObject({ modifiedArgs: { command: 'ls --color=never -la' } });
  });

  it('env in a case reaches the hooks; config is found from the case file, or named', async () => {
    const cases = [
      { name: 'env', env: { FORBIDDEN: 'staging' }, event: exec('deploy staging'), expect: { decision: 'block', reason: 'no staging commands' } },
    ];
    const p = project({ 'elsewhere/cases.json': { config: '../.hooksrc.json', cases } });
    expect((await p.run(['elsewhere'])).code).toBe(0);
    const found = project({ 'hooks-tests/cases.json': cases });
    expect((await found.run()).code).toBe(0);
  });

  it('runner errors are one line naming the case file and key path, exit 1', async () => {
    const badCase = await project({ 'hooks-tests/a.json': { cases: [PASSING[0], { ...PASSING[1], expect: { decison: 'block' } }] } }).run();
    expect(badCase.code).toBe(1);
    expect(badCase.stdout).toBe('');
    expect(badCase.stderr).toBe('agent-hooks: hooks-tests/a.json: cases[1].expect.decison: unknown key (did you mean "decision"?)\n');

    const missingConfig = await project({ 'hooks-tests/a.json': [{ ...PASSING[0], config: '../nowhere.json' }] }).run();
    expect(missingConfig.code).toBe(1);
    expect(missingConfig.stderr).toMatch(/^agent-hooks: hooks-tests\/a\.json: \[0\]\.config: \S*nowhere\.json: config file not found\n$/);

    const unknownHook = await project({ 'hooks-tests/a.json': { ...PASSING[0], hook: 'nope' } }).run();
    expect(unknownHook.stderr).toMatch(/^agent-hooks: hooks-tests\/a\.json: hook: no hook "nope" on preToolUse in \.hooksrc\.json \(its hooks: rewrite-ls, no-prod\)\n$/);

    const dir = tmpProject({ 'hooks-tests/a.json': JSON.stringify(PASSING) });
    const noConfig = await test(dir, isolatedEnv(dir));
    expect(noConfig.code).toBe(1);
    expect(noConfig.stderr).toMatch(/^agent-hooks: hooks-tests\/a\.json: \[0\]: no config found from hooks-tests upwards/);

    const empty = tmpProject();
    // The built bin: a runner error is exit 1 as the shell sees it.
    const noFolder = runCli(['test'], { cwd: empty, env: isolatedEnv(empty) });
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toBe('agent-hooks: hooks-tests: no such file or folder; pass case files or folders, or create it (see docs/testing.md)\n');
  });

  it('a broken config fails its cases in the report, one line naming the file and key path; the other cases still run', async () => {
    const broken = JSON.stringify({ hooks: { preToolUse: [{ command: 'x', timeout: 'soon' }] } });
    const p = project({ 'hooks-tests/a.json': [{ ...PASSING[0], config: '../broken.json' }], 'hooks-tests/b.json': [PASSING[0]] }, { 'broken.json': broken });
    const r = await p.run();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ rewrites ls hooks-tests\/a\.json \[0\] \d+ms\n {4}\S*broken\.json: hooks\.preToolUse\[0\]\.timeout: expected number, received string\n/m);
    expect(r.stdout).toMatch(/^✓ rewrites ls hooks-tests\/b\.json \[0\]/m);
    expect(lines(r.stdout)).toContain('1 passed, 1 failed');
  });

  it('an edited, untrusted project config fails every case on it, naming the file and hooks trust (the agent runs none of it)', async () => {
    const cases = [PASSING[0], { ...PASSING[1], config: '../.hooksrc.json' }];
    const p = project({ 'hooks-tests/a.json': cases });
    // Trusted as written: green.
    const env = p.env;
    expect((await test(p.dir, env)).code).toBe(0);
    // Edited after trust: the agent would run none of it, found by the search or named as the case's config.
    writeFileSync(path.join(p.dir, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [CONFIG.hooks.preToolUse[0]] } }));
    const r = await test(p.dir, env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const notes = lines(r.stdout).filter((l) => l.startsWith('    '));
    expect(notes).toHaveLength(2);
    for (const note of notes) expect(note).toMatch(/^ {4}\S*\.hooksrc\.json .*trust/);
    expect(lines(r.stdout)).toContain('0 passed, 2 failed');
    // --json says the same, per case.
    const json = JSON.parse((await test(p.dir, env, ['--json'])).stdout) as { failed: number; cases: { status: string; note: string }[] };
    expect(json.failed).toBe(2);
    for (const c of json.cases) expect(c.note).toMatch(/\.hooksrc\.json .*trust/);
    // Never trusted at all: the same, per case, not a runner error.
    const fresh = await test(p.dir, isolatedEnv(tmpProject(), {}, { trust: false }));
    expect(fresh.stderr).toBe('');
    expect(fresh.code).toBe(1);
    expect(lines(fresh.stdout)).toContain('0 passed, 2 failed');
  });

  it('three broken hooks are shown in the text report, not only in --json: ! per case, each hook and why, a closing count', async () => {
    const config = {
      hooks: {
        preToolUse: [
          { id: 'missing', command: 'no-such-command-for-hooks-test', match: 'exec' },
          { id: 'crashes', command: "sh -c 'exit 3'", match: 'exec' },
          { id: 'garbage', command: 'echo "{not json"', match: 'exec' },
        ],
      },
    };
    const cases = [1, 2, 3].map((n) => ({ name: `case ${n}`, event: exec(`ls ${n}`), expect: { decision: 'continue' } }));
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config), 'hooks-tests/a.json': JSON.stringify(cases) });
    const env = isolatedEnv(dir);
    const r = await test(dir, env);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/^✓/m);
    expect(r.stdout.match(/^! case \d/gm)).toHaveLength(3);
    expect(r.stdout).toMatch(/^ {4}hook missing failed \(not-found\): /m);
    expect(r.stdout).toMatch(/^ {4}hook crashes failed \(exit-3\): /m);
    expect(r.stdout).toMatch(/^ {4}hook garbage failed \(\S+\): /m);
    const tail = lines(r.stdout.trimEnd());
    expect(tail.at(-2)).toMatch(/^3 hooks failed: missing, crashes, garbage; 3 passing cases/);
    expect(tail.at(-1)).toBe('3 passed, 0 failed');
    // JSON and JUnit carry them too.
    const json = JSON.parse((await test(dir, env, ['--json'])).stdout) as { cases: { hookFailures?: { id: string }[] }[] };
    expect(json.cases.map((c) => c.hookFailures?.map((f) => f.id))).toEqual([1, 2, 3].map(() => ['missing', 'crashes', 'garbage']));
    expect((await test(dir, env, ['--reporter', 'junit'])).stdout.match(/<system-err>hook missing failed/g)).toHaveLength(3);
    // A case that expects the failures is quiet about them.
    writeFileSync(path.join(dir, 'hooks-tests', 'a.json'), JSON.stringify([{ ...cases[0], expect: { decision: 'continue', failed: ['missing', 'crashes', 'garbage'] } }]));
    const expected = await test(dir, env);
    expect(expected.stdout).toMatch(/^✓ case 1/m);
    expect(expected.stdout).not.toContain('hook missing failed');
  }, 60_000);
});

