// sensitive-paths on real processes: standalone (`hooks guard sensitive-paths`) and as a builtin
// from a config file, for the inputs of issue 10 that used to crash it and let the call through.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';

const payload = (tool_name: string, tool_input: Record<string, unknown>) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name, tool_input, cwd: '/home/dev/project' });
const bash = (command: string) => payload('Bash', { command });

describe('sensitive-paths as a process', () => {
  const dir = tmpProject();
  const env = isolatedEnv(dir, { HOME: '/home/dev' });
  // Real processes: bin/hooks.js, the bundle and its exit code. `InProcess`: the same CLI in this process,
  // for the cases about what the guard decides; the first case and issue 21 keep real processes.
  const guard = (input: string, ...args: string[]) => runCli(['guard', 'sensitive-paths', ...args], { cwd: dir, env, input });
  const guardInProcess = (input: string, ...args: string[]) => cliInProcess(['guard', 'sensitive-paths', ...args], { cwd: dir, env, input });
  const configFile = path.join(dir, 'paths.json');
  writeFileSync(configFile, JSON.stringify({ hooks: { preToolUse: [{ builtin: 'sensitive-paths', options: { home: '/home/dev' } }] } }));
  const builtin = (input: string) => runCli(['run', 'pre-tool-use', '--config', configFile], { cwd: dir, env, input });
  const builtinInProcess = (input: string) => cliInProcess(['run', 'pre-tool-use', '--config', configFile], { cwd: dir, env, input });

  it.each([
    ['ls ** ; cat ~/.ssh/id_rsa', /^sensitive-paths: ssh: \/home\/dev\/\.ssh\/id_rsa/],
    ['grep -r token ** .env', /^sensitive-paths: dotenv: /],
    ['cat [b-a] ~/.aws/credentials', /^sensitive-paths: cloud-credentials: /],
    ['cat "unterminated', /^sensitive-paths: unverifiable: command could not be parsed/],
    ["echo '{}' > .claude/settings.json", /^sensitive-paths: self-protection: /],
  ])('standalone and builtin block %j with exit 2', async (command, reason) => {
    const real = command.startsWith('ls ** ;');
    for (const r of real ? [guard(bash(command)), builtin(bash(command))] : [await guardInProcess(bash(command)), await builtinInProcess(bash(command))]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).not.toMatch(/failed|continuing|Invalid regular expression/);
    }
  });

  it("the built runner protects its own package folder, found from the bundle's location (issue 21)", () => {
    for (const file of ['dist/bundle/main.js', 'bin/hooks.js', 'package.json']) {
      const r = guard(bash(`echo > ${path.join(ROOT, file)}`));
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`sensitive-paths: self-protection: ${path.join(ROOT, file)}\n`);
    }
    expect(guard(bash(`echo > ${path.join(ROOT, 'src', 'x.ts')}`)).code).toBe(0);
  });

  it('a Read of "**" passes quietly; ordinary mentions pass', async () => {
    expect(await guardInProcess(payload('Read', { file_path: '**' }))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await builtinInProcess(bash('grep -r "id_rsa" docs/ && echo "add .env to .gitignore"'))).toMatchObject({ code: 0 });
  });

  it('unverifiable=allow relaxes the unparsable command, never the named secret', async () => {
    expect((await guardInProcess(bash('cat "unterminated'), '--option', 'unverifiable=allow')).code).toBe(0);
    expect((await guardInProcess(bash('cat ~/.ssh/id_rsa "unterminated'), '--option', 'unverifiable=allow')).code).toBe(2);
  });
});

// The CLI in-process: what is judged; the block above proves the process.
describe('sensitive-paths through the CLI: self-protection through unevaluated expansions', () => {
  const dir = tmpProject();
  const withXdg = isolatedEnv(dir, { HOME: '/home/dev' });
  const withoutXdg: NodeJS.ProcessEnv = { ...withXdg };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'AGENT_HOOKS_MANAGED_CONFIG']) delete withoutXdg[name];
  const commands = [
    'echo "{}" > ${HOME%/}/.config/agent-hooks/config.json',
    'echo "{}" > ~+/../.config/agent-hooks/config.json',
    'printf -v P %s .config; echo x > ~/$P/agent-hooks/config.json',
    'cd "$XDG_CONFIG_HOME"; echo > agent-hooks/config.json',
    'echo > ${XDG_STATE_HOME}/agent-hooks/trust.json',
    'echo > "$AGENT_HOOKS_MANAGED_CONFIG"',
    `python3 -c "import os; open(os.environ['HOME']+'/.config/agent-hooks/config.json','w')"`,
  ];
  for (const [label, env] of [['XDG_* set', withXdg], ['XDG_* unset', withoutXdg]] as const) {
    it.each(commands)(`${label}: %s exits 2 as self-protection`, async (command) => {
      const r = await cliInProcess(['guard', 'sensitive-paths'], { cwd: dir, env, input: bash(command) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^sensitive-paths: self-protection: /);
    });
  }

  it('the managed config file itself, when AGENT_HOOKS_MANAGED_CONFIG names it', async () => {
    const r = await cliInProcess(['guard', 'sensitive-paths'], { cwd: dir, env: withXdg, input: bash(`echo {} > ${withXdg.AGENT_HOOKS_MANAGED_CONFIG}`) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sensitive-paths: self-protection: /);
  });

  it('ordinary writes with variables and a project called agent-hooks pass', async () => {
    for (const command of ['echo x > "$TMPDIR/out.txt"', 'echo x > build/$NAME.log', 'echo x > /work/agent-hooks/src/x.ts']) {
      expect(await cliInProcess(['guard', 'sensitive-paths'], { cwd: dir, env: withXdg, input: bash(command) })).toMatchObject({ code: 0 });
    }
  });
});
