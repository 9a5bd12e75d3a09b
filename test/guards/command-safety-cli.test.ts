// `hooks guard command-safety`: the event's cwd decides, ask reaches the agent, what cannot be judged
// is blocked. No config file is involved (the trust gate does not apply). The first case runs real
// bin/hooks.js processes; the others run the same CLI in-process, where the point is the verdict.
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const event = (command: unknown, cwd?: string) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, ...(cwd !== undefined ? { cwd } : {}) });

describe('hooks guard command-safety', () => {
  const dir = tmpProject();
  const env = isolatedEnv(dir, { HOME: '/home/dev' });
  const real = (args: string[], input: string) => runCli(['guard', 'command-safety', ...args], { cwd: dir, env, input });
  const run = (args: string[], input: string) => cliInProcess(['guard', 'command-safety', ...args], { cwd: dir, env, input });

  it('blocks rm -rf * when the event runs in / or the home directory, and not in the project', () => {
    for (const cwd of ['/', '/home/dev']) {
      const r = real([], event('rm -rf *', cwd));
      expect(r.code, cwd).toBe(2);
      expect(r.stderr).toMatch(/^command-safety: filesystem-destruction: /);
    }
    expect(real([], event('rm -rf *', '/home/dev/project'))).toMatchObject({ code: 0, stdout: '' });
  });

  it('blocks deletes outside the project named by CLAUDE_PROJECT_DIR', async () => {
    const inProject = { ...env, CLAUDE_PROJECT_DIR: '/home/dev/project' };
    const outside = await cliInProcess(['guard', 'command-safety'], { cwd: dir, env: inProject, input: event('rm -rf ../other', '/home/dev/project') });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/delete-outside-project/);
    const inside = await cliInProcess(['guard', 'command-safety'], { cwd: dir, env: inProject, input: event('rm -rf dist /tmp/build-x', '/home/dev/project') });
    expect(inside.code).toBe(0);
  });

  it('blocks git destruction, and asks when the category says ask', async () => {
    expect((await run([], event('git reset --hard'))).code).toBe(2);
    const asked = await run(['--option', 'categories={"git-destruction":"ask"}'], event('git push --force'));
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'ask' });
    expect((await run(['--option', 'rules={"git-push-force":false}'], event('git push --force'))).code).toBe(0);
  });

  it('blocks what it cannot judge: a non-string command, an unparseable one, a hidden program', async () => {
    for (const command of [42, { x: 1 }, "echo 'open", 'f=(rm -rf /); "${f[@]}"', 'eval "$(echo cm0gLXJmIC8= | base64 -d)"']) {
      const r = await run([], event(command));
      expect(r.code, JSON.stringify(command)).toBe(2);
    }
  });
});
