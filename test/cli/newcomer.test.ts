// A newcomer's first hour (issue 8): names that work as typed, --dry-run that runs nothing, typos that
// get a suggestion to type, a trace that names every hook that did not run, a starter project whose
// first `npx agent-hooks test` passes.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, sample, tmpProject } from '../helpers.js';

// The CLI in-process (cliInProcess: the same argv, cwd, env, stdin and exit code); the bin itself is run for real
// where it is the point.
const cli = cliInProcess;

/** A config whose first hook leaves a file behind when it runs, then a block, then a hook after it. */
function sideEffectProject() {
  const dir = tmpProject();
  const marker = path.join(dir, 'ran.txt');
  const config = {
    hooks: {
      preToolUse: [
        { id: 'touch', command: 'touch', args: [marker] },
        { id: 'blocker', command: "echo 'no, not that' >&2; exit 2", match: 'exec' },
        { id: 'after', command: 'touch', args: [`${marker}.after`] },
        { id: 'writes-only', command: 'true', match: 'write' },
        { builtin: 'audit-log', options: { path: path.join(dir, 'audit.jsonl') } },
      ],
    },
  };
  const file = path.join(dir, 'hooks.json');
  writeFileSync(file, JSON.stringify(config));
  return { dir, file, marker, env: isolatedEnv(dir) };
}

describe('hooks run --dry-run runs nothing and writes nothing', () => {
  it('lists what would run and why the rest would not; no hook process, no audit record', async () => {
    const p = sideEffectProject();
    const r = await cli(['run', 'pre-tool-use', '--config', p.file, '--dry-run'], { cwd: p.dir, env: p.env, input: JSON.stringify(sample('pre-tool-use')) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dry run, nothing was run or written');
    expect(r.stdout).toMatch(/would run touch: touch .*ran\.txt/);
    expect(r.stdout).toMatch(/would run blocker: echo/);
    expect(r.stdout).toMatch(/skip +writes-only: match: tool exec \(Bash\) is not write/);
    expect(existsSync(p.marker)).toBe(false);
    expect(existsSync(`${p.marker}.after`)).toBe(false);
    expect(existsSync(path.join(p.dir, 'audit.jsonl'))).toBe(false);
  });

  it('hooks explain is the command that runs them: the side effect happens, and the block stops the chain', async () => {
    const p = sideEffectProject();
    const r = await cli(['explain', 'pre-tool-use', '--config', p.file], { cwd: p.dir, env: p.env, input: JSON.stringify(sample('pre-tool-use')) });
    expect(r.code).toBe(0);
    expect(existsSync(p.marker)).toBe(true);
    expect(existsSync(`${p.marker}.after`)).toBe(false);
    // The audit record the dry run did not write is real when hooks run.
    expect(existsSync(path.join(p.dir, 'audit.jsonl'))).toBe(true);
  });
});

describe('--verbose names every hook that did not run', () => {
  it('hooks after a block are listed as not reached, with the hook that ended the chain', async () => {
    const p = sideEffectProject();
    const r = await cli(['run', 'pre-tool-use', '--config', p.file, '--verbose'], { cwd: p.dir, env: { ...p.env, NO_COLOR: '1' }, input: JSON.stringify(sample('pre-tool-use')) });
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('hooks: after not reached — the chain ended at "blocker"');
    expect(lines).toContain('hooks: writes-only not reached — the chain ended at "blocker"');
    expect(r.stderr).not.toMatch(/\x1b\[/);
  });
});

describe('typos get a suggestion that can be typed as shown', () => {
  it('an unknown flag suggests the flag with its dashes', async () => {
    const r = await cli(['run', 'stop', '--verbos']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('agent-hooks: unknown option --verbos (did you mean "--verbose"?)\n');
  });

  it('hooks --versoin suggests --version; -versoin too', async () => {
    expect((await cli(['--versoin'])).stderr).toBe('agent-hooks: unknown option --versoin (did you mean "--version"?); run "npx agent-hooks --help"\n');
    expect((await cli(['-versoin'])).stderr).toContain('(did you mean "--version"?)');
    expect((await cli(['--frobnicate'])).stderr).toBe('agent-hooks: unknown option --frobnicate; run "npx agent-hooks --help"\n');
  });

  it('--help names --version, NO_COLOR, HOOKS_DEBUG and the name to type with npx', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const word of ['--version', 'NO_COLOR', 'HOOKS_DEBUG', 'HOOKS_SKIP', 'npx agent-hooks <command>']) expect(r.stdout).toContain(word);
    expect((await cli(['run', '--help'])).stdout).toContain('HOOKS_DEBUG');
  });
});

describe('hooks init leaves a project that works as typed', () => {
  it('writes a starter test case, so the first hooks test passes; every hint is an npx agent-hooks command', async () => {
    const dir = tmpProject();
    const env = isolatedEnv(dir);
    const init = await cli(['init'], { cwd: dir, env });
    expect(init.code).toBe(0);
    expect(existsSync(path.join(dir, 'hooks-tests', 'starter.json'))).toBe(true);
    const hints = init.stdout.split('\n').filter((l) => l.startsWith('  '));
    expect(hints.length).toBeGreaterThanOrEqual(4);
    for (const hint of hints) {
      expect(hint.trim()).toMatch(/^npx agent-hooks /);
      expect(hint).not.toMatch(/\| hooks |^ *hooks /);
    }
    const test = await cli(['test'], { cwd: dir, env });
    expect(test.stderr).toBe('');
    expect(test.code).toBe(0);
    expect(test.stdout.trim().split('\n').at(-1)).toBe('3 passed, 0 failed');

    // The "Try it" pipeline, with the program in place of npx: the guard blocks the force push.
    const event = await cli(['sample', 'pre-tool-use', '--tool', 'exec', '--input', 'command=git push --force'], { cwd: dir, env });
    const run = await cli(['run', '--config', '.hooksrc.json', '--verbose'], { cwd: dir, env, input: event.stdout });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Force push blocked');
  });

  it('refuses to overwrite the starter test case without --force', async () => {
    const dir = tmpProject({ 'hooks-tests/starter.json': '{}' });
    const r = await cli(['init'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/starter\.json already exists; nothing written/);
    expect(existsSync(path.join(dir, '.hooksrc.json'))).toBe(false);
  });
});

describe('hooks guard --help', () => {
  it("shows a Claude Code setting that runs this package's bin (not npx, not npm's unrelated \"hooks\")", async () => {
    const r = await cli(['guard', '--help']);
    const setting = r.stdout.split('\n').find((line) => line.includes('"type": "command"'));
    expect(JSON.parse(setting!).hooks.PreToolUse[0].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks guard command-safety');
    expect(r.stdout).not.toContain('npx hooks');
  });
});

describe('hooks sample --input with a field the tool does not have', () => {
  it('keeps it (agents add fields) but warns on stderr, naming the field to use', async () => {
    const r = await cli(['sample', 'pre-tool-use', '--input', 'comand=rm -rf /']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^agent-hooks: warning: --input comand: the exec tool's input has no field "comand" \(did you mean "command"\?\); its fields: command, .*\n$/);
    expect(JSON.parse(r.stdout).tool_input.comand).toBe('rm -rf /');
    expect((await cli(['sample', 'pre-tool-use', '--input', 'command=ls'])).stderr).toBe('');
  });
});

describe('bin/hooks.js before the build', () => {
  it('says in one line to run npm run build (exit 1, or 2 under HOOKS_ON_ERROR=block), not a stack', () => {
    const dir = tmpProject({ 'package.json': '{"type":"module"}' });
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(ROOT, 'bin', 'hooks.js'), path.join(dir, 'bin', 'hooks.js'));
    const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'hooks.js'), '--version'], { encoding: 'utf8', env: isolatedEnv(dir) });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('agent-hooks: the CLI is not built (dist/bundle/main.js is missing); in a clone of the repository, run "npm run build"\n');
    const blocked = spawnSync(process.execPath, [path.join(dir, 'bin', 'hooks.js'), 'run'], { encoding: 'utf8', env: isolatedEnv(dir, { HOOKS_ON_ERROR: 'block' }) });
    expect(blocked.status).toBe(2);
  });
});

describe('hooks run --dry-run under HOOKS_DISABLE', () => {
  it('says that nothing would run', async () => {
    const dir = tmpProject({ 'hooks.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }) });
    const r = await cli(['run', '--config', 'hooks.json', '--dry-run'], { cwd: dir, env: isolatedEnv(dir, { HOOKS_DISABLE: '1' }), input: JSON.stringify(sample('pre-tool-use')) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('HOOKS_DISABLE is set: hooks run would run none of these');
  });
});
