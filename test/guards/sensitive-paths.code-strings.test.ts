// The string evaluator of sensitive-paths (src/guards/sensitive-paths/code-strings.ts): interpreter
// code builds a path from pieces, and the guard must see the path. Any spelling the evaluator
// knows, of any text, evaluates back to that text; no input makes it throw or run long.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CodeLanguage, evaluateCode, UNKNOWN } from '../../src/guards/sensitive-paths/code-strings.js';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';
import { codeMention } from '../../src/guards/sensitive-paths/unresolved.js';
import { cpuTimed } from '../cpu-time.js';

// One options object for every call: the guard builds its judge once per options object (compileJudge).
const NO_OPTIONS = {};

const HOME = '/home/dev';
const exec = (command: string) =>
  judgeToolCall({ hook_event_name: 'PreToolUse', cwd: `${HOME}/project`, tool_name: 'Bash', tool_input: { command } }, NO_OPTIONS, { tool: 'exec', home: HOME, env: { HOME }, realpath: false });

const values = (code: string, language: CodeLanguage) => evaluateCode(code, language).strings.map((s) => s.value);

describe('evaluateCode: each form', () => {
  it.each<[CodeLanguage, string, string]>([
    ['js', `'agent-'+'hooks'`, 'agent-hooks'],
    ['python', `'agent-' 'hooks'`, 'agent-hooks'],
    ['perl', `'agent-'.'hooks'`, 'agent-hooks'],
    ['perl', `"agent-" . "hooks"`, 'agent-hooks'],
    ['python', `'agent\\x2dhooks'`, 'agent-hooks'],
    ['js', `'agent\\u002dhooks'`, 'agent-hooks'],
    ['js', `'agent\\u{2d}hooks'`, 'agent-hooks'],
    ['python', `'agent\\055hooks'`, 'agent-hooks'],
    ['python', `'agent'+chr(45)+'hooks'`, 'agent-hooks'],
    ['python', `'agent'+chr(0x2d)+'hooks'`, 'agent-hooks'],
    ['js', `'agent'+String.fromCharCode(45)+'hooks'`, 'agent-hooks'],
    ['js', `String.fromCharCode(97,103,101,110,116)`, 'agent'],
    ['ruby', `'agent' + 45.chr + 'hooks'`, 'agent-hooks'],
    ['js', 'Buffer.from(\'YWdlbnQtaG9va3M=\', \'base64\').toString()', 'agent-hooks'],
    ['js', `Buffer.from('6167656e742d686f6f6b73','hex').toString('utf8')`, 'agent-hooks'],
    ['js', `atob('YWdlbnQtaG9va3M=')`, 'agent-hooks'],
    ['python', `base64.b64decode('YWdlbnQtaG9va3M=').decode()`, 'agent-hooks'],
    ['python', `bytes.fromhex('6167656e742d686f6f6b73').decode()`, 'agent-hooks'],
    ['ruby', `Base64.decode64('YWdlbnQtaG9va3M=')`, 'agent-hooks'],
    ['python', `'-'.join(['agent', 'hooks'])`, 'agent-hooks'],
    ['js', `['agent', 'hooks'].join('-')`, 'agent-hooks'],
    ['perl', `join('-', 'agent', 'hooks')`, 'agent-hooks'],
    ['python', `os.path.join('.config', 'agent-hooks', 'config.json')`, '.config/agent-hooks/config.json'],
    ['js', `path.join('.config', 'agent-hooks')`, '.config/agent-hooks'],
    ['ruby', `File.join('.config', 'agent-hooks')`, '.config/agent-hooks'],
    ['python', `Path('.config') / 'agent-hooks' / 'config.json'`, '.config/agent-hooks/config.json'],
    ['python', `'skooh-tnega'[::-1]`, 'agent-hooks'],
    ['js', `'skooh-tnega'.split('').reverse().join('')`, 'agent-hooks'],
    ['js', `'agent_hooks'.replace('_', '-')`, 'agent-hooks'],
    ['js', `'agent-'.concat('hooks')`, 'agent-hooks'],
    ['python', `('agent-' + ('hoo' + 'ks'))`, 'agent-hooks'],
  ])('%s: %s', (language, code, expected) => {
    expect(values(code, language)).toContain(expected);
  });

  it('unknown parts of template literals, f-strings and Perl interpolation are marked, the literal parts kept', () => {
    expect(values('`${h}/.config/agent-${x}`', 'js')).toContain(`${UNKNOWN}/.config/agent-${UNKNOWN}`);
    expect(values(`f'{h}/.config/agent-hooks'`, 'python')).toContain(`${UNKNOWN}/.config/agent-hooks`);
    expect(values(`"$ENV{HOME}/.config/agent-hooks"`, 'perl')).toContain(`${UNKNOWN}/.config/agent-hooks`);
    expect(values(`'$HOME/x'`, 'perl')).toContain('$HOME/x');
    expect(values(`r'\\x2d'`, 'python')).toContain('\\x2d');
  });

  it('a whole path stands alone; a piece joined to something unknown does not', () => {
    const strings = evaluateCode(`open(home + '/.config', 'w'); p = 'src/x.py'; open('out.txt', 'w')`, 'python').strings;
    expect(strings.find((s) => s.value === '/.config')?.whole).toBe(false);
    expect(strings.find((s) => s.value === 'src/x.py')?.whole).toBe(true);
    expect(strings.find((s) => s.value === 'out.txt')?.whole).toBe(true);
  });

  it('the mention squeeze joins `+` (it used to turn it into `/`: `agent-/hooks`) and turns `,` into `/`', () => {
    expect(codeMention(`h + '/.config/agent-' + 'hooks/config.json'`, true)).toBe('.config/agent-hooks');
    expect(codeMention(`os.path.join(h, '.config', 'agent-hooks')`, true)).toBe('.config/agent-hooks');
  });

  it("a comment's apostrophe does not pair with a later quote", () => {
    expect(values(`# don't\nopen('/x/' + 'agent-hooks', 'w')`, 'python')).toContain('/x/agent-hooks');
  });

  it('character codes it cannot evaluate are reported', () => {
    expect(evaluateCode(`''.join(chr(c) for c in n)`, 'python').unevaluated).toEqual(['chr(']);
    expect(evaluateCode(`chr(45)`, 'python').unevaluated).toEqual([]);
  });
});

// --- properties ---

/** Ways to write one piece of text as a string expression, per language. */
function spell(text: string, how: number, language: CodeLanguage): string {
  const codes = [...text].map((c) => c.codePointAt(0)!);
  const plain = (t: string) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const hex = codes.map((c) => (c < 256 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`)).join('');
  const base64 = Buffer.from(text).toString('base64');
  switch (how % 7) {
    case 0:
      return plain(text);
    case 1:
      return language === 'perl' || language === 'ruby' ? `"${hex}"` : `'${hex}'`;
    case 2:
      return language === 'python' ? `''.join([${codes.map((c) => `chr(${c})`).join(', ')}])` : language === 'ruby' ? codes.map((c) => `${c}.chr`).join(' + ') : language === 'perl' ? codes.map((c) => `chr(${c})`).join(' . ') : `String.fromCharCode(${codes.join(', ')})`;
    case 3:
      return language === 'python' ? `base64.b64decode('${base64}').decode()` : language === 'ruby' ? `Base64.decode64('${base64}')` : language === 'perl' ? `decode_base64('${base64}')` : `Buffer.from('${base64}', 'base64').toString()`;
    case 4:
      return language === 'python' ? `${plain([...text].reverse().join(''))}[::-1]` : language === 'js' ? `${plain([...text].reverse().join(''))}.split('').reverse().join('')` : plain(text);
    case 5:
      return `(${plain(text)})`;
    default:
      return language === 'python' ? `str(${plain(text)})` : language === 'js' ? `String(${plain(text)})` : plain(text);
  }
}

const JOIN: Record<CodeLanguage, string> = { python: ' + ', js: ' + ', ruby: ' + ', perl: ' . ', php: ' . ', other: ' + ' };
const TEXT = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_./~'.split('')), minLength: 1, maxLength: 40 });

describe('property: any spelling it knows evaluates back to the text', () => {
  for (const language of ['python', 'js', 'perl', 'ruby'] as const) {
    it(language, () => {
      fc.assert(
        fc.property(TEXT, fc.array(fc.nat({ max: 60 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat({ max: 6 }), { minLength: 6, maxLength: 6 }), (text, cuts, hows) => {
          // Cut the text into pieces, spell each its own way, join them with the language's operator.
          const points = [...new Set(cuts.map((c) => c % text.length))].filter((c) => c > 0).sort((a, b) => a - b);
          const pieces = [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length));
          const code = `open(${pieces.map((p, i) => spell(p, hows[i % hows.length]!, language)).join(JOIN[language])}, 'w')`;
          const evaluated = evaluateCode(code, language);
          expect(evaluated.strings.map((s) => s.value), code).toContain(text);
        }),
        { seed: 2101, numRuns: 400, interruptAfterTimeLimit: 8_000 },
      );
    });
  }
});

describe("property: any spelling of agent-hooks' user config in code that writes is blocked", () => {
  const tails = fc.constantFrom('/.config/agent-hooks/config.json', '/.local/state/agent-hooks/trust.json', '/.config/agent-hooks');
  it('python and node one-liners', () => {
    fc.assert(
      fc.property(tails, fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 4 }), fc.array(fc.nat({ max: 6 }), { minLength: 4, maxLength: 4 }), fc.boolean(), (tail, cuts, hows, python) => {
        const language = python ? 'python' : 'js';
        const points = [...new Set(cuts.map((c) => c % tail.length))].filter((c) => c > 0).sort((a, b) => a - b);
        const pieces = [0, ...points].map((start, i) => tail.slice(start, points[i] ?? tail.length));
        const expr = pieces.map((p, i) => spell(p, hows[i]!, language)).join(' + ');
        const command = python
          ? `python3 -c "import os, base64; open(os.path.expanduser('~') + ${expr.replace(/"/g, '\\"')}, 'w').write('{}')"`
          : `node -e "require('fs').writeFileSync(require('os').homedir() + ${expr.replace(/"/g, '\\"')}, '{}')"`;
        expect(exec(command), command).toMatchObject({ verdict: 'block', kind: 'self-protection' });
      }),
      { seed: 2102, numRuns: 300, interruptAfterTimeLimit: 10_000 },
    );
  });
});

describe('property: no input makes it throw or run long', () => {
  const piece = fc.constantFrom("'", '"', '`', '\\', '\\x2', '\\u{', '${', '}', '(', ')', '[', ']', '+', '.', '/', ',', 'chr(', '45', 'Buffer.from(', "'base64'", '.join(', 'os.path.join(', '[::-1]', '.reverse()', '.split(', '#', '\n', ' ', 'a', 'agent', '-', 'hooks', 'f', 'r', '$x', '.decode()');
  it.each(['python', 'js', 'perl', 'ruby', 'php', 'other'] as const)('%s', (language) => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (parts) => {
        const { result, ms } = cpuTimed(() => evaluateCode(parts.join(''), language));
        expect(Array.isArray(result.strings)).toBe(true);
        expect(ms).toBeLessThan(500);
      }),
      { seed: 2103, numRuns: 300, interruptAfterTimeLimit: 8_000 },
    );
  });

  it('a 64 KB program of separate strings is evaluated within the budget', () => {
    const code = `x = [${Array.from({ length: 12000 }, (_, i) => `'a${i % 10}'`).join(', ')}]`;
    const { result, ms } = cpuTimed(() => evaluateCode(code, 'python'));
    expect(ms).toBeLessThan(2_000);
    expect(result.strings.length).toBe(2048);
  });

  it('a 64 KB program of concatenations is evaluated within the budget', () => {
    const code = `x = ${Array.from({ length: 6000 }, () => "'ab'").join(' + ')}`;
    const { result, ms } = cpuTimed(() => evaluateCode(code, 'python'));
    expect(ms).toBeLessThan(2_000);
    expect(result.strings.length).toBeGreaterThan(0);
  });
});
