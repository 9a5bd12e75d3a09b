import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const examples = join(root, 'hooks-examples');
const eventsDir = join(examples, 'events');

type Event = Record<string, any>;

const event = (name: string): Event => JSON.parse(readFileSync(join(eventsDir, `${name}.json`), 'utf8'));
const withCommand = (command: string, base = event('pre-tool-use')): Event => ({
  ...base,
  tool_input: { ...base.tool_input, command },
});

// Hermetic: no HOOKS_* from the caller, and git ignores the user's and the system's config.
const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('HOOKS_') && !k.startsWith('CLAUDE_') && !k.startsWith('GIT_')),
);
Object.assign(baseEnv, { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });

const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hooks-examples-'));
  temps.push(dir);
  return dir;
};
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(script: string, input: Event | string, env: NodeJS.ProcessEnv = {}, cwd = root) {
  const r = spawnSync(join(examples, script), {
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env: { ...baseEnv, ...env },
    cwd,
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Result = { code: number | null; stdout: string; stderr: string };
type Case = { input: Event | string; env?: NodeJS.ProcessEnv; cwd?: string };

// Table cases of one example run in ONE interpreter process (a driver that runs the script once per case with that
// case's stdin, env and cwd, and collects exit code, stdout and stderr) instead of a process per case: a node start
// costs ~0.15 CPU-s and this machine's python3 ~0.08. The script runs in its own interpreter with its real stdlib
// (its git calls are real processes); only how stdin, stdout and the exit code reach it differs. That wiring is
// proven by the real-process runs `run` makes, at least one per example.
const NODE_DRIVER = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
const read = fs.readFileSync;
const cases = JSON.parse(read(0, 'utf8'));
let input = '';
fs.readFileSync = function (file, options) {
  if (file !== 0) return read.apply(this, arguments);
  const encoding = typeof options === 'string' ? options : options?.encoding;
  return encoding ? input : Buffer.from(input);
};
syncBuiltinESMExports();
const write = process.stdout.write.bind(process.stdout);
let out = '', err = '';
process.stdout.write = (chunk) => ((out += chunk), true);
process.stderr.write = (chunk) => ((err += chunk), true);
const results = [];
for (const [i, c] of cases.entries()) {
  input = c.input; out = ''; err = ''; process.env = c.env; process.chdir(c.cwd); process.exitCode = undefined;
  let code;
  try {
    await import(pathToFileURL(process.argv[1]).href + '?case=' + i);
    code = process.exitCode ?? 0;
  } catch (error) {
    err += String(error?.stack ?? error) + '\\n';
    code = 1;
  }
  results.push({ code, stdout: out, stderr: err });
}
process.exitCode = 0;
write(JSON.stringify(results));
`;
const PYTHON_DRIVER = `
import io, json, os, runpy, sys, traceback
cases = json.load(sys.stdin)
real = sys.stdin, sys.stdout, sys.stderr
results = []
for c in cases:
    os.environ.clear(); os.environ.update(c["env"]); os.chdir(c["cwd"])
    out, err = io.StringIO(), io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(c["input"]), out, err
    code = 0
    try:
        runpy.run_path(sys.argv[1], run_name="__main__")
    except SystemExit as e:
        if isinstance(e.code, int) or e.code is None: code = e.code or 0
        else: err.write(f"{e.code}\\n"); code = 1
    except BaseException:
        traceback.print_exc(); code = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = real
    results.append({"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
sys.stdout.write(json.dumps(results))
`;

/** Runs `script` once per case in one process (see NODE_DRIVER); results in the cases' order. */
function runMany(script: string, cases: Case[]): Result[] {
  const file = join(examples, script);
  const driver = script.endsWith('.py') ? ['python3', '-c', PYTHON_DRIVER, file] : [process.execPath, '--input-type=module', '-e', NODE_DRIVER, file];
  const input = cases.map((c) => ({ input: typeof c.input === 'string' ? c.input : JSON.stringify(c.input), env: { ...baseEnv, ...c.env }, cwd: c.cwd ?? root }));
  const r = spawnSync(driver[0]!, driver.slice(1), { input: JSON.stringify(input), env: baseEnv, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`the ${script} driver failed (${r.status}): ${r.stderr}`);
  const results = JSON.parse(r.stdout) as Result[];
  expect(results).toHaveLength(cases.length);
  return results;
}

/** The cases run on first use, all at once; each test reads its own result. */
function batch(script: string, cases: Case[] | (() => Case[])): (i: number) => Result {
  let results: Result[] | undefined;
  return (i) => (results ??= runMany(script, typeof cases === 'function' ? cases() : cases))[i]!;
}

function sh(cwd: string, ...args: string[]) {
  const r = spawnSync(args[0]!, args.slice(1), { cwd, env: baseEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function gitRepo(): string {
  const dir = tempDir();
  sh(dir, 'git', 'init', '-q', '-b', 'feature/login');
  writeFileSync(join(dir, 'app.ts'), 'export const a = 1;\n');
  sh(dir, 'git', 'add', '.');
  for (const msg of ['first commit', 'second commit', 'third commit', 'add login form']) {
    sh(dir, 'git', '-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '--allow-empty', '-m', msg);
  }
  return dir;
}

// Every script must shrug off input it cannot read instead of crashing or blocking.
const ODD_INPUTS = ['', 'not json', '[]', 'null', '42', '{"tool_input": null}', '{"tool_input": {"command": 7}}'];

describe('events/*.json', () => {
  const files = readdirSync(eventsDir).filter((f) => f.endsWith('.json'));
  const pascal = (cli: string) => cli.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

  it('has one sample per event name', () => {
    const names = new Set(files.map((f) => f.split('.')[0]));
    expect([...names].sort()).toEqual(
      [
        'notification', 'post-tool-use', 'post-tool-use-failure', 'pre-compact', 'pre-tool-use', 'session-end',
        'session-start', 'stop', 'subagent-stop', 'user-prompt-submit',
      ].sort(),
    );
  });

  it.each(files)('%s parses and its hook_event_name matches its file name', (file) => {
    const data = JSON.parse(readFileSync(join(eventsDir, file), 'utf8'));
    expect(data.hook_event_name).toBe(pascal(file.split('.')[0]!));
    expect(data).toMatchObject({ session_id: expect.any(String), transcript_path: expect.any(String), cwd: '/home/dev/project' });
    if (/tool-use/.test(file)) expect(data).toMatchObject({ tool_name: expect.any(String), tool_input: expect.any(Object) });
  });

  it('post-tool-use carries a Bash tool_response in Claude Code shape', () => {
    expect(event('post-tool-use').tool_response).toMatchObject({
      stdout: expect.any(String), stderr: expect.any(String), interrupted: false, isImage: false,
    });
  });
});

describe('no-force-push.py', () => {
  const env = { HOOKS_EVENT: 'preToolUse', HOOKS_TOOL: 'exec' };

  it('blocks the bundled sample (git push --force origin main) with a one-line reason', () => {
    const r = run('no-force-push.py', event('pre-tool-use'), env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toMatch(/force/i);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  const blocked = [
    'git push -f',
    'git push -uf origin feature',
    'git push origin +main',
    'git push --mirror backup',
    'git -C ../other push --force',
    'git status && git push -f origin main',
    'git fetch\ngit push --force',
    "bash -c 'git push --force'",
    'GIT_TRACE=1 sudo git push -f',
  ];
  const passed = [
    'git push origin main',
    'git push --force-with-lease origin main',
    'git push --force-with-lease=main:abc123 --force-if-includes origin main',
    'git commit -m "never git push --force"',
    'echo git push --force',
    'git log -f',
    'git push -o ci.skip origin main',
  ];
  // One python3 process for the tables; the bundled sample and the tool_name test below run it for real.
  const table = batch('no-force-push.py', [...[...blocked, ...passed].map((command): Case => ({ input: withCommand(command), env })), ...ODD_INPUTS.map((input): Case => ({ input, env }))]);
  const odd = blocked.length + passed.length;

  it.each(blocked.map((command, i) => [command, i] as const))('blocks %j', (_, i) => {
    const r = table(i);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/force/i);
  });

  it.each(passed.map((command, i) => [command, blocked.length + i] as const))('lets %j through silently', (_, i) => {
    expect(table(i)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('judges by tool_name when run without the runner, and ignores other tools', () => {
    expect(run('no-force-push.py', event('pre-tool-use')).code).toBe(2);
    expect(run('no-force-push.py', event('pre-tool-use'), { HOOKS_TOOL: 'read' }).code).toBe(0);
    const write = { ...event('pre-tool-use.write'), tool_input: { file_path: '/x', content: 'git push --force' } };
    expect(run('no-force-push.py', write, { HOOKS_TOOL: 'write' }).code).toBe(0);
  });

  it.each(ODD_INPUTS.map((input, i) => [input, odd + i] as const))('continues on odd input %j', (_, i) => {
    expect(table(i)).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('log-tool-call.sh', () => {
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

  it('appends one tab-separated line per call to $HOOKS_LOG_FILE, creating the folder', () => {
    const log = join(tempDir(), 'nested', 'dir', 'calls.log');
    const env = { HOOKS_LOG_FILE: log, HOOKS_EVENT: 'preToolUse', HOOKS_TOOL: 'exec' };
    expect(run('log-tool-call.sh', event('pre-tool-use.ls'), env)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(run('log-tool-call.sh', event('pre-tool-use'), env).code).toBe(0);
    const [first, second, ...rest] = lines(log);
    expect(rest).toEqual([]);
    expect(first!.split('\t')).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), 'preToolUse', 'exec', 'ls -la src']);
    expect(second!.split('\t').slice(1)).toEqual(['preToolUse', 'exec', 'git push --force origin main']);
  });

  it('logs the file path of a write and falls back to the event names without runner env', () => {
    const log = join(tempDir(), 'calls.log');
    run('log-tool-call.sh', event('pre-tool-use.write'), { HOOKS_LOG_FILE: log });
    expect(lines(log)[0]!.split('\t').slice(1)).toEqual(['PreToolUse', 'Write', '/home/dev/project/src/greet.ts']);
  });

  it('keeps a multi-line command on one line', () => {
    const log = join(tempDir(), 'calls.log');
    run('log-tool-call.sh', withCommand('cd src\n\tnpm test'), { HOOKS_LOG_FILE: log, HOOKS_TOOL: 'exec' });
    expect(lines(log)).toHaveLength(1);
    expect(lines(log)[0]).toMatch(/\tcd src npm test$/);
  });

  it('defaults to $HOOKS_PROJECT_DIR/.hooks/tool-calls.log', () => {
    const project = tempDir();
    run('log-tool-call.sh', event('post-tool-use'), { HOOKS_PROJECT_DIR: project, HOOKS_EVENT: 'postToolUse', HOOKS_TOOL: 'exec' });
    expect(lines(join(project, '.hooks', 'tool-calls.log'))[0]).toMatch(/\tpostToolUse\texec\tnpm test$/);
  });

  it('logs the raw event on one line when neither python3 nor node is on PATH', () => {
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'cat', 'date', 'dirname', 'mkdir', 'tr']) {
      symlinkSync(sh(root, 'bash', '-c', `command -v ${tool}`).trim(), join(bin, tool));
    }
    const log = join(dir, 'calls.log');
    const pretty = readFileSync(join(eventsDir, 'pre-tool-use.json'), 'utf8'); // multi-line on purpose
    const r = run('log-tool-call.sh', pretty, { PATH: bin, HOOKS_LOG_FILE: log, HOOKS_EVENT: 'preToolUse', HOOKS_TOOL: 'exec' });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const logged = lines(log);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('\tpreToolUse\texec\traw: {');
    expect(logged[0]).toContain('"command": "git push --force origin main"');
  });

  it('never blocks, and warns on one line when the log cannot be written', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const r = run('log-tool-call.sh', event('pre-tool-use'), { HOOKS_LOG_FILE: join(file, 'sub', 'log') });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`log-tool-call: cannot write ${join(file, 'sub', 'log')}\n`);
  });

  it.each(ODD_INPUTS)('logs odd input %j without failing', (input) => {
    const log = join(tempDir(), 'calls.log');
    expect(run('log-tool-call.sh', input, { HOOKS_LOG_FILE: log })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(lines(log)).toHaveLength(1);
  });
});

describe('add-color-never.mjs', () => {
  const env = { HOOKS_EVENT: 'preToolUse', HOOKS_TOOL: 'exec' };
  const rewrites: [string, string | null][] = [
    ['git diff HEAD~1', 'git diff --color=never HEAD~1'],
    ['git -C ../lib log --oneline -5', 'git -C ../lib log --color=never --oneline -5'],
    ['git --no-pager show HEAD', 'git --no-pager show --color=never HEAD'],
    ['npm test -- --watch=false', 'npm --no-color test -- --watch=false'],
    ['ls src | grep -n todo', 'ls --color=never src | grep --color=never -n todo'],
    ['cd src && /bin/ls', 'cd src && /bin/ls --color=never'],
    ['echo "$(ls)"', null],
    ['echo $(ls)', 'echo $(ls --color=never)'],
    ["grep -r 'ls' .", "grep --color=never -r 'ls' ."],
  ];
  const untouched = [
    'ls --color=always src',
    'grep --colour=auto -r x .',
    'git diff --no-color',
    'git -c color.ui=always log',
    'npm --color=always test',
    'git status',
    'echo "ls -la"',
    '"ls" -la',
    'cat <<EOF\nls\nEOF',
    '# ls',
  ];
  const runnable = ['ls -la', 'ls | grep app', 'git log -1', 'git diff HEAD'];
  // One node process for the tables (a node start is ~0.15 CPU-s); the first and the other-tools tests below run
  // the script for real.
  const commands = [...rewrites.map(([command]) => command), ...untouched, ...runnable];
  const table = batch('add-color-never.mjs', [...commands.map((command): Case => ({ input: withCommand(command, event('pre-tool-use.ls')), env })), ...ODD_INPUTS.map((input): Case => ({ input, env }))]);
  const rewrite = (command: string) => {
    const r = table(commands.indexOf(command));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    return r.stdout === '' ? null : JSON.parse(r.stdout).updatedInput.command;
  };

  it('rewrites ls -la src, keeping every other tool input field', () => {
    const sample = event('pre-tool-use.ls');
    const input = { ...sample, tool_input: { ...sample.tool_input, timeout: 60000, run_in_background: false } };
    const r = run('add-color-never.mjs', input, env);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('modify');
    expect(answer.reason).toMatch(/colou?r/i);
    expect(answer.updatedInput).toEqual({
      command: 'ls --color=never -la src',
      description: 'List files in src',
      timeout: 60000,
      run_in_background: false,
    });
  });

  it.each(rewrites)('rewrites %j to %j', (command, expected) => {
    expect(rewrite(command)).toBe(expected);
  });

  it.each(untouched)('leaves %j alone (no output)', (command) => {
    expect(rewrite(command)).toBeNull();
  });

  it('leaves other tools alone', () => {
    const r = run('add-color-never.mjs', { ...event('pre-tool-use.write'), tool_input: { file_path: '/x', command: 'ls' } }, { HOOKS_TOOL: 'write' });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('produces commands that really run', () => {
    const repo = gitRepo();
    for (const command of runnable) {
      const rewritten = rewrite(command);
      expect(rewritten).toContain('--color=never');
      const r = spawnSync('bash', ['-c', rewritten], { cwd: repo, env: baseEnv, encoding: 'utf8' });
      expect(r.status, `${rewritten}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain('\x1b[');
    }
  });

  it.each(ODD_INPUTS.map((input, i) => [input, commands.length + i] as const))('continues on odd input %j', (_, i) => {
    expect(table(i)).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('session-context.py', () => {
  const env = (dir: string) => ({ HOOKS_EVENT: 'sessionStart', HOOKS_PROJECT_DIR: dir, CLAUDE_PROJECT_DIR: dir });

  it('names the branch, recent commits and uncommitted changes', () => {
    const repo = gitRepo();
    writeFileSync(join(repo, 'app.ts'), 'export const a = 2;\n');
    writeFileSync(join(repo, 'new.ts'), '');
    const r = run('session-context.py', event('session-start'), env(repo));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const context: string = JSON.parse(r.stdout).additionalContext;
    expect(context).toContain('Git branch: feature/login');
    expect(context).toContain('- add login form\n- third commit\n- second commit');
    expect(context).not.toContain('first commit');
    expect(context).toContain('Uncommitted changes: 2 files');
  });

  it('uses the event cwd when no project dir is set', () => {
    const repo = gitRepo();
    const r = run('session-context.py', { ...event('session-start'), cwd: repo }, {}, tempDir());
    expect(JSON.parse(r.stdout).additionalContext).toMatch(/Git branch: feature\/login[\s\S]*Working tree clean/);
  });

  it('works in a fresh repository without commits', () => {
    const dir = tempDir();
    sh(dir, 'git', 'init', '-q', '-b', 'main');
    const r = run('session-context.py', event('session-start'), env(dir));
    expect(JSON.parse(r.stdout).additionalContext).toBe('Git branch: main\nWorking tree clean');
  });

  it('prints nothing outside a git repository, or when git is missing', () => {
    const dir = tempDir();
    expect(run('session-context.py', event('session-start'), env(dir))).toEqual({ code: 0, stdout: '', stderr: '' });
    const repo = gitRepo();
    const python = sh(root, 'python3', '-c', 'import sys; print(sys.executable)').trim();
    const noGit = spawnSync(python, [join(examples, 'session-context.py')], {
      input: JSON.stringify(event('session-start')),
      env: { ...baseEnv, ...env(repo), PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    expect([noGit.status, noGit.stdout, noGit.stderr]).toEqual([0, '', '']);
  });

  // One python3 process for the odd inputs, in one repository made on first use.
  const odd = batch('session-context.py', () => {
    const repo = gitRepo();
    return ODD_INPUTS.map((input) => ({ input, env: env(repo) }));
  });
  it.each(ODD_INPUTS.map((input, i) => [input, i] as const))('does not crash on odd input %j', (_, i) => {
    const r = odd(i);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).additionalContext).toContain('feature/login');
  });
});

describe('require-tests-before-stop.mjs', () => {
  const stop = (dir: string, extra: Event = {}, env: NodeJS.ProcessEnv = {}) =>
    run('require-tests-before-stop.mjs', { ...event('stop'), cwd: dir, ...extra }, { HOOKS_EVENT: 'stop', HOOKS_PROJECT_DIR: dir, ...env });
  const dirtyRepo = () => {
    const repo = gitRepo();
    writeFileSync(join(repo, 'app.ts'), 'export const a = 2;\n');
    return repo;
  };
  const marker = (repo: string, secondsFromNow: number) => {
    mkdirSync(join(repo, '.hooks'), { recursive: true });
    const file = join(repo, '.hooks', 'tests-passed');
    writeFileSync(file, '');
    const t = Date.now() / 1000 + secondsFromNow;
    utimesSync(file, t, t);
  };

  it('blocks when source files changed and no passing run is recorded', () => {
    const r = stop(dirtyRepo(), {}, { HOOKS_TEST_COMMAND: 'npm test' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/^Run the tests before stopping: /);
    expect(answer.reason).toContain('app.ts');
    expect(answer.reason).toContain('`npm test`');
  });

  it('sees new files inside new directories', () => {
    const repo = gitRepo();
    mkdirSync(join(repo, 'src', 'lib'), { recursive: true });
    writeFileSync(join(repo, 'src', 'lib', 'util.py'), '');
    expect(JSON.parse(stop(repo).stdout).reason).toContain('src/lib/util.py');
  });

  it('continues when stop_hook_active is true, to avoid a stop loop', () => {
    expect(stop(dirtyRepo(), { stop_hook_active: true })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('continues when the marker is newer than the newest change, blocks when it is older', () => {
    const repo = dirtyRepo();
    marker(repo, 60);
    expect(stop(repo)).toEqual({ code: 0, stdout: '', stderr: '' });
    marker(repo, -3600);
    const answer = JSON.parse(stop(repo).stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('since the last passing test run');
  });

  it('continues when only non-source files changed, the tree is clean, or it is not a repo', () => {
    const repo = gitRepo();
    expect(stop(repo).stdout).toBe('');
    writeFileSync(join(repo, 'NOTES.md'), 'todo\n');
    expect(stop(repo).stdout).toBe('');
    expect(stop(tempDir())).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  // One node process for the odd inputs, in one repository made on first use.
  const odd = batch('require-tests-before-stop.mjs', () => {
    const repo = dirtyRepo();
    return ODD_INPUTS.map((input) => ({ input, env: { HOOKS_PROJECT_DIR: repo } }));
  });
  it.each(ODD_INPUTS.map((input, i) => [input, i] as const))('judges the tree even on odd input %j', (_, i) => {
    const r = odd(i);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).decision).toBe('block');
  });
});

describe('protect-lockfiles.sh', () => {
  const edit = (file_path: string) => ({ ...event('pre-tool-use.edit'), tool_input: { ...event('pre-tool-use.edit').tool_input, file_path } });

  it.each(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock'])('asks before editing %s', (name) => {
    const r = run('protect-lockfiles.sh', edit(`/home/dev/project/sub dir/${name}`), { HOOKS_TOOL: 'edit' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe('ask');
    expect(answer.reason).toContain(name);
  });

  it('asks on a Write, judged by tool_name without the runner', () => {
    const write = { ...event('pre-tool-use.write'), tool_input: { file_path: '/home/dev/project/yarn.lock', content: '# yarn lockfile v1\n' } };
    expect(JSON.parse(run('protect-lockfiles.sh', write).stdout).decision).toBe('ask');
  });

  it.each([
    ['an ordinary file', edit('/home/dev/project/src/index.ts'), { HOOKS_TOOL: 'edit' }],
    ['a look-alike name', edit('/home/dev/project/package-lock.json.bak'), { HOOKS_TOOL: 'edit' }],
    ['a read of a lockfile', { ...event('pre-tool-use.edit'), tool_name: 'Read', tool_input: { file_path: '/p/yarn.lock' } }, { HOOKS_TOOL: 'read' }],
    ['the sample write', event('pre-tool-use.write'), {}],
    ['a shell command naming a lockfile', withCommand('cat yarn.lock'), { HOOKS_TOOL: 'exec' }],
  ])('lets %s through silently', (_, input, env) => {
    expect(run('protect-lockfiles.sh', input, env)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('still works without python3, reading file_path with sed', () => {
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'cat', 'grep', 'sed', 'head']) {
      symlinkSync(sh(root, 'bash', '-c', `command -v ${tool}`).trim(), join(bin, tool));
    }
    const compact = run('protect-lockfiles.sh', edit('/p/Cargo.lock'), { PATH: bin, HOOKS_TOOL: 'edit' });
    expect(JSON.parse(compact.stdout).decision).toBe('ask');
    const pretty = run('protect-lockfiles.sh', JSON.stringify(edit('/p/poetry.lock'), null, 2), { PATH: bin });
    expect(JSON.parse(pretty.stdout).reason).toContain('poetry.lock');
    expect(run('protect-lockfiles.sh', edit('/p/src/a.ts'), { PATH: bin, HOOKS_TOOL: 'edit' }).stdout).toBe('');
  });

  it.each(ODD_INPUTS)('continues on odd input %j', (input) => {
    expect(run('protect-lockfiles.sh', input, { HOOKS_TOOL: 'edit' })).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('every example', () => {
  // demo.sh drives `npm run demo`; it is not a hook.
  const scripts = readdirSync(examples).filter((f) => /\.(sh|py|mjs)$/.test(f) && f !== 'demo.sh');

  it.each(scripts)('%s is executable, has a shebang and a header comment', (file) => {
    const text = readFileSync(join(examples, file), 'utf8');
    expect(text).toMatch(/^#!\/usr\/bin\/env (bash|python3|node)\n/);
    expect(text.split('\n').slice(1, 4).join('\n')).toMatch(/^(#|\/\/|""")/m);
    expect(text).toMatch(/Config/);
    const r = spawnSync('test', ['-x', join(examples, file)]);
    expect(r.status).toBe(0);
  });
});
