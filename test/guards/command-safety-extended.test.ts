// The extended corpus (cwd-aware, git and out-of-project categories, evasion classes), and the
// options and context that the new categories depend on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandSafety, judgeCommand, type JudgeContext } from '../../src/guards/command-safety.js';
import { commandSafetyOptionsSchema } from '../../src/guards/command-safety/options.js';
import type { HandlerContext, HookInput } from '../../src/types.js';

interface Case {
  group: string;
  command: string;
  category?: string;
  cwd?: string;
}

const corpus = JSON.parse(
  readFileSync(new URL('./corpus/command-safety-extended.json', import.meta.url), 'utf8'),
) as { dangerous: Case[]; ordinary: Case[] };

/** Where every corpus command runs unless the case says otherwise. */
const BASE: JudgeContext = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };
const at = (c: Case): JudgeContext => ({ ...BASE, ...(c.cwd !== undefined ? { cwd: c.cwd } : {}) });

function byGroup(cases: Case[]): [string, Case[]][] {
  const groups = new Map<string, Case[]>();
  for (const c of cases) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  return [...groups];
}

describe('extended corpus', () => {
  it('is larger than the design corpus', () => {
    expect(corpus.dangerous.length).toBeGreaterThanOrEqual(380);
    expect(corpus.ordinary.length).toBeGreaterThanOrEqual(340);
  });

  describe('dangerous commands are blocked with their category', () => {
    for (const [group, cases] of byGroup(corpus.dangerous)) {
      describe(group, () => {
        it.each(cases.map((c) => [c.command, c.category!, c] as const))('%j → %s', (command, category, c) => {
          expect(judgeCommand(command, {}, at(c))).toMatchObject({ verdict: 'block', category });
        });
      });
    }
  });

  describe('ordinary commands are allowed', () => {
    for (const [group, cases] of byGroup(corpus.ordinary)) {
      describe(group, () => {
        it.each(cases.map((c) => [c.command, c] as const))('%j', (command, c) => {
          expect(judgeCommand(command, {}, at(c))).toEqual({ verdict: 'allow' });
        });
      });
    }
  });
});

describe('the working directory and the project', () => {
  it.each([
    ['rm -rf *', '/'],
    ['rm -rf .[!.]*', '/'],
    ['rm -rf ./*', '/home/dev'],
    ['find . -delete', '/home/dev'],
    ['rm -rf *', '/etc'],
  ])('%j in %s is blocked', (command, cwd) => {
    expect(judgeCommand(command, {}, { ...BASE, cwd }).verdict).toBe('block');
  });

  it('allows the same commands inside the project', () => {
    for (const command of ['rm -rf *', 'rm -rf ./*', 'find . -delete', 'rm -rf build']) {
      expect(judgeCommand(command, {}, BASE)).toEqual({ verdict: 'allow' });
    }
  });

  it('reads home from the context, whatever it is called', () => {
    const context = { cwd: '/work/u/app', projectDir: '/work/u/app', home: '/work/u' };
    expect(judgeCommand('rm -rf /work/u', {}, context)).toMatchObject({ category: 'filesystem-destruction' });
    expect(judgeCommand('rm -rf /work/u/Documents', {}, context)).toMatchObject({ category: 'delete-outside-project' });
    expect(judgeCommand('rm -rf /work/u/app/dist', {}, context)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('cd .. && rm -rf *', {}, context)).toMatchObject({ category: 'filesystem-destruction' });
  });

  it('a project dir that is / or home protects nothing beyond temp dirs', () => {
    const context = { cwd: '/home/dev', projectDir: '/home/dev', home: '/home/dev' };
    expect(judgeCommand('rm -rf ~/Documents', {}, context)).toMatchObject({ category: 'delete-outside-project' });
    expect(judgeCommand('rm -rf /tmp/x', {}, context)).toEqual({ verdict: 'allow' });
  });

  it('without a context, relative paths are the project and climbing out is not', () => {
    expect(judgeCommand('rm -rf build')).toEqual({ verdict: 'allow' });
    expect(judgeCommand('rm -rf ../other')).toMatchObject({ category: 'delete-outside-project' });
    expect(judgeCommand('rm -rf ..')).toMatchObject({ verdict: 'block' });
    // A name that starts with two dots is inside: only `..` and `../…` climb out.
    expect(judgeCommand('rm -rf ..cache')).toEqual({ verdict: 'allow' });
    expect(judgeCommand('rm -rf ~+')).toMatchObject({ category: 'unverifiable' });
    expect(judgeCommand('rm -rf "$PWD"')).toMatchObject({ category: 'unverifiable' });
  });

  it('deleting the project itself or a folder holding it is its own rule', () => {
    expect(judgeCommand('rm -rf "$(pwd)"', {}, BASE)).toMatchObject({ rule: 'delete-project-root' });
    expect(judgeCommand('rm -rf ~', {}, BASE)).toMatchObject({ category: 'filesystem-destruction' });
  });
});

describe('bounds on what one command may expand into', () => {
  it('too many code strings or brace words are unverifiable, not walked', () => {
    expect(judgeCommand(`python3 -c '${'os.system("ls"); '.repeat(100)}'`)).toMatchObject({ category: 'unverifiable', reason: expect.stringMatching(/over the 64 limit/) });
    expect(judgeCommand(`rm -rf ${'{a,b}'.repeat(8)}`)).toMatchObject({ category: 'unverifiable' });
    expect(judgeCommand(`echo ${'{a,b}'.repeat(8)}`)).toEqual({ verdict: 'allow' });
  });
});

describe('modes: every category and rule can be off, ask or block', () => {
  it('turns the new categories off or into ask', () => {
    expect(judgeCommand('git reset --hard', { categories: { 'git-destruction': false } })).toEqual({ verdict: 'allow' });
    expect(judgeCommand('git reset --hard', { categories: { 'git-destruction': 'ask' } })).toMatchObject({ verdict: 'ask', rule: 'git-reset-hard' });
    expect(judgeCommand('rm -rf ~/Documents', { categories: { 'delete-outside-project': 'ask' } }, BASE)).toMatchObject({ verdict: 'ask' });
  });

  it('a rule setting wins over its category', () => {
    const options = { categories: { 'git-destruction': 'ask' as const }, rules: { 'git-push-force': false, 'git-clean': 'block' as const } };
    expect(judgeCommand('git push -f', options)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('git clean -fdx', options)).toMatchObject({ verdict: 'block' });
    expect(judgeCommand('git stash clear', options)).toMatchObject({ verdict: 'ask' });
  });

  it('a block anywhere in the command wins over an ask', () => {
    const options = { categories: { 'git-destruction': 'ask' as const } };
    expect(judgeCommand('git reset --hard && rm -rf /', options)).toMatchObject({ verdict: 'block', category: 'filesystem-destruction' });
  });

  it('allowDeleteIn adds directories where deletes are fine', () => {
    expect(judgeCommand('rm -rf ~/scratch/x', { allowDeleteIn: ['~/scratch'] }, BASE)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('rm -rf /srv/builds', { allowDeleteIn: ['/srv/builds'] }, BASE)).toEqual({ verdict: 'allow' });
    expect(judgeCommand('rm -rf ~/Documents', { allowDeleteIn: ['~/scratch'] }, BASE).verdict).toBe('block');
  });

  it('unverifiable can be ask', () => {
    expect(judgeCommand('eval "$CMD"', { unverifiable: 'ask' })).toMatchObject({ verdict: 'ask', category: 'unverifiable' });
    expect(judgeCommand("echo 'open", { unverifiable: 'ask' })).toMatchObject({ verdict: 'ask' });
  });

  it('the schema takes the modes, the rules and allowDeleteIn, and nothing else', () => {
    const full = { categories: { 'git-destruction': 'ask', disk: false, permissions: true }, rules: { 'git-push-force': 'block' }, allowDeleteIn: ['~/x', '/srv'], unverifiable: 'ask' };
    expect(commandSafetyOptionsSchema.parse(full)).toEqual(full);
    expect(commandSafetyOptionsSchema.safeParse({ rules: { 'git-nope': false } }).success).toBe(false);
    expect(commandSafetyOptionsSchema.safeParse({ categories: { disk: 'maybe' } }).success).toBe(false);
    expect(commandSafetyOptionsSchema.safeParse({ allowDeleteIn: ['relative/dir'] }).success).toBe(false);
  });
});

describe('the guard takes its context from the event and the environment', () => {
  const event = (command: string, cwd?: string): HookInput => ({
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    ...(cwd !== undefined ? { cwd } : {}),
  });
  const handlerContext: HandlerContext = { event: 'preToolUse', tool: 'exec', signal: new AbortController().signal };

  it('judges relative paths against the event cwd', () => {
    const handler = commandSafety.create({}, { projectDir: '/srv/runner', env: { HOME: '/home/dev' } });
    expect(handler(event('rm -rf *', '/'), handlerContext)).toMatchObject({ decision: 'block' });
    expect(handler(event('rm -rf *', '/home/dev/project'), handlerContext)).toBeUndefined();
    expect(handler(event('find . -delete', '/home/dev'), handlerContext)).toMatchObject({ decision: 'block' });
  });

  it('takes the project from CLAUDE_PROJECT_DIR, then HOOKS_PROJECT_DIR, then the event cwd', () => {
    const claude = commandSafety.create({}, { projectDir: '/x', env: { HOME: '/home/dev', CLAUDE_PROJECT_DIR: '/home/dev/app' } });
    expect(claude(event('rm -rf ../app/dist', '/home/dev/app/web'), handlerContext)).toBeUndefined();
    expect(claude(event('rm -rf ../../other', '/home/dev/app/web'), handlerContext)).toMatchObject({ decision: 'block' });
    const hooks = commandSafety.create({}, { projectDir: '/x', env: { HOOKS_PROJECT_DIR: '/srv/app' } });
    expect(hooks(event('rm -rf /srv/app/build', '/srv/app'), handlerContext)).toBeUndefined();
    const none = commandSafety.create({}, { projectDir: '/home/dev/app', env: {} });
    expect(none(event('rm -rf ../shared', '/home/dev/app/web'), handlerContext)).toBeUndefined();
    expect(none(event('rm -rf ../shared', '/home/dev/elsewhere'), handlerContext)).toMatchObject({ decision: 'block' });
  });

  it('ignores a cwd that is not an absolute path', () => {
    const handler = commandSafety.create({}, { projectDir: '/home/dev/app', env: {} });
    for (const cwd of ['relative', 42, null, '']) {
      const input = { ...event('rm -rf build'), cwd } as HookInput;
      expect(handler(input, handlerContext)).toBeUndefined();
    }
  });

  it('answers ask when the mode says so', () => {
    const handler = commandSafety.create({ categories: { 'git-destruction': 'ask' } });
    expect(handler(event('git push --force'), handlerContext)).toMatchObject({ decision: 'ask', reason: expect.stringContaining('git-push-force') });
  });
});
