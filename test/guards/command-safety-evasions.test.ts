// Evasions that really destroy (issue 21 item 4), closed by class: a home directory reached through
// a spelling the walker did not evaluate, and recursive deletes of command output nobody can know.
// The real-process cases run each command under bwrap (the whole machine read-only but a throwaway
// folder), with HOME in that folder and a logging `rm` first on PATH: they prove the command would
// have deleted a home, and that the guard now blocks it.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeCommand, type JudgeContext } from '../../src/guards/command-safety.js';

const BASE: JudgeContext = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };

describe('a home directory however it is spelled', () => {
  it.each([
    ['rm -rf -- "$(getent passwd "$(id -un)" | cut -d: -f6)"'],
    ['rm -rf "$(getent passwd dev | awk -F: \'{print $6}\')"'],
    ['rm -rf "$(cut -d: -f6 /etc/passwd | head -1)"'],
    ['rm -rf "$(eval echo ~$USER)"'],
    ['rm -rf "$(eval echo ~${USER})"'],
    ['rm -rf "$(printenv HOME)"'],
    ['printf -v d %s ~; rm -rf "$d"'],
    ['printf -v d "%s/" "$HOME"; rm -rf "$d"'],
    ['read -r d <<< ~; rm -rf "$d"'],
    ['read -r d <<< "${HOME}"; rm -rf "$d"'],
    ['read d <<EOF\n$HOME\nEOF\nrm -rf "$d"'],
    ["read d <<'EOF'\n/home/dev\nEOF\nrm -rf \"$d\""],
    ['read d < <(echo ~); rm -rf "$d"'],
    ['echo ~ | { read d; rm -rf "$d"; }'],
    ['mapfile -t dirs < <(echo ~); rm -rf "${dirs[0]}"'],
    ['cd ~ && rm -rf "$(pwd -P)"'],
    ['cd ~ && rm -rf "$(pwd -L)"'],
    ['rm -rf "$(cd ~ && pwd)"'],
    ['rm -rf "$(cd; pwd -P)"'],
    ['cd ~; cd /tmp; rm -rf ~-'],
    ['cd ~; cd /tmp; cd -; rm -rf "$PWD"'],
    ["eval 'cd ~'; rm -rf \"$(pwd)\""],
    ["eval 'd=~'; rm -rf \"$d\""],
    ["xargs -0 rm -rf < <(printf '%s\\0' ~)"],
    ['xargs rm -rf <<EOF\n$HOME\nEOF'],
    ['xargs rm -rf <<< "${HOME}"'],
    ['rm -rf ~$USER'],
    ['rm -rf ~root'],
  ])('%j is a recursive delete of a home', (command) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', category: 'filesystem-destruction', reason: expect.stringMatching(/home directory/) });
  });
});

describe('a recursive delete of command output that is not known', () => {
  it.each([
    ['rm -rf "$(some-tool --dir)"'],
    ['d=$(some-tool); rm -rf "$d"'],
    ['d=`some-tool`; rm -r -- "$d"'],
    ['read -r d <<< "$(some-tool)"; rm -rf "$d"'],
    ['printf -v d %s "$(some-tool)"; rm -rf "$d"'],
    ['for d in $(some-tool); do rm -rf "$d"; done'],
    ['for d in build $(some-tool); do rm -rf "$d"; done'],
    // A command before the last that prints a path too: `cd -` prints where it went.
    ['rm -rf "$(cd /srv/data/x; cd -; echo)"'],
    ['rm -rf "$(export -p; echo)"'],
    ['some-tool | xargs rm -rf'],
    ['some-tool | sort | xargs rm -rf'],
    ['xargs rm -rf < <(some-tool)'],
    ['xargs -a list.txt rm -rf'],
    ['cat list.txt | xargs rm -rf'],
    ["some-tool | awk '{print $2}' | xargs rm -rf"],
    ["git status --porcelain | awk '{print \"/\" $2}' | xargs rm -rf"],
    ['find "$(some-tool)" -delete'],
    ['find "$(some-tool)" -exec rm -rf {} +'],
    ['rm -rf "$(python3 -c \'import os; print(os.path.expanduser("~"))\')"'],
    ['rm -rf "$(git rev-parse --show-toplevel)"'],
  ])('%j is unverifiable, and says it could be a home', (command) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', category: 'unverifiable', reason: expect.stringMatching(/could be a home directory/) });
  });

  it.each([
    ['rm -rf "$(some-tool)"/'],
    ['rm -rf "$(some-tool)"/*'],
  ])('%j is blocked: an empty output leaves the root', (command) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', category: 'filesystem-destruction' });
  });

  it.each([
    ['rm -rf "$(mktemp -d)"'],
    ['tmp=$(mktemp -d) && rm -rf "$tmp"'],
    ['tmp="$(mktemp -d -t build.XXXXXX)"; trap \'rm -rf "$tmp"\' EXIT'],
    ['rm -rf $(find . -name node_modules -type d -prune)'],
    ['rm -rf $(find src -name __pycache__)'],
    ['git ls-files -z --others --exclude-standard | xargs -0 rm -rf'],
    ['find . -name __pycache__ | xargs rm -rf'],
    ['find . -name "*.egg-info" | grep -v venv | xargs rm -rf'],
    ['ls -d build-* | xargs rm -rf'],
    ["git status --porcelain | grep '^??' | awk '{print $2}' | xargs rm -rf"],
    ['rm -rf "$(git rev-parse --show-toplevel)/build"'],
    ['rm -rf "$(some-tool)/cache"'],
    ['while read f; do rm -rf "$f"; done < list.txt'],
    ['some-tool | while read f; do rm -rf "$f"; done'],
    ['rm -f "$(some-tool)"'],
    ['some-tool | xargs rm -f'],
    ['rm -rf "$( )"'],
    ['cd ~/project && rm -rf "$(pwd)/dist"'],
    ['mkdir -p out && rm -rf "$(cd out && pwd)"'],
  ])('%j stays allowed', (command) => {
    expect(judgeCommand(command, {}, BASE)).toEqual({ verdict: 'allow' });
  });

  it('is an unverifiable finding, so the unverifiable option decides it', () => {
    expect(judgeCommand('rm -rf "$(some-tool)"', { unverifiable: 'ask' }, BASE)).toMatchObject({ verdict: 'ask' });
    expect(judgeCommand('rm -rf "$(some-tool)"', { unverifiable: 'allow' }, BASE)).toEqual({ verdict: 'allow' });
  });
});

describe('new readers are seeded properties', () => {
  const SEED = 20261127;
  const RUNS = { seed: SEED, numRuns: 200, interruptAfterTimeLimit: 6000, markInterruptAsFailure: false } as const;
  /** Paths with no quoting of their own: a home, the root, system and project folders. */
  const target = fc.oneof(
    fc.constantFrom('~', '/', '/etc', '/usr', '~/Documents', 'build', 'dist/x', '/tmp/x', '~/project', '/home/dev', '/home/dev/project/build'),
    fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}(\/[a-z0-9._-]{1,8}){0,2}$/),
  );
  const verdictOf = (command: string) => {
    const j = judgeCommand(command, {}, BASE);
    return j.verdict === 'allow' ? 'allow' : `${j.verdict}:${j.category}`;
  };

  it('a value hidden in printf -v, read, mapfile, a here-document, $(echo), $(cd && pwd) or xargs is judged as written', () => {
    fc.assert(
      fc.property(target, fc.constantFrom('-rf', '-r', '-f', ''), (path, flags) => {
        const plain = verdictOf(`rm ${flags} ${path}`);
        const hidden = [
          `printf -v d %s ${path}; rm ${flags} "$d"`,
          `read -r d <<< ${path}; rm ${flags} "$d"`,
          `read d <<EOF\n${path}\nEOF\nrm ${flags} "$d"`,
          `mapfile -t a < <(echo ${path}); rm ${flags} "$a"`,
          `echo ${path} | { read -r d; rm ${flags} "$d"; }`,
          `rm ${flags} "$(echo ${path})"`,
          `rm ${flags} -- "$(printf '%s\\n' ${path})"`,
          `xargs rm ${flags} <<< ${path}`,
          `xargs -0 rm ${flags} < <(printf '%s\\0' ${path})`,
        ];
        for (const command of hidden) expect(verdictOf(command), command).toBe(plain);
        if (path.startsWith('/') || path.startsWith('~')) {
          expect(verdictOf(`rm ${flags} "$(cd ${path} && pwd -P)"`)).toBe(plain);
          expect(verdictOf(`cd ${path}; cd /tmp; rm ${flags} ~-`)).toBe(plain);
        }
      }),
      RUNS,
    );
  });

  it('a recursive delete of the output of a tool that is not evaluated is never allowed, however it is carried', () => {
    const tool = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.array(fc.constantFrom('--dir', '-p', 'x', '.', 'home', '--print'), { maxLength: 3 }))
      .filter(([name]) => !/^(echo|printf|pwd|cat|mktemp|realpath|readlink|dirname|printenv|cut|awk|gawk|mawk|nawk|find|ls|git|head|tail|sort|uniq|grep|egrep|fgrep|tac|shuf|cd|true|read|test|set|unset|export|local|declare|typeset|readonly|shopt|umask|mkdir|touch|eval|exec|command|builtin|time|nice|nohup|env|sudo|xargs|timeout|stdbuf|ionice|doas|su|sh|bash|zsh|dash|ksh|fish|python\d*|node|perl|ruby|php|deno|bun)$/.test(name))
      .map(([name, args]) => [name, ...args].join(' '));
    const carry = fc.constantFrom(
      (t: string) => `rm -rf "$(${t})"`,
      (t: string) => `rm -r -- "$(${t})/"`,
      (t: string) => `d=$(${t}); rm -rf "$d"`,
      (t: string) => `d="\`${t}\`"; rm -fr "$d"`,
      (t: string) => `read -r d <<< "$(${t})"; rm -rf "$d"`,
      (t: string) => `printf -v d %s "$(${t})"; rm -rf "$d"`,
      (t: string) => `for d in $(${t}); do rm -rf "$d"; done`,
      (t: string) => `${t} | xargs rm -rf`,
      (t: string) => `${t} | sort -u | xargs -r rm -rf`,
      (t: string) => `xargs rm -rf < <(${t})`,
      (t: string) => `find "$(${t})" -delete`,
    );
    fc.assert(
      fc.property(tool, carry, (t, make) => {
        const command = make(t);
        expect(judgeCommand(command, {}, BASE).verdict, command).toBe('block');
      }),
      { ...RUNS, numRuns: 300 },
    );
  });

  it('read, printf -v and mapfile with any arguments and input never throw', () => {
    const token = fc.constantFrom('read', 'printf', 'mapfile', 'readarray', '-v', '-r', '-a', '-d', "''", '-n', '1', '-t', '-u', '3', 'd', 'a[0]', 'x y', '%s', '%b', '%q', '~', '"$HOME"', '$(x)', '<<<', '<', '<(echo ~)', '<<EOF\n~\nEOF\n', ';', '|', 'rm -rf "$d"', 'rm -rf "$a"', ' ');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 24 }), (tokens) => {
        const j = judgeCommand(tokens.join(' '), {}, BASE);
        expect(['allow', 'block']).toContain(j.verdict);
      }),
      { ...RUNS, numRuns: 400 },
    );
  });
});

/** A throwaway machine view: everything read-only but `dir`, a fresh /tmp, and a logging `rm`. */
function sandbox() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cmdsafety-evasions-'));
  const home = path.join(dir, 'home', 'dev');
  const project = path.join(home, 'project');
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'rm.log');
  mkdirSync(project, { recursive: true });
  mkdirSync(bin);
  writeFileSync(path.join(home, 'precious.txt'), 'keep\n');
  // Logs one line per call: its arguments, separated by a tab.
  writeFileSync(path.join(bin, 'rm'), '#!/bin/sh\n( IFS="\t"; printf "%s\\n" "$*" ) >> "$RM_LOG"\n');
  chmodSync(path.join(bin, 'rm'), 0o755);
  const run = (command: string) => {
    writeFileSync(log, '');
    const r = spawnSync('bwrap', [
      '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', dir, dir,
      '--chdir', project, '--clearenv',
      '--setenv', 'HOME', home, '--setenv', 'USER', os.userInfo().username, '--setenv', 'RM_LOG', log,
      '--setenv', 'PATH', `${bin}:/usr/local/bin:/usr/bin:/bin`,
      '--', 'bash', '-c', command,
    ], { encoding: 'utf8', timeout: 10_000 });
    expect(r.error).toBeUndefined();
    return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
  };
  return { dir, home, project, run, context: { cwd: project, projectDir: project, home, tmpDir: '/tmp' } satisfies JudgeContext };
}

const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;

describe.skipIf(!hasBwrap)('on a real shell, with a logging rm (skipped without bwrap: the sandbox is what keeps this safe)', () => {
  const box = sandbox();
  afterAll(() => rmSync(box.dir, { recursive: true, force: true }));
  /** The homes a command could reach: HOME, and the passwd entry of the user running the test. */
  const homes = [box.home, os.userInfo().homedir];

  it.each([
    ['rm -rf -- "$(getent passwd "$(id -un)" | cut -d: -f6)"'],
    ['rm -rf "$(eval echo ~$USER)"'],
    ["xargs -0 rm -rf < <(printf '%s\\0' ~)"],
    ['printf -v d %s ~; rm -rf "$d"'],
    ['read -r d <<< ~; rm -rf "$d"'],
    ['cd ~ && rm -rf "$(pwd -P)"'],
    ['rm -rf "$(cd ~ && pwd)"'],
    ['xargs rm -rf <<EOF\n$HOME\nEOF'],
    ['cd ~; cd /tmp; rm -rf ~-'],
    ["eval 'cd ~'; rm -rf \"$(pwd)\""],
    ['d=$(python3 -c \'import os; print(os.environ["HOME"])\'); rm -rf "$d"'],
    ['python3 -c \'import os; print(os.environ["HOME"])\' | xargs rm -rf'],
  ])('%j runs rm -rf on a home, and is blocked', (command) => {
    const calls = box.run(command);
    expect(calls.some((argv) => argv.includes('-rf') && argv.some((a) => homes.includes(a.replace(/\/+$/, ''))))).toBe(true);
    expect(judgeCommand(command, {}, box.context)).toMatchObject({ verdict: 'block' });
  });

  it.each([
    ['rm -rf "$(mktemp -d)"'],
    ['tmp=$(mktemp -d) && rm -rf "$tmp"'],
    ['mkdir -p a/node_modules && rm -rf $(find . -name node_modules -type d)'],
  ])('%j stays inside the temp dir or the project, and is allowed', (command) => {
    const calls = box.run(command);
    expect(calls.length).toBeGreaterThan(0);
    for (const argv of calls) for (const a of argv.filter((x) => !x.startsWith('-'))) expect(a.startsWith('/tmp/') || !a.startsWith('/')).toBe(true);
    expect(judgeCommand(command, {}, box.context)).toEqual({ verdict: 'allow' });
  });
});
