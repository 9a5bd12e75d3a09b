// `hooks install <agent> --serve`: the client-wrapped commands every agent gets, Claude Code's http
// handlers as an opt-in for --user only, the port kept per user, each install's choice for a server that is down, and uninstall finding ours.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isOurHttpHandler } from '../../src/install/serve.js';
import { PORT_RANGE } from '../../src/serve/paths.js';
import { dependentProject, hooks } from '../install/kit.js';
import { tmpProject } from '../helpers.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

type Json = Record<string, any>;

function project(): string {
  const dir = dependentProject();
  symlinkSync(path.join(dir, 'node_modules', '.bin', 'agent-hooks'), path.join(dir, 'node_modules', '.bin', 'agent-hooks-client'));
  return dir;
}

const read = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Json;

describe('install claude-code --serve', () => {
  it('by default: command hooks through agent-hooks-client (which checks the socket is yours), with no port, URL or token in the project file', async () => {
    const dir = project();
    const home = tmpProject();
    const r = await hooks(['install', 'claude-code', '--serve'], dir, home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the client sends nothing to a socket that is not yours');
    const text = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
    const settings = JSON.parse(text) as Json;
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({
      type: 'command',
      command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks-client "$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks run pre-tool-use --dialect claude-code # agent-hooks',
    });
    // Portable: every teammate's client finds their own server; nothing of this user's in a committed file.
    expect(text).not.toMatch(/127\.0\.0\.1|"type": "http"|AGENT_HOOKS_TOKEN|[0-9a-f]{64}/);
    expect(existsSync(path.join(home, '.local/state/agent-hooks/serve/port'))).toBe(false);
  });

  it('--http at project scope is refused before anything is written: a committed file must not name this user\'s port', async () => {
    const dir = project();
    const home = tmpProject();
    const r = await hooks(['install', 'claude-code', '--serve', '--http'], dir, home);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^agent-hooks: install claude-code: install --serve --http writes your own port .* use --user/);
    expect(existsSync(path.join(dir, '.claude/settings.json'))).toBe(false);
    expect(existsSync(path.join(home, '.local/state/agent-hooks/serve/port'))).toBe(false);
    expect((await hooks(['install', 'codex', '--user', '--serve', '--http'], dir, home)).stderr).toContain('only Claude Code has http hooks');
    expect((await hooks(['install', 'claude-code', '--user', '--serve', '--port', '4000'], dir, home)).stderr).toContain('--port goes with --http');
  });

  it('--user --http writes http handlers on the port with the token from $AGENT_HOOKS_TOKEN, says it is only for a machine no other user can bind, and SessionStart goes through the client', async () => {
    const dir = project();
    const home = tmpProject();
    const r = await hooks(['install', 'claude-code', '--user', '--serve', '--http', '--port', '47999'], dir, home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('export AGENT_HOOKS_TOKEN="$(cat ');
    expect(r.stderr).toContain('--http is only for a machine where no other user can bind loopback ports');
    const settings = read(home, '.claude/settings.json');
    const handler = (event: string) => settings.hooks[event][0].hooks[0];
    expect(handler('PreToolUse')).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:47999/v1/run?event=pre-tool-use&dialect=claude-code',
      headers: { Authorization: 'Bearer $AGENT_HOOKS_TOKEN' },
      allowedEnvVars: ['AGENT_HOOKS_TOKEN'],
      timeout: 60,
      onFailure: 'block',
    });
    expect(handler('UserPromptSubmit').onFailure).toBe('block');
    expect(handler('PostToolUse').onFailure).toBeUndefined();
    expect(handler('SessionStart')).toMatchObject({ type: 'command', command: expect.stringMatching(/agent-hooks-client --when-down continue .* run session-start --dialect claude-code # agent-hooks$/) });
    expect(readFileSync(path.join(home, '.claude/settings.json'), 'utf8')).not.toMatch(/[0-9a-f]{64}/);
  });

  it('--http without --port: a free port picked at random once, kept in the state folder (0600), the same at every install, never derived from the uid', async () => {
    const dir = project();
    const home = tmpProject();
    const port = async () => {
      expect((await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home)).code).toBe(0);
      return Number(/127\.0\.0\.1:(\d+)\//.exec(readFileSync(path.join(home, '.claude/settings.json'), 'utf8'))![1]);
    };
    const first = await port();
    expect(first).toBeGreaterThanOrEqual(PORT_RANGE.min);
    expect(first).toBeLessThanOrEqual(PORT_RANGE.max);
    expect(await port()).toBe(first);
    const file = path.join(home, '.local/state/agent-hooks/serve/port');
    expect(readFileSync(file, 'utf8')).toBe(`${first}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Another home (another user) gets its own: not a function of anything they share.
    const others = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const other = tmpProject();
      await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, other);
      others.add(Number(readFileSync(path.join(other, '.local/state/agent-hooks/serve/port'), 'utf8')));
    }
    expect(others.size).toBeGreaterThan(1);
  });

  it('a port file that is not a private file of ours holding a port is refused with its name, never replaced', async () => {
    const dir = project();
    const home = tmpProject();
    const file = path.join(home, '.local/state/agent-hooks/serve/port');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, 'eighty\n', { mode: 0o600 });
    const r = await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: expected a port number`);
    chmodSync(file, 0o666);
    expect((await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home)).stderr).toContain(`${file} is not a private file of yours`);
    expect(readFileSync(file, 'utf8')).toBe('eighty\n');
  });

  it('--when-down continue sets no onFailure; --when-down run is refused with --http (an http hook has nothing to fall back to), and is the default without', async () => {
    const dir = project();
    const home = tmpProject();
    expect((await hooks(['install', 'claude-code', '--user', '--serve', '--http', '--when-down', 'continue'], dir, home)).code).toBe(0);
    const settings = read(home, '.claude/settings.json');
    expect(settings.hooks.PreToolUse[0].hooks[0].onFailure).toBeUndefined();
    const refused = await hooks(['install', 'claude-code', '--user', '--serve', '--http', '--when-down', 'run'], dir, home);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has no command to fall back to');
    expect((await hooks(['install', 'claude-code', '--serve', '--when-down', 'run'], dir, home)).code).toBe(0);
  });

  it('install without --serve puts the command entries back in place of the http ones, and uninstall removes either kind', async () => {
    const dir = project();
    const home = tmpProject();
    await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home);
    const file = path.join(home, '.claude/settings.json');
    const withUser = read(home, '.claude/settings.json');
    // The user's own http hook to some other service is not ours.
    withUser.hooks.PreToolUse.push({ hooks: [{ type: 'http', url: 'http://127.0.0.1:9999/audit', headers: {} }] });
    writeFileSync(file, JSON.stringify(withUser, null, 2));
    await hooks(['install', 'claude-code', '--user'], dir, home);
    const commands = read(home, '.claude/settings.json');
    expect(commands.hooks.PreToolUse).toHaveLength(2);
    expect(commands.hooks.PreToolUse[0].hooks[0].type).toBe('command');
    expect(commands.hooks.PreToolUse[1].hooks[0].url).toBe('http://127.0.0.1:9999/audit');
    await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home);
    const u = await hooks(['uninstall', 'claude-code', '--user'], dir, home);
    expect(u.code, u.stderr).toBe(0);
    const left = read(home, '.claude/settings.json');
    expect(left.hooks).toEqual({ PreToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9999/audit', headers: {} }] }] });
  });

  it('only an http handler of exactly our shape counts as ours', () => {
    const ours = { type: 'http', url: 'http://127.0.0.1:47100/v1/run?event=pre-tool-use&dialect=claude-code', allowedEnvVars: ['AGENT_HOOKS_TOKEN'] };
    expect(isOurHttpHandler(ours)).toBe(true);
    expect(isOurHttpHandler({ ...ours, url: `${ours.url}&onError=block` })).toBe(true);
    expect(isOurHttpHandler({ ...ours, url: 'http://example.com:47100/v1/run?event=pre-tool-use&dialect=claude-code' })).toBe(false);
    expect(isOurHttpHandler({ ...ours, allowedEnvVars: [] })).toBe(false);
    expect(isOurHttpHandler({ ...ours, type: 'command' })).toBe(false);
  });
});

describe('install <command-only agent> --serve', () => {
  it.each([
    ['codex', '.codex/hooks.json', (s: Json) => s.hooks.PreToolUse[0].hooks[0].command],
    ['gemini', '.gemini/settings.json', (s: Json) => s.hooks.BeforeTool[0].hooks[0].command],
    ['cursor', '.cursor/hooks.json', (s: Json) => s.hooks.preToolUse[0].command],
  ])('%s: the usual command, wrapped in agent-hooks-client; --when-down block blocks only the gated events', async (agent, file, preToolUse) => {
    const dir = project();
    const home = tmpProject();
    expect((await hooks(['install', agent, '--serve'], dir, home)).code).toBe(0);
    const command = preToolUse(read(dir, file)) as string;
    expect(command).toMatch(/node_modules\/\.bin\/agent-hooks-client ".*"\/node_modules\/\.bin\/agent-hooks run pre-tool-use --dialect [a-z]+ # agent-hooks$/);
    expect((await hooks(['install', agent, '--serve', '--when-down', 'block', '--fail-closed'], dir, home)).code).toBe(0);
    const settings = read(dir, file);
    expect(preToolUse(settings)).toMatch(/agent-hooks-client --when-down block .* run pre-tool-use --dialect [a-z]+ --on-error block # agent-hooks$/);
    expect(JSON.stringify(settings).replaceAll('\\"', "'")).toMatch(/agent-hooks-client --when-down continue [^"]*run post-tool-use/);
    expect((await hooks(['uninstall', agent], dir, home)).code).toBe(0);
  });

  it('doctor reads --serve installs: the launcher inside the client, the http handlers fail-closed', async () => {
    const dir = project();
    const home = tmpProject();
    await hooks(['install', 'claude-code', '--user', '--serve', '--http'], dir, home);
    await hooks(['install', 'codex', '--serve', '--fail-closed'], dir, home);
    const r = await hooks(['doctor'], dir, home);
    expect(r.stdout + r.stderr).not.toContain('not a command agent-hooks writes');
    expect(r.stdout + r.stderr).not.toContain('fail open');
    await hooks(['install', 'claude-code', '--user', '--serve', '--http', '--when-down', 'continue'], dir, home);
    expect((await hooks(['doctor'], dir, home)).stdout).toMatch(/claude-code user\): guards fail open/);
  });

  it('opencode --serve is refused: its plugin runs in-process', async () => {
    const r = await hooks(['install', 'opencode', '--serve'], project(), tmpProject());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('install it without --serve');
  });
});
