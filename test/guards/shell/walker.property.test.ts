// Property tests for the shell walker and the command-safety guard: no input makes them throw,
// deep nesting is bounded, an unverifiable command is never allowed by default, and wrapping a
// dangerous command never makes it pass. Seeded and time-bounded, so CI stays fast and repeatable.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandSafety, judgeCommand } from '../../../src/guards/command-safety.js';
import { analyzeShell } from '../../../src/guards/shell/analyze.js';
import { commandFileWords } from '../../../src/guards/shell/words.js';
import type { HandlerContext, HookInput } from '../../../src/types.js';
import { cpuTimed } from '../../cpu-time.js';

const SEED = 20261122;
const RUNS = { seed: SEED, numRuns: 400, interruptAfterTimeLimit: 6000, markInterruptAsFailure: false } as const;

/** Tokens that exercise the grammar: quoting, expansions, redirections, compound commands. */
const TOKENS = [
  'rm', '-rf', '/', '~', '.', '..', '*', 'git', 'push', '-f', 'reset', '--hard', 'bash', 'sh', '-c', 'eval', 'echo', 'cat',
  'xargs', 'find', '-delete', '-exec', '{}', '\\;', 'sudo', 'env', 'python3', 'node', '-e', 'parallel', ':::', 'tmux', 'at',
  ' ', ' ', ' ', '\n', ';', '&&', '||', '|', '&', '(', ')', '{', '}', '$(', '`', '$((', '))', '${', '${!', '[@]', '[', ']',
  '"', "'", '$', '$HOME', '$@', '$1', '~+', '<<', '<<<', 'EOF', '<(', '>(', '>', '>>', '2>&1', '<', '=', 'x=', 'f()', 'if',
  'then', 'fi', 'for', 'in', 'do', 'done', 'case', 'esac', 'while', '[[', ']]', '!', '#', '\\', ',', '{a,b}', '{1..3}',
  "$'\\x72m'", '\u00a0', '\r', '\t', 'trap', 'set', '--', 'declare', '-n', 'cd', '-',
];

const shellish = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(''));
const anyText = fc.oneof(shellish, fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 80 }));

const corpus = JSON.parse(readFileSync(new URL('../corpus/command-safety.json', import.meta.url), 'utf8')) as {
  dangerous: { command: string }[];
};
/**
 * Dangerous single commands without quoting tricks of their own: a prefix such as `sudo` applies
 * to the first command of a list only (`sudo X=/; rm -rf $X` never sets X), so lists are left out.
 */
const dangerous = corpus.dangerous.map((c) => c.command).filter((c) => !/['\n;]|&&|\|\|/.test(c) && !/^\w+=/.test(c));

describe('walker and guard never throw', () => {
  it('analyzeShell, commandFileWords and judgeCommand answer every input', () => {
    fc.assert(
      fc.property(anyText, (command) => {
        const analysis = analyzeShell(command);
        expect(typeof analysis.ok).toBe('boolean');
        const words = commandFileWords(command);
        expect(typeof words.ok).toBe('boolean');
        const judgement = judgeCommand(command, {}, { cwd: '/home/dev/project', home: '/home/dev' });
        expect(['allow', 'block']).toContain(judgement.verdict);
      }),
      RUNS,
    );
  });

  it('an unverifiable command is never allowed by default', () => {
    fc.assert(
      fc.property(anyText, (command) => {
        if (!analyzeShell(command).ok) expect(judgeCommand(command)).toMatchObject({ verdict: 'block', category: 'unverifiable' });
      }),
      RUNS,
    );
  });

  it('allowing unverifiable commands only ever turns blocks into passes, never the reverse', () => {
    fc.assert(
      fc.property(anyText, (command) => {
        if (judgeCommand(command).verdict === 'allow') expect(judgeCommand(command, { unverifiable: 'allow' }).verdict).toBe('allow');
      }),
      RUNS,
    );
  });

  it('the guard answers any tool_input without throwing', () => {
    const handler = commandSafety.create({}, { projectDir: '/home/dev/project', env: { HOME: '/home/dev' } });
    const context: HandlerContext = { event: 'preToolUse', tool: 'exec', signal: new AbortController().signal };
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), fc.anything({ maxDepth: 2 }), (toolInput, cwd) => {
        const input = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: toolInput, cwd } as HookInput;
        const reply = handler(input, context);
        if (reply !== undefined) expect(reply).toMatchObject({ decision: expect.stringMatching(/^(block|ask)$/) });
      }),
      { ...RUNS, numRuns: 300 },
    );
  });
});

describe('deep nesting is bounded and blocked, never a crash', () => {
  // The third field: whether the inner text runs as a command there.
  const openers: [string, string, boolean][] = [
    ['$( ', ')', true], ['( ', ')', true], ['{ ', '; }', true], ['"$( ', ')"', true], ['if true; then ', '; fi', true],
    ['for x in a; do ', '; done', true], ['f(){ ', '; }; f', true], ['echo $(( ', '))', false], ['[[ ', ' ]]', false],
    ['<(', ')', false], ['`', '`', false], ['${x:-', '}', false], ['a[', ']=1; ', false],
  ];
  it('any opener nested up to 3,000 levels deep is judged quickly', () => {
    fc.assert(
      fc.property(fc.constantFrom(...openers), fc.integer({ min: 1, max: 3000 }), fc.constantFrom('ls', 'rm -rf /'), ([open, close, runs], depth, inner) => {
        const command = open.repeat(depth) + inner + close.repeat(depth);
        const { result: judgement, ms } = cpuTimed(() => judgeCommand(command));
        expect(ms).toBeLessThan(3000);
        if (runs && inner === 'rm -rf /') expect(judgement.verdict, command.slice(0, 80)).toBe('block');
        if (!analyzeShell(command).ok) expect(judgement).toMatchObject({ verdict: 'block', category: 'unverifiable' });
      }),
      { seed: SEED, numRuns: 60, interruptAfterTimeLimit: 15000, markInterruptAsFailure: false },
    );
  });

  it('long arithmetic and test expressions do not overflow the stack', () => {
    for (const command of [
      `echo $(( ${'1+'.repeat(20000)}1 ))`,
      `(( ${'x+'.repeat(20000)}1 ))`,
      `[[ ${'a && '.repeat(5000)}a ]]`,
      `echo ${'${x:-'.repeat(2000)}${'}'.repeat(2000)}`,
      `a[${'$(( '.repeat(40)}1${' ))'.repeat(40)}]=1`,
    ]) {
      const judgement = judgeCommand(command);
      expect(['allow', 'block']).toContain(judgement.verdict);
    }
  });

  it('a deeply nested value beside the command does not turn the guard off', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 6000; i += 1) deep = [deep];
    const handler = commandSafety.create({});
    const context: HandlerContext = { event: 'preToolUse', tool: 'exec', signal: new AbortController().signal };
    const input: HookInput = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /', deep } };
    expect(handler(input, context)).toMatchObject({ decision: 'block' });
  });
});

describe('inputs the fuzzers found, kept as plain cases', () => {
  // A substitution inside a code string used to keep the wrappers of its command, which stopped
  // `$(dirname …)` from being evaluated there.
  // `\n` in an interpreter's string literal is a newline, not the letter n.
  it.each([['python3 -c \'import os; os.system("cat <<EOF | sh\\nrm -rf /\\nEOF")\''], ['bash -c \'rm -rf $(dirname ~/x)\''], ['echo \'rm -rf $(dirname ~/x)\' | bash'], ['sudo rm -rf "$(echo /)"']])('%j is blocked', (command) => {
    expect(judgeCommand(command).verdict).toBe('block');
  });

  // Text in an array subscript, an arithmetic expansion or a default value is not a command.
  it.each([
    ['a[rm -rf /]=1; ', 'allow'],
    ['echo $((rm -rf /))', 'allow'],
    ['echo ${x:-rm -rf /}', 'allow'],
    // …but a substitution in any of those places runs.
    ['a[$(rm -rf /)]=1', 'block'],
    ['echo $(( $(rm -rf /) ))', 'block'],
    ['echo ${x:-$(rm -rf /)}', 'block'],
    ['echo ${x:$(rm -rf ~)}', 'block'],
    ['echo ${x#$(rm -rf ~)}', 'block'],
  ])('%j → %s', (command, verdict) => {
    expect(judgeCommand(command).verdict).toBe(verdict);
  });
});

describe('wrapping a dangerous command never makes it pass', () => {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const wrappers: ((c: string) => string)[] = [
    (c) => `sudo ${c}`,
    (c) => `bash -c ${quote(c)}`,
    (c) => `sh -lc ${quote(c)}`,
    (c) => `eval ${quote(c)}`,
    (c) => `( ${c} )`,
    (c) => `{ ${c}; }`,
    (c) => `true && ${c}`,
    (c) => `false || ${c}`,
    (c) => `if true; then ${c}; fi`,
    (c) => `echo "$( ${c} )"`,
    (c) => `timeout 5 ${c}`,
    (c) => `env A=1 ${c}`,
    (c) => `nohup ${c} &`,
    (c) => `echo ${quote(c)} | bash`,
    (c) => `bash <<< ${quote(c)}`,
    (c) => `f(){ ${c}; }; f`,
    (c) => `script -qc ${quote(c)} /dev/null`,
    (c) => `tmux new -d ${quote(c)}`,
    (c) => `trap ${quote(c)} EXIT`,
    (c) => `strace -f ${c}`,
    (c) => `bash <<'EOF'\n${c}\nEOF`,
    (c) => `cat <<'EOF' | sh\n${c}\nEOF`,
    (c) => `at now <<< ${quote(c)}`,
    (c) => `flock /tmp/l -c ${quote(c)}`,
    (c) => `vim -c ${quote(`!${c}`)}`,
    (c) => `parallel ::: ${quote(c)}`,
    (c) => `su -c ${quote(c)}`,
    (c) => `python3 -c ${quote(`import os; os.system(${JSON.stringify(c)})`)}`,
  ];
  it('for the design corpus, under any stack of two wrappers', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dangerous), fc.constantFrom(...wrappers), fc.constantFrom(...wrappers), (command, outer, inner) => {
        const wrapped = outer(inner(command));
        expect(judgeCommand(wrapped).verdict, wrapped).toBe('block');
      }),
      { seed: SEED, numRuns: 500, interruptAfterTimeLimit: 8000, markInterruptAsFailure: false },
    );
  });
});
