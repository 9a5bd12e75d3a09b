// output-budget: escapes stripped, output capped with a marker, redaction before the cut whichever
// guard runs first, and every dialect's tool output shape (the real CLI for those).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBudget, cutText, stripAnsi } from '../../src/guards/output-budget.js';
import { event, isolatedEnv, ROOT, runCli, runnerWith, tmpProject } from '../helpers.js';
import { A62, generator } from './corpus/secrets-examples.js';

const DEFAULTS = { max: 32_768, unit: 'bytes', keep: 'head-tail', ansi: true, marker: '\n[… {cut} {unit} cut by agent-hooks output-budget …]\n', redact: true } as const;

describe('stripAnsi', () => {
  it.each([
    ['SGR colours', '\x1b[1;31mred\x1b[0m plain', 'red plain'],
    ['cursor moves and erase', 'a\x1b[2K\x1b[1Gb\x1b[?25l', 'ab'],
    ['OSC title ended by BEL', '\x1b]0;title\x07text', 'text'],
    ['OSC 8 hyperlink ended by ST', '\x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['DCS, APC, PM, SOS strings', '\x1bPq#0\x1b\\a\x1b_apc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d', 'abcd'],
    ['8-bit CSI and OSC', '\x9b31mred\x9b0m \x9d0;t\x9cok', 'red ok'],
    ['charset and keypad escapes', '\x1b(Bx\x1b=y\x1b7z\x1b8', 'xyz'],
    ['an unterminated OSC keeps the text after its introducer', 'a\x1b]0;never ended', 'a0;never ended'],
    ['a CSI broken by a newline', 'a\x1b[12\nb', 'a\nb'],
    ['a lone ESC at the end', 'done\x1b', 'done'],
    ['newlines, tabs and carriage returns stay', 'a\r\n\tb\x1b[0m', 'a\r\n\tb'],
  ])('%s', (_, input, expected) => {
    expect(stripAnsi(input).text).toBe(expected);
  });
});

describe('cutText', () => {
  const marker = (n: number) => `[cut ${n}]`;
  it('head-tail keeps half of the budget from each end', () => {
    expect(cutText('abcdefghij', 4, 'bytes', 'head-tail', marker)).toMatchObject({ text: 'ab[cut 6]ij', cut: 6 });
  });
  it('head keeps the beginning', () => {
    expect(cutText('abcdefghij', 4, 'bytes', 'head', marker)).toMatchObject({ text: 'abcd[cut 6]', cut: 6 });
  });
  it('bytes never split a character: é is 2 bytes, 😀 is 4', () => {
    expect(cutText('éééé', 3, 'bytes', 'head', marker)).toMatchObject({ text: 'é[cut 6]', cut: 6 });
    expect(cutText('😀😀😀', 5, 'bytes', 'head', marker)).toMatchObject({ text: '😀[cut 8]', cut: 8 });
  });
  it('chars count code points, not UTF-16 units', () => {
    expect(cutText('😀😀😀😀', 2, 'chars', 'head-tail', marker)).toMatchObject({ text: '😀[cut 2]😀', cut: 2 });
  });
});

describe('the budget over one tool output', () => {
  it('strips escapes in every string, keeps the shape and the other values', () => {
    const budget = createBudget({ ...DEFAULTS });
    const reply = budget({ stdout: '\x1b[32mok\x1b[0m', stderr: '', interrupted: false, n: 3 });
    expect(reply).toEqual({ decision: 'modify', updatedOutput: { stdout: 'ok', stderr: '', interrupted: false, n: 3 }, reason: 'output-budget: stripped 2 escape sequence(s)' });
  });

  it('leaves output within the budget and without escapes alone', () => {
    expect(createBudget({ ...DEFAULTS })({ stdout: 'fine' })).toBeUndefined();
  });

  it('strips before it measures: colour codes do not eat the budget', () => {
    const colourful = Array.from({ length: 50 }, (_, i) => `\x1b[3${i % 8}m${i % 10}\x1b[0m`).join('');
    const reply = createBudget({ ...DEFAULTS, max: 50 })(colourful);
    expect(reply?.updatedOutput).toBe('01234567890123456789012345678901234567890123456789');
  });

  it('shares the budget between strings: a short one stays whole, the long ones are cut', () => {
    const reply = createBudget({ ...DEFAULTS, max: 300, marker: '<{cut}>' })({ stdout: 'x'.repeat(1000), stderr: 'short error', extra: 'y'.repeat(1000) });
    const out = reply?.updatedOutput as Record<string, string>;
    expect(out.stderr).toBe('short error');
    // (300 - 11) / 2 = 144 each: 72 from each end.
    expect(out.stdout).toBe(`${'x'.repeat(72)}<856>${'x'.repeat(72)}`);
    expect(out.extra).toBe(`${'y'.repeat(72)}<856>${'y'.repeat(72)}`);
    expect(reply?.reason).toBe('output-budget: cut 1712 bytes from 2 string(s) to fit 300');
  });

  it('never cuts a string below 64 bytes: MCP structure ("type": "text") survives a tiny budget', () => {
    const output = { content: Array.from({ length: 50 }, () => ({ type: 'text', text: 'z'.repeat(100) })) };
    const out = createBudget({ ...DEFAULTS, max: 100, marker: '<{cut}>' })(output)?.updatedOutput as typeof output;
    expect(out.content.every((c) => c.type === 'text' && c.text === `${'z'.repeat(32)}<36>${'z'.repeat(32)}`)).toBe(true);
  });

  it('a key called __proto__ stays an own key of the copy', () => {
    const output = JSON.parse('{"__proto__": {"polluted": "x"}, "stdout": "\\u001b[0mhi"}') as Record<string, unknown>;
    const out = createBudget({ ...DEFAULTS })(output)?.updatedOutput as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(out.stdout).toBe('hi');
  });

  it('output nested 100,000 levels deep is walked, not overflowed', () => {
    let deep: unknown = '\x1b[1mdeep\x1b[0m';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let out = createBudget({ ...DEFAULTS })(deep)?.updatedOutput;
    for (let i = 0; i < 100_000; i++) out = (out as unknown[])[0];
    expect(out).toBe('deep');
  });
});

describe('redaction and the cut', () => {
  const { pick } = generator(13);
  const GHP = 'ghp_' + pick(A62, 36);
  // The token spans characters 17 to 57; with max 60 and head-tail the head keeps the first 30: the
  // cut falls inside the token.
  const stdout = `${'a'.repeat(10)} token=${GHP} ${'b'.repeat(80)}`;
  const pieces = Array.from({ length: GHP.length - 7 }, (_, i) => GHP.slice(i, i + 8));
  const survives = (text: string) => pieces.filter((p) => text.includes(p));

  it('without redaction, a cut would leave part of a secret (the hazard the order prevents)', () => {
    const out = createBudget({ ...DEFAULTS, max: 60, redact: false })(stdout)?.updatedOutput as string;
    expect(survives(out).length).toBeGreaterThan(0);
  });

  it('the budget redacts a string before it cuts it', () => {
    const reply = createBudget({ ...DEFAULTS, max: 60 })({ stdout });
    const out = (reply?.updatedOutput as { stdout: string }).stdout;
    expect(survives(out)).toEqual([]);
    expect(reply?.reason).toMatch(/^output-budget: redacted 1 secret\(s\) before cutting; cut \d+ bytes from 1 string\(s\) to fit 60$/);
  });

  it('redacts only around the cuts: a secret far from them is left to redact-secrets (margin 100 here, 65,536 by default)', () => {
    const far = `${GHP} ${'.'.repeat(400)}${stdout}${'.'.repeat(400)}`;
    const reply = createBudget({ ...DEFAULTS, max: 490, keep: 'head' }, 100)(far); // the planned cut falls inside the second copy (458–498)
    const out = reply?.updatedOutput as string;
    expect(out.startsWith(`${GHP} `)).toBe(true);
    expect(survives(out.slice(GHP.length))).toEqual([]);
    expect(out).toContain('[REDACTED:github-token]');
  });

  it.each([
    ['output-budget first', 10, 0],
    ['redact-secrets first', 0, 10],
  ])('with redact-secrets configured too (%s), no part of the secret survives', async (_, budgetPriority, redactPriority) => {
    const runner = await runnerWith({
      hooks: {
        postToolUse: [
          { builtin: 'output-budget', priority: budgetPriority, options: { max: 60 } },
          { builtin: 'redact-secrets', priority: redactPriority },
        ],
      },
    });
    const d = await runner.run(event('postToolUse', { tool_name: 'Bash', tool_input: { command: 'env' }, tool_response: { stdout: `\x1b[31m${stdout}\x1b[0m`, stderr: '' } }));
    expect(d.decision).toBe('modify');
    const out = (d.updatedOutput?.value as { stdout: string }).stdout;
    expect(survives(out)).toEqual([]);
    expect(out).toContain('cut by agent-hooks output-budget');
    expect(out).not.toContain('\x1b');
  });
});

describe('every dialect (the real CLI)', () => {
  const big = `\x1b[1mstart\x1b[0m ${'x'.repeat(5000)} end`;
  const load = (file: string) => JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', file), 'utf8')) as Record<string, any>;
  const cases: [string, string, (p: Record<string, any>) => void, (answer: string) => string][] = [
    ['claude-code', 'claude/PostToolUse.Bash.json', (p) => (p.tool_response.stdout = big), (a) => JSON.parse(a).hookSpecificOutput.updatedToolOutput.stdout],
    ['codex', 'codex/PostToolUse.Bash.json', (p) => (p.tool_response = big), (a) => a],
    ['copilot', 'copilot/PostToolUse.Bash.json', (p) => (p.tool_result.text_result_for_llm = big), (a) => a],
    ['gemini', 'gemini/AfterTool.run_shell_command.json', (p) => (p.tool_response.llmContent = big), (a) => a],
    ['docker-mcp', 'docker-mcp/after.json', (p) => (p.content[0].text = big), (a) => JSON.parse(a).content[0].text],
    ['cursor', 'cursor/afterMCPExecution.json', (p) => (p.result_json = JSON.stringify({ content: [{ type: 'text', text: big }] })), (a) => JSON.parse(a).updated_mcp_tool_output.content[0].text],
  ];
  const dir = tmpProject();
  const env = isolatedEnv(dir);

  it.each(cases)('%s: the output the agent gets is stripped and capped', (dialect, file, set, read) => {
    const payload = load(file);
    set(payload);
    const r = runCli(['guard', 'output-budget', '--dialect', dialect, '--option', 'max=200'], { cwd: dir, env, input: JSON.stringify(payload) });
    expect(r.code, r.stderr).toBe(0);
    const text = read(r.stdout);
    expect(text).toContain('start ');
    expect(text).toContain(' end');
    expect(text).toMatch(/\[… 4\d{3} bytes cut by agent-hooks output-budget …\]/);
    expect(text).not.toContain('\x1b');
    expect(r.stdout.length).toBeLessThan(2000);
  });

  it('cursor: shell output cannot be rewritten (Cursor replaces MCP output only); said on stderr, never silent', () => {
    const payload = load('cursor/postToolUse.Shell.json');
    payload.tool_output = big;
    const r = runCli(['guard', 'output-budget', '--dialect', 'cursor', '--option', 'max=200'], { cwd: dir, env, input: JSON.stringify(payload) });
    expect(r.stdout).toBe('{}\n');
    expect(r.stderr).toContain('Cursor replaces MCP tool output only');
  });
});
