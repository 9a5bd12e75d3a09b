// `hooks install <agent> --serve`: Claude Code's http handlers, the client-wrapped commands of the
// command-only agents, each install's choice for a server that is down, and uninstall finding ours.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isOurHttpHandler } from '../../src/install/serve.js';
import { dependentProject, hooks } from '../install/kit.js';
import { tmpProject } from '../helpers.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 60_000 });

type Json = Record<string, any>;

function project(): string {
  const dir = dependentProject();
  symlinkSync(path.join(dir, 'node_modules', '.bin', 'agent-hooks'), path.join(dir, 'node_modules', '.bin', 'agent-hooks-client'));
  return dir;
}

const read = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Json;

describe('install claude-code --serve', () => {
  it('writes http handlers on the loopback port with the token from $AGENT_HOOKS_TOKEN; the gated events block while the server is down; SessionStart goes through the client', async () => {
    const dir = project();
    const home = tmpProject();
    const r = await hooks(['install', 'claude-code', '--serve', '--port', '47999'], dir, home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('export AGENT_HOOKS_TOKEN="$(cat ');
    const settings = read(dir, '.claude/settings.json');
    const handler = (event: string) => settings.hooks[event][0].hooks[0];
    expect(handler('PreToolUse')).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:47999/v1/run?event=pre-tool-use&dialect=claude-code',
      headers: { Authorization: 'Bearer $AGENT_HOOKS_TOKEN' },
      allowedEnvVars: ['AGENT_HOOKS_TOKEN'],
      // The chain's worst case: the two default guards (30 s each) plus 10 s.
      timeout: 70,
      onFailure: 'block',
    });
    expect(handler('UserPromptSubmit').onFailure).toBe('block');
    expect(handler('PostToolUse').onFailure).toBeUndefined();
    expect(handler('SessionStart')).toMatchObject({ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks-client --when-down continue "$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks run session-start --dialect claude-code # agent-hooks' });
    // Nothing of the token in a file teams commit.
    expect(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).not.toMatch(/[0-9a-f]{64}/);
  });

  it('--when-down continue sets no onFailure; --when-down run is refused (an http hook has nothing to fall back to)', async () => {
    const dir = project();
    const home = tmpProject();
    expect((await hooks(['install', 'claude-code', '--serve', '--when-down', 'continue'], dir, home)).code).toBe(0);
    const settings = read(dir, '.claude/settings.json');
    expect(settings.hooks.PreToolUse[0].hooks[0].onFailure).toBeUndefined();
    const refused = await hooks(['install', 'claude-code', '--serve', '--when-down', 'run'], dir, home);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has no command to fall back to');
  });

  it('install without --serve puts the command entries back in place of the http ones, and uninstall removes either kind', async () => {
    const dir = project();
    const home = tmpProject();
    await hooks(['install', 'claude-code', '--serve'], dir, home);
    const file = path.join(dir, '.claude/settings.json');
    const withUser = read(dir, '.claude/settings.json');
    // The user's own http hook to some other service is not ours.
    withUser.hooks.PreToolUse.push({ hooks: [{ type: 'http', url: 'http://127.0.0.1:9999/audit', headers: {} }] });
    writeFileSync(file, JSON.stringify(withUser, null, 2));
    await hooks(['install', 'claude-code'], dir, home);
    const commands = read(dir, '.claude/settings.json');
    expect(commands.hooks.PreToolUse).toHaveLength(2);
    expect(commands.hooks.PreToolUse[0].hooks[0].type).toBe('command');
    expect(commands.hooks.PreToolUse[1].hooks[0].url).toBe('http://127.0.0.1:9999/audit');
    await hooks(['install', 'claude-code', '--serve'], dir, home);
    const u = await hooks(['uninstall', 'claude-code'], dir, home);
    expect(u.code, u.stderr).toBe(0);
    const left = read(dir, '.claude/settings.json');
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
    await hooks(['install', 'claude-code', '--serve'], dir, home);
    await hooks(['install', 'codex', '--serve', '--fail-closed'], dir, home);
    const r = await hooks(['doctor'], dir, home);
    expect(r.stdout + r.stderr).not.toContain('not a command agent-hooks writes');
    expect(r.stdout + r.stderr).not.toContain('fail open');
    await hooks(['install', 'claude-code', '--serve', '--when-down', 'continue'], dir, home);
    expect((await hooks(['doctor'], dir, home)).stdout).toMatch(/claude-code project\): guards fail open/);
  });

  it('opencode --serve is refused: its plugin runs in-process', async () => {
    const r = await hooks(['install', 'opencode', '--serve'], project(), tmpProject());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('install it without --serve');
  });
});
