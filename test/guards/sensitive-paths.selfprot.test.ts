// Self-protection against paths the guard cannot compute: unevaluated expansions in front of
// agent-hooks' own files (`${HOME%/}`, `$PWD`, `~+`, `printf -v`, `cd "$XDG_CONFIG_HOME"`),
// interpreter code that builds the path at run time, and the managed config moved by
// AGENT_HOOKS_MANAGED_CONFIG. Every bypass of the security review is a case here, judged with the
// event's XDG_* variables set and unset; ordinary writes with variables must still pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';

const home = '/home/dev';
const cwd = '/home/dev/repo';
const XDG = { XDG_CONFIG_HOME: '/home/dev/.xdg/config', XDG_STATE_HOME: '/home/dev/.xdg/state', XDG_CACHE_HOME: '/home/dev/.xdg/cache' };
const ENVS: [string, NodeJS.ProcessEnv][] = [
  ['XDG_* set', { HOME: home, ...XDG }],
  ['XDG_* unset', { HOME: home }],
];

// One options object for every call: the guard builds its judge once per options object (compileJudge),
// so a fresh `{}` a call rebuilt it each time, and the property runs were cut short by their time limit.
const NO_OPTIONS = {};
const exec = (command: string, env: NodeJS.ProcessEnv, options: object = NO_OPTIONS) =>
  judgeToolCall({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command } }, options, { tool: 'exec', home, env, realpath: false });

// The cache's MAC key lives at cacheDir/config/key (src/config/cache.ts macKey).
const BYPASSES = [
  'echo "{}" > ${HOME%/}/.config/agent-hooks/config.json',
  'echo "{}" > ${HOME:+$HOME}/.config/agent-hooks/config.json',
  'echo "{}" > ${HOME#}/.config/agent-hooks/config.json',
  'echo "{}" > ~+/../.config/agent-hooks/config.json',
  'echo "{}" > $PWD/../.config/agent-hooks/config.json',
  'echo "{}" > $OLDPWD/.config/agent-hooks/config.json',
  'echo "{}" > "${OLDPWD}/../.config/agent-hooks/config.json"',
  'printf -v P %s .config; echo x > ~/$P/agent-hooks/config.json',
  'echo > "$XDG_CONFIG_HOME/agent-hooks/config.json"',
  'cd "$XDG_CONFIG_HOME"; echo > agent-hooks/config.json',
  'cd "$XDG_CONFIG_HOME/agent-hooks" && echo {} > config.json',
  'cd -; echo > .config/agent-hooks/config.json',
  'echo > ${XDG_STATE_HOME}/agent-hooks/trust.json',
  'echo > $XDG_CACHE_HOME/agent-hooks/config/key',
  'echo > $XDG_CACHE_HOME/agent-hooks/key',
  'rm -rf "$XDG_STATE_HOME/agent-hooks"',
  'echo > ${HOME%/}/.local/state/agent-hooks/trust.json',
  'echo > ${HOME%/}/.cache/agent-hooks/config/key',
  'cp /tmp/x.json "${HOME:0:99}/.config/agent-hooks/config.json"',
  'tee "$(echo ~)/.config/agent-hooks/config.json" < /dev/null',
  'echo > "$D/.local/state/agent-hooks/trust.json"',
  'echo > "$ROOT/etc/agent-hooks/managed.json"',
  'cd; echo > .config/agent-hooks/config.json',
  'echo > $(dirname $HOME)/dev/.config/agent-hooks/config.json',
  'dd if=/tmp/x of=${HOME%/}/.config/agent-hooks/config.json',
  "sed -i 's/a/b/' ${HOME%/}/.config/agent-hooks/config.json",
  'cp /tmp/config.json ${HOME%/}/.config/agent-hooks/',
  'curl -o ${HOME%/}/.config/agent-hooks/config.json http://127.0.0.1/x',
  'echo > ~-/.config/agent-hooks/config.json',
  'bash -c "echo > \\${HOME%/}/.config/agent-hooks/config.json"',
  'mv /tmp/a "${XDG_CONFIG_HOME:-$HOME/.config}/agent-hooks/config.json"',
  'rm -rf ${HOME%/}/.config/agent-hooks',
  'node -e "fs.writeFileSync(`${os.homedir()}/.config/agent-hooks/config.json`, \'\')"',
  'printf -v N agent-hooks; echo {} > ~/.config/$N/config.json',
  'echo {} > "$HOME/.local/state/$N/trust.json"',
  'rm -rf ~/.config/${N}',
  'echo {} > "$XDG_CONFIG_HOME/$N/config.json"',
  'echo {} > /proc/self/cwd/../.config/agent-hooks/config.json',
  'echo {} > /proc/self/root/home/dev/.config/agent-hooks/config.json',
  'echo {} > ${HOME%/}/.claude.json',
  'echo {} > $PWD/../.claude.json',
  `python3 -c "import os; open(os.environ['HOME']+'/.config/agent-hooks/config.json','w')"`,
  `node -e "require('fs').writeFileSync(require('os').homedir()+'/.config/agent-hooks/config.json','{}')"`,
  `perl -e 'open F,">",glob("~/.config/agent-hooks/config.json")'`,
  `awk 'BEGIN{print "{}" > "/abs/.config/agent-hooks/config.json"}'`,
  `python3 -c "import os; p=os.path.join(os.path.expanduser('~'), '.config', 'agent-hooks', 'config.json'); open(p, 'w')"`,
  `ruby -e 'File.write(File.join(Dir.home, ".local/state/agent-hooks/trust.json"), "{}")'`,
  `php -r 'file_put_contents(getenv("HOME")."/.cache/agent-hooks/config/key", "");'`,
  `python3 -c "import os; open(os.environ['XDG_CONFIG_HOME'] + '/agent-hooks/config.json', 'w')"`,
  "python3 <<'EOF'\nimport pathlib\n(pathlib.Path.home() / '.config' / 'agent-hooks' / 'config.json').write_text('{}')\nEOF",
  `node -e "require('fs').writeFileSync(process.env.HOME + '/.claude/settings.json', '{}')"`,
  `python3 -c "import sys; open(sys.argv[1], 'w').write('{}')" ~/.config/agent-hooks/config.json`,
  `node --eval="require('fs').writeFileSync(require('os').homedir() + '/.local/state/agent-hooks/trust.json', '{}')"`,
  // The runner's own code is protected wherever it is installed (issue 21), behind a variable too.
  'cp dist/cli.js "$PREFIX/lib/node_modules/agent-hooks/dist/cli.js"',
];

describe('writes through unevaluated expansions are self-protection', () => {
  for (const [label, env] of ENVS) {
    it.each(BYPASSES)(`${label}: %s`, (command) => {
      expect(exec(command, env)).toMatchObject({ verdict: 'block', kind: 'self-protection' });
    });
  }

  it('the same class holds for other home-anchored rules: ${HOME%/}/.ssh/authorized_keys', () => {
    expect(exec('echo key >> ${HOME%/}/.ssh/authorized_keys', { HOME: home })).toMatchObject({ verdict: 'block', kind: 'ssh' });
    expect(exec('echo x > $PWD/../.bashrc', { HOME: home })).toMatchObject({ verdict: 'block', kind: 'shell-profile' });
  });

  it('the reason names the word and where it was judged', () => {
    expect(exec('echo > ${HOME%/}/.config/agent-hooks/config.json', { HOME: home }).reason).toBe(
      'sensitive-paths: self-protection: ${HOME%/}/.config/agent-hooks/config.json (as /home/dev/.config/agent-hooks/config.json)',
    );
    expect(exec(`node -e "require('fs').writeFileSync(require('os').homedir()+'/.config/agent-hooks/config.json','{}')"`, { HOME: home }).reason).toMatch(/^sensitive-paths: self-protection: interpreter code names \.config\/agent-hooks/);
  });

  it('categories["self-protection"] governs them: "ask" asks, false lets them through', () => {
    const code = `node -e "require('fs').writeFileSync(require('os').homedir()+'/.config/agent-hooks/config.json','{}')"`;
    for (const command of ['echo "{}" > ${HOME%/}/.config/agent-hooks/config.json', 'echo > "$XDG_CONFIG_HOME/agent-hooks/config.json"', 'printf -v P %s .config; echo x > ~/$P/agent-hooks/config.json', code]) {
      expect(exec(command, { HOME: home }, { categories: { 'self-protection': 'ask' } })).toMatchObject({ verdict: 'ask', kind: 'self-protection' });
      expect(exec(command, { HOME: home }, { categories: { 'self-protection': false } })).toEqual({ verdict: 'allow' });
    }
  });
});

describe('AGENT_HOOKS_MANAGED_CONFIG', () => {
  const env = { HOME: home, AGENT_HOOKS_MANAGED_CONFIG: '/opt/policy/hooks.json' };
  it.each([
    'echo x > /opt/policy/hooks.json',
    'echo x > "$AGENT_HOOKS_MANAGED_CONFIG"',
    'echo x > ${AGENT_HOOKS_MANAGED_CONFIG}',
    'cp /tmp/evil.json $AGENT_HOOKS_MANAGED_CONFIG',
    'rm /opt/policy/../policy/hooks.json',
    `python3 -c "open('/opt/policy/hooks.json', 'w').write('{}')"`,
    `node -e "require('fs').writeFileSync(process.env.AGENT_HOOKS_MANAGED_CONFIG, '{}')"`,
  ])('set: %s is self-protection', (command) => {
    expect(exec(command, env)).toMatchObject({ verdict: 'block', kind: 'self-protection' });
  });

  it('set: a Write or Edit of the file is self-protection; reading it is allowed', () => {
    const tool = (tool_name: string, canonical: string) =>
      judgeToolCall({ hook_event_name: 'PreToolUse', cwd, tool_name, tool_input: { file_path: '/opt/policy/hooks.json', content: '{}' } }, NO_OPTIONS, { tool: canonical, home, env, realpath: false });
    expect(tool('Write', 'write')).toMatchObject({ verdict: 'block', kind: 'self-protection' });
    expect(tool('Read', 'read')).toEqual({ verdict: 'allow' });
    expect(exec('cat /opt/policy/hooks.json', env)).toEqual({ verdict: 'allow' });
  });

  it('unset: a write to "$AGENT_HOOKS_MANAGED_CONFIG" is still self-protection; the literal file is ordinary', () => {
    expect(exec('echo x > "$AGENT_HOOKS_MANAGED_CONFIG"', { HOME: home })).toMatchObject({ verdict: 'block', kind: 'self-protection' });
    expect(exec('echo x > /opt/policy/hooks.json', { HOME: home })).toEqual({ verdict: 'allow' });
  });
});

const ORDINARY = [
  'echo x > "$TMPDIR/out.txt"',
  'echo x > build/$NAME.log',
  'echo x > /work/agent-hooks/src/x.ts',
  'cd /work/agent-hooks && echo x > src/x.ts',
  'echo x > "$WORK/agent-hooks/src/x.ts"',
  'echo x > "$(mktemp)"',
  'cd "$WORKDIR"; echo x > out.txt',
  'mkdir -p "$OUT" && cp report.json "$OUT/report.json"',
  'tee $LOG_DIR/build.log < build.out',
  'echo x > ${HOME%/}/notes.txt',
  'echo x > ~/.config/nvim/$F',
  'echo x > .config/$ENV.json',
  'echo x > ~/.cache/$X/data.bin',

  'echo x > $PWD/dist/config.json',
  'echo x > ~+/src/config.json',
  'cat "$XDG_CONFIG_HOME/agent-hooks/config.json"',
  'cat ${HOME%/}/.config/agent-hooks/config.json',
  'cat ~/.local/state/agent-hooks/trust.json',
  `python3 -c "print(open('README.md').read())"`,
  `node -e "console.log(require('./package.json').version)"`,
  `python3 -c "import json; print(json.load(open('.claude/settings.json')))"`,
  `node -e "require('fs').writeFileSync('/work/agent-hooks/src/x.ts', '')"`,
  `awk '{print > "out/" $1 ".txt"}' data.tsv`,
];

describe('ordinary writes with variables pass', () => {
  for (const [label, env] of ENVS) {
    it.each(ORDINARY)(`${label}: %s`, (command) => {
      expect(exec(command, env)).toEqual({ verdict: 'allow' });
    });
  }
});

describe('property: any unevaluated prefix in front of a protected tail is blocked', () => {
  const prefixes = fc.constantFrom('${HOME%/}', '${HOME:+$HOME}', '${HOME#}', '${HOME%%x}', '$PWD/..', '~+/..', '$OLDPWD', '"$X"', '${X:-/tmp}', '$(echo ~)', '`echo ~`', '${!H}', '${HOME/x/y}', '$D/a/..');
  const tails = fc.constantFrom('.config/agent-hooks/config.json', '.config/agent-hooks/config.yaml', '.local/state/agent-hooks/trust.json', '.cache/agent-hooks/config/key', '.config/agent-hooks', '.claude.json', '.claude/settings.json');
  const writers = fc.constantFrom((p: string) => `echo x > ${p}`, (p: string) => `echo x >> "${p}"`, (p: string) => `rm -f ${p}`, (p: string) => `cp /tmp/a ${p}`, (p: string) => `tee ${p} </dev/null`, (p: string) => `mv /tmp/a "${p}"`);
  for (const [label, env] of ENVS) {
    it(label, () => {
      fc.assert(
        fc.property(prefixes, tails, writers, (prefix, tail, writer) => {
          const verdict = exec(writer(`${prefix}/${tail}`), env);
          expect(verdict).toMatchObject({ verdict: 'block', kind: 'self-protection' });
        }),
        { seed: 11, numRuns: 300, interruptAfterTimeLimit: 5_000 },
      );
    });
  }

  it('the same prefixes in front of ordinary project files pass', () => {
    const ordinaryTails = fc.constantFrom('out.txt', 'build/app.log', 'agent-hooks/src/x.ts', 'dist/config.json', 'src/settings.json', 'tmp/agent-hooks.log');
    fc.assert(
      fc.property(fc.constantFrom('$TMPDIR', '"$OUT"', '${BUILD:-build}', '$(mktemp -d)', '$WORK'), ordinaryTails, (prefix, tail) => {
        expect(exec(`echo x > ${prefix}/${tail}`, { HOME: home })).toEqual({ verdict: 'allow' });
      }),
      { seed: 12, numRuns: 200, interruptAfterTimeLimit: 5_000 },
    );
  });
});

describe('property: unresolved words never reach the internal-error path', () => {
  const piece = fc.constantFrom('$', '${', '}', '$(', ')', '`', '~+', '~-', '/', '..', '.', 'agent-hooks', '.config', 'config.json', '$HOME', '${HOME%/}', '$XDG_CONFIG_HOME', '/proc/self/cwd', '"', "'", ' ', '\\', 'a', '$N', '$AGENT_HOOKS_MANAGED_CONFIG');
  const word = fc.array(piece, { maxLength: 16 }).map((p) => p.join(''));
  it('any redirect target, cd target and interpreter argument is judged without an internal error', () => {
    fc.assert(
      fc.property(word, word, (target, dir) => {
        for (const [, env] of ENVS) {
          for (const command of [`echo x > ${target}`, `cd ${dir}; echo x > ${target}`, `python3 -c "open(1)" ${target}`]) {
            const verdict = exec(command, env);
            expect(verdict.reason ?? '').not.toMatch(/internal error/);
          }
        }
      }),
      { seed: 13, numRuns: 300, interruptAfterTimeLimit: 5_000 },
    );
  });
});
