// Claude Code's matchers and `if` rules, and agent-hooks' `/.../` match patterns (SHARED decision 1).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeMatcherToMatch, fieldMatcherPasses, parseClaudeMatcher } from '../../src/match/claude-matcher.js';
import { parseClaudeRule, rulePasses, subcommands } from '../../src/match/claude-rule.js';
import { checkToolPattern, selectHooks } from '../../src/match/select.js';
import { compileRegexPattern, regexLooking } from '../../src/match/tool-pattern.js';
import { bash, event } from '../helpers.js';

const tool = (name: string, input: Record<string, unknown> = {}) =>
  event('preToolUse', { hook_event_name: 'PreToolUse', tool_name: name, tool_input: input, cwd: '/home/dev/p' });
const picks = (h: Record<string, unknown>, ev = bash('ls')) => selectHooks([{ id: 'h', enabled: true, ...h }], ev)[0]!.selected;
/** A hook whose `match` came from a Claude matcher, as the resolver makes it. */
const claudeHook = (matcher: string | undefined) => {
  const match = claudeMatcherToMatch(matcher);
  return match === undefined ? {} : { match, matchMode: 'claude' };
};

/** What Claude Code 2.1.328 does with a matcher on a tool name (its `MVe`/`one`, without aliases). */
function claudeMatches(matcher: string, name: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  if (/^[a-zA-Z0-9_|, -]+$/.test(matcher)) return matcher.split(/[|,]/).map((n) => n.trim()).filter(Boolean).includes(name);
  try {
    return new RegExp(matcher).test(name);
  } catch {
    return false;
  }
}

const CLAUDE_TOOLS = ['Bash', 'Edit', 'Write', 'Read', 'MultiEdit', 'NotebookEdit', 'WebFetch', 'WebSearch', 'Glob', 'Grep', 'Task', 'mcp__memory__save', 'mcp__github__create_issue'];

describe('match: /.../ patterns', () => {
  it.each([
    ['/^Edit$/', 'Edit', true],
    // Every spelling of the tool (decision 1): NotebookEdit is a spelling of edit, and so is `Edit`.
    ['/^Edit$/', 'NotebookEdit', true],
    ['/^Edit$/', 'Write', false],
    ['/Edit/', 'NotebookEdit', true],
    ['/edit|write/i', 'Write', true],
    ['/mcp__memory__.*/', 'mcp__memory__save', true],
    ['/mcp__memory__.*/', 'mcp__github__x', false],
    // Every spelling of the tool: `shell` is Codex's name for Bash.
    ['/^shell$/', 'Bash', true],
    ['/^exec$/', 'run_shell_command', true],
  ])('%s on %s → %s', (pattern, name, expected) => {
    expect(picks({ match: [pattern] }, tool(name))).toBe(expected);
  });

  it('a regex with g or y answers the same on every call (no lastIndex carried over)', () => {
    const h = { match: ['/Bash/g'] };
    expect([1, 2, 3].map(() => picks(h, tool('Bash')))).toEqual([true, true, true]);
  });

  it.each([
    ['Edit|Write', '"/Edit|Write/"'],
    ['^Edit$', '"/^Edit$/"'],
    ['mcp__memory__.*', '"/mcp__memory__.*/"'],
    ['Notebook.*', '"/Notebook.*/"'],
    ['(Bash)', '"/(Bash)/"'],
    ['a+', '"/a+/"'],
    ['C:\\x', '/'],
  ])('a bare regex-looking %s is a config error showing the /.../ form', (pattern, shown) => {
    const problem = checkToolPattern(pattern);
    expect(problem).toContain('looks like a regex');
    expect(problem).toContain(shown);
  });

  it('a /.../ pattern that does not compile, or has an unknown flag, is a config error', () => {
    expect(checkToolPattern('/(/')).toMatch(/not a valid regex/);
    expect(checkToolPattern('/a/x')).toMatch(/flag/);
    expect(checkToolPattern('/a/ii')).toMatch(/flag/);
    expect(checkToolPattern('/^Bash$/')).toBeUndefined();
    expect(checkToolPattern('Bash')).toBeUndefined();
    expect(checkToolPattern('mcp__*')).toBeUndefined();
  });

  it('property: compiling and checking any pattern never throws, and a regex-looking bare pattern always names its /.../ form', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (pattern) => {
        const compiled = compileRegexPattern(pattern);
        expect(typeof compiled.ok).toBe('boolean');
        const problem = checkToolPattern(pattern);
        const looks = regexLooking(pattern);
        if (looks !== undefined) expect(problem).toBe(looks);
        // A matcher never throws on any tool, whatever the pattern.
        selectHooks([{ id: 'h', enabled: true, match: [pattern] }], tool('Bash'));
      }),
      { seed: 11, numRuns: 400, interruptAfterTimeLimit: 4000 },
    );
  });
});

describe('Claude matchers translate to what Claude Code matches', () => {
  it.each([
    ['Edit|Write', ['Edit', 'Write']],
    ['Edit, Write', ['Edit', 'Write']],
    ['Bash', ['Bash']],
    ['*', undefined],
    ['', undefined],
    [undefined, undefined],
    ['^Edit$', ['/^Edit$/']],
    ['mcp__memory__.*', ['/mcp__memory__.*/']],
    ['Notebook.*', ['/Notebook.*/']],
  ])('%s → %j', (matcher, match) => {
    expect(claudeMatcherToMatch(matcher)).toEqual(match);
  });

  it.each([
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'MultiEdit', false],
    ['^Edit$', 'Edit', true],
    ['^Edit$', 'NotebookEdit', false],
    ['Edit', 'NotebookEdit', false],
    ['Edit.*', 'NotebookEdit', true],
    ['mcp__memory__.*', 'mcp__memory__save', true],
    ['Notebook.*', 'NotebookEdit', true],
    ['Notebook.*', 'Edit', false],
  ])('%s on %s → %s (as in Claude Code)', (matcher, name, expected) => {
    expect(picks(claudeHook(matcher), tool(name))).toBe(expected);
    expect(claudeMatches(matcher, name)).toBe(expected);
  });

  it('property: on any matcher and any Claude tool, the translation runs the hook wherever Claude Code would', () => {
    const matcher = fc.oneof(
      fc.constantFrom('Edit|Write', '^Edit$', 'Bash', 'mcp__.*', 'Notebook.*', '.*', 'Read,Glob', 'Web.*', '(Edit|Write)$', '[', 'a{2'),
      fc.stringMatching(/^[A-Za-z_|,.*^$ -]{0,16}$/),
    );
    fc.assert(
      fc.property(matcher, fc.constantFrom(...CLAUDE_TOOLS), (m, name) => {
        // On Claude Code's own tool names the translation answers exactly as Claude Code does.
        const alias = name === 'Task' ? 'Agent' : undefined;
        const claude = claudeMatches(m, name) || (alias !== undefined && claudeMatches(m, alias));
        expect(picks(claudeHook(m), tool(name))).toBe(claude);
        expect(parseClaudeMatcher(m).kind).toMatch(/all|names|regex/);
      }),
      { seed: 7, numRuns: 500, interruptAfterTimeLimit: 4000 },
    );
  });

  it("another agent's spelling of the tool is matched through its canonical tool (an imported Bash hook guards Codex's shell)", () => {
    expect(picks(claudeHook('Bash'), tool('shell', { command: 'ls' }))).toBe(true);
    expect(picks(claudeHook('^Bash$'), tool('run_shell_command', { command: 'ls' }))).toBe(true);
    expect(picks(claudeHook('Write'), tool('shell', { command: 'ls' }))).toBe(false);
    expect(picks(claudeHook('Task'), tool('Agent'))).toBe(true);
  });

  it('non-tool events: the matcher tests the payload field Claude Code tests', () => {
    expect(fieldMatcherPasses({ field: 'source', matcher: 'startup|resume' }, { source: 'resume' })).toBe(true);
    expect(fieldMatcherPasses({ field: 'source', matcher: 'startup' }, { source: 'compact' })).toBe(false);
    expect(fieldMatcherPasses({ field: 'agent_type', matcher: '^Expl' }, { agent_type: 'Explore' })).toBe(true);
    expect(fieldMatcherPasses({ field: 'file_path', matcher: '.envrc|.env' }, { file_path: '/p/.env' })).toBe(true);
    // A payload without the field: the hook runs rather than silently never.
    expect(fieldMatcherPasses({ field: 'source', matcher: 'startup' }, {})).toBe(true);
    expect(picks({ on: { field: 'source', matcher: 'startup' } }, event('sessionStart', { source: 'clear' }))).toBe(false);
  });
});

describe("Claude Code's if rules", () => {
  it.each([
    ['Bash(git push*)', 'git push origin main', true],
    ['Bash(git push*)', 'ls && git push', true],
    ['Bash(git push*)', 'FOO=1 git push', true],
    ['Bash(git push*)', 'echo $(git push)', true],
    ['Bash(git push*)', 'echo `git push -f`', true],
    ['Bash(git push*)', 'git pull', false],
    ['Bash(rm *)', 'ls; rm -rf /tmp/x', true],
    ['Bash(npm run test:*)', 'npm run test -- --watch', true],
    ['Bash', 'anything', true],
    ['Bash(*)', 'anything', true],
  ])('%s on `%s` → %s', (rule, command, expected) => {
    expect(picks({ rule }, bash(command))).toBe(expected);
  });

  it.each([
    ['Edit(*.ts)', 'Edit', { file_path: '/home/dev/p/src/a.ts' }, true],
    ['Edit(*.ts)', 'Edit', { file_path: '/home/dev/p/src/a.js' }, false],
    ['Edit(src/**)', 'Edit', { file_path: '/home/dev/p/src/deep/a.js' }, true],
    ['Edit(./src/**)', 'Edit', { file_path: '/home/dev/p/lib/a.js' }, false],
    ['Read(//etc/**)', 'Read', { file_path: '/etc/passwd' }, true],
    ['Write(*.ts)', 'Edit', { file_path: '/home/dev/p/a.ts' }, false],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://docs.example.com/x' }, true],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.org/x' }, false],
    ['mcp__github', 'mcp__github__create_issue', {}, true],
    ['mcp__github', 'mcp__gitlab__x', {}, false],
  ])('%s on %s %j → %s', (rule, name, input, expected) => {
    expect(picks({ rule }, tool(name, input))).toBe(expected);
  });

  it('a rule on an event without a tool never runs the hook (as in Claude Code)', () => {
    expect(picks({ rule: 'Bash(ls)' }, event('stop', {}))).toBe(false);
  });

  it("reads a rule's ~/ as the HOME it is given (the runner's environment), never this process's own", () => {
    const read = tool('Read', { file_path: '/home/alice/.ssh/id_rsa' });
    const runsOn = (home: string | undefined) => selectHooks([{ id: 'h', enabled: true, rule: 'Read(~/.ssh/**)' }], read, new Set(), home)[0]!.selected;
    expect(runsOn('/home/alice')).toBe(true);
    expect(runsOn('/home/bob')).toBe(false);
    // No HOME to judge by: the hook runs (a guard is not skipped on a guess), whatever this process's HOME is.
    expect(runsOn(undefined)).toBe(true);
  });

  it("a HOME that is glob syntax to picomatch (parentheses, braces, brackets, a backslash) still guards what is below it, and only that", () => {
    const rule = { tool: 'Read', content: '~/.ssh/**' };
    const read = { name: 'Read', canonical: 'read' };
    for (const home of ['/Users/Jo (Work)', '/home/{a,b}', '/home/a[1]', '/home/x*y', '/home/a+(b)', '/home/a@(b)', '/home/!n', '/home/a\\b', '/home/$x^y.z']) {
      expect(rulePasses(rule, read, { file_path: `${home}/.ssh/id_rsa` }, '/p', home), home).toBe(true);
      expect(rulePasses(rule, read, { file_path: '/home/other/.ssh/id_rsa' }, '/p', home), home).toBe(false);
      expect(rulePasses(rule, read, { file_path: `${home}/notes/.ssh` }, '/p', home), home).toBe(false);
    }
  });

  it('property: for any HOME, ~/ rules match exactly the files below it, however the path is spelt', () => {
    const read = { name: 'Read', canonical: 'read' };
    const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).map((s) => s.replace(/[\0/]/g, '') || 'x').filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), segment, (parts, name) => {
        const home = `/${parts.join('/')}`;
        const below = `${home}/.ssh/${name}`;
        expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: below }, '/p', home)).toBe(true);
        expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: `${home}-x/.ssh/${name}` }, '/p', home)).toBe(false);
        // Relative to the session's folder, and through a detour: the same file.
        expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: `.ssh/${name}` }, home, home)).toBe(true);
        expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: `${home}/x/../.ssh/${name}` }, '/p', home)).toBe(true);
      }),
      { seed: 20261127, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });

  it('a ~/ rule is read as a path below HOME however it is spelt: HOME itself, doubled or trailing slashes, a detour', () => {
    const read = { name: 'Read', canonical: 'read' };
    const passes = (content: string, file: string) => rulePasses({ tool: 'Read', content }, read, { file_path: file }, '/p', '/home/a');
    expect(passes('~/**', '/home/a')).toBe(true);
    expect(passes('~/**', '/home/a/')).toBe(true);
    expect(passes('~//.ssh/**', '/home/a/.ssh/id_rsa')).toBe(true);
    expect(passes('~/x/../.ssh/**', '/home/a/.ssh/id_rsa')).toBe(true);
    expect(passes('~/.ssh/', '/home/a/.ssh/')).toBe(true);
    expect(passes('~/.ssh/**/', '/home/a/.ssh/keys/')).toBe(true);
    expect(passes('~/.ssh/**', '/home/a/.sshx/id_rsa')).toBe(false);
    // One that climbs out of HOME cannot be judged without HOME inside a glob: the hook runs.
    expect(passes('~/../*/.ssh/**', '/home/b/.ssh/id_rsa')).toBe(true);
  });

  it('the file is read as the path it names, however the agent spells it: doubled slashes, ./, a detour, a trailing slash', () => {
    const read = { name: 'Read', canonical: 'read' };
    const passes = (content: string, file: string) => rulePasses({ tool: 'Read', content }, read, { file_path: file }, '/p');
    for (const file of ['/etc//shadow', '/etc/./shadow', '/etc/x/../shadow', '/etc/shadow/', '//etc/shadow']) expect(passes('//etc/shadow', file), file).toBe(true);
    for (const file of ['/p/x/../secret/key', '/p//secret/key', 'secret/./key']) expect(passes('./secret/**', file), file).toBe(true);
    expect(passes('//etc/shadow', '/etc/shadow.bak')).toBe(false);
    expect(passes('./secret/**', '/p/secret/../public/key')).toBe(false);
  });

  it('a folder whose name starts with two dots is inside the project: a ./..cache/** rule matches the files in it', () => {
    const read = { name: 'Read', canonical: 'read' };
    expect(rulePasses({ tool: 'Read', content: './..cache/**' }, read, { file_path: '/p/..cache/key' }, '/p')).toBe(true);
    expect(rulePasses({ tool: 'Read', content: '~/..cache/**' }, read, { file_path: '/home/alice/..cache/key' }, '/p', '/home/alice')).toBe(true);
    expect(rulePasses({ tool: 'Read', content: './..cache/**' }, read, { file_path: '/..cache/key' }, '/p')).toBe(false);
    expect(rulePasses({ tool: 'Read', content: '~/..cache/**' }, read, { file_path: '/home/..cache/key' }, '/p', '/home/alice')).toBe(false);
  });

  it('a ~/ rule with nothing to place the file by runs the hook: a relative HOME, or a relative file and no folder', () => {
    const read = { name: 'Read', canonical: 'read' };
    expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: '/elsewhere/x' }, '/p', 'home/alice')).toBe(true);
    expect(rulePasses({ tool: 'Read', content: '~/.ssh/**' }, read, { file_path: '.ssh/id_rsa' }, undefined, '/home/alice')).toBe(true);
  });

  it('property: reading any rule on any command never throws, and a rule naming the whole command always matches it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 60 }), (rule, command) => {
        const parsed = parseClaudeRule(rule);
        if (parsed !== undefined) rulePasses(parsed, { name: 'Bash', canonical: 'exec' }, { command }, '/p');
        expect(subcommands(command)).toContain(command.trim());
        if (!/[()*]/.test(command) && command.trim() !== '') {
          expect(rulePasses({ tool: 'Bash', content: command.trim() }, { name: 'Bash', canonical: 'exec' }, { command }, '/p')).toBe(true);
        }
      }),
      { seed: 5, numRuns: 400, interruptAfterTimeLimit: 4000 },
    );
  });
});

describe('agent condition', () => {
  it.each([
    [['Explore'], { agent_type: 'Explore', agent_id: 'a1' }, true],
    [['Expl*'], { agent_type: 'Explore' }, true],
    [['Plan'], { agent_type: 'Explore' }, false],
    [['main'], {}, true],
    [['main'], { agent_type: 'Explore' }, false],
    [['a1'], { agent_type: 'Explore', agent_id: 'a1' }, true],
  ])('agent %j on %j → %s', (agent, ids, expected) => {
    expect(picks({ agent }, event('preToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, ...ids }))).toBe(expected);
  });
});
