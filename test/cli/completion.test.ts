// `hooks completion <shell>`, -V and FORCE_COLOR: the first-hour conveniences, checked in real shells.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wantsColour } from '../../src/cli/context.js';
import { GUARD_IDS } from '../../src/guards/index.js';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

// The CLI in-process (cliInProcess: the same argv, cwd, env and exit code), in the repository with a
// throwaway home as runCli does; the shells that source the scripts are real.
const cli = cliInProcess;

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

async function script(shell: string): Promise<string> {
  const r = await cli(['completion', shell]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const file = path.join(tmpProject(), `completion.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

describe('hooks completion', () => {
  it('bash: commands, a command\'s own flags, guard ids (schema-pin too), serve actions', async () => {
    const file = await script('bash');
    // The completion function, called as bash calls it for "hooks <words...>": what it offers, one per line.
    const complete = (...words: string[]) => {
      const r = spawnSync('bash', ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _agent_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', file, ...words], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(complete('hooks', 'te')).toEqual(['test']);
    expect(complete('hooks', '--ver')).toEqual(['--version']);
    expect(complete('agent-hooks', 'test', '--rep')).toEqual(['--reporter']);
    expect(complete('hooks', 'serve', '--print')).toEqual(['--print-unit']);
    expect(complete('hooks', 'guard', '')).toEqual([...GUARD_IDS]);
    expect(complete('hooks', 'guard', 'schema')).toEqual(['schema-pin']);
    expect(complete('hooks', 'serve', 'st')).toEqual(['start', 'stop', 'status']);
    expect(complete('hooks', 'completion', 'f')).toEqual(['fish']);
  });

  it.skipIf(!has('fish'))('fish: parses, and completes commands, flags and guard ids (skipped where fish is not installed)', async () => {
    const file = await script('fish');
    const complete = (line: string) => {
      const r = spawnSync('fish', ['--no-config', '-c', `source $argv[1]; complete -C $argv[2]`, file, line], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
    };
    expect(complete('hooks te')).toContain('test');
    expect(complete('agent-hooks test --rep')).toContain('--reporter');
    expect(complete('hooks guard ')).toEqual(expect.arrayContaining([...GUARD_IDS]));
  });

  it.skipIf(!has('zsh'))('zsh: parses, and registers the function for both names when sourced (skipped where zsh is not installed)', async () => {
    const file = await script('zsh');
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
    const home = tmpProject();
    const r = spawnSync('zsh', ['-f', '-c', 'autoload -Uz compinit && compinit -u -d "$2/.zcompdump" && source "$1" && print -r -- "$_comps[hooks] $_comps[agent-hooks]"', 'zsh', file, home], { encoding: 'utf8', env: { ...process.env, HOME: home } });
    expect(r.stdout.trim()).toBe('_agent_hooks _agent_hooks');
  });

  it('an unknown shell: one line naming the choices and the closest', async () => {
    const r = await cli(['completion', 'bsh']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('agent-hooks: hooks completion: expected one of bash, zsh, fish, got "bsh" (did you mean "bash"?)\n');
    expect((await cli(['completion', '--help'])).stdout).toContain('source <(hooks completion bash)');
  });
});

describe('-V and the guard list', () => {
  it('-V prints the version as --version does (the built bin for --version)', async () => {
    const long = runCli(['--version']);
    expect(long.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(await cli(['-V'])).toMatchObject({ code: 0, stdout: long.stdout });
  });

  it('hooks guard --help lists every guard of the registry', async () => {
    const help = (await cli(['guard', '--help'])).stdout;
    expect(/^Guards: (.*)$/m.exec(help)?.[1]?.split(', ')).toEqual([...GUARD_IDS]);
    expect(GUARD_IDS).toContain('schema-pin');
  });
});

describe('FORCE_COLOR', () => {
  it('colour on a terminal; FORCE_COLOR turns it on anywhere, 0 or false turns it off; NO_COLOR wins', () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
    expect(wantsColour(true, { TERM: 'dumb' })).toBe(false);
    expect(wantsColour(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColour(false, { FORCE_COLOR: '3' })).toBe(true);
    expect(wantsColour(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(wantsColour(true, { FORCE_COLOR: 'false' })).toBe(false);
    expect(wantsColour(false, { FORCE_COLOR: '' })).toBe(false);
    expect(wantsColour(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('hooks test prints colour off a terminal with FORCE_COLOR=1, none without', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'ok', command: 'true' }] } }),
      'hooks-tests/a.json': JSON.stringify([{ name: 'stops', event: { sample: 'stop' }, expect: { decision: 'continue' } }]),
    });
    const env = isolatedEnv(dir);
    expect((await cli(['test'], { cwd: dir, env: { ...env, FORCE_COLOR: '1' } })).stdout).toMatch(/\u001b\[32m✓/);
    expect((await cli(['test'], { cwd: dir, env })).stdout).not.toMatch(/\u001b\[/);
  });
});
