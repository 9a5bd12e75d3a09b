// Which project files a hook's command runs, as `hooks trust` reads them (src/trust/scripts.ts), and the
// local modules of a JavaScript file (src/trust/imports.ts).
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scriptsOfCommand, type CommandToRead } from '../../src/trust/scripts.js';
import { candidates, relativeSpecifiers } from '../../src/trust/imports.js';
import { pythonImports } from '../../src/trust/coverage.js';

const P = '/p';
const files = (run: CommandToRead | string, extra: { path?: string; cwd?: string } = {}) =>
  scriptsOfCommand(typeof run === 'string' ? { command: run } : run, { cwd: extra.cwd ?? P, projectDir: P, ...(extra.path === undefined ? {} : { path: extra.path }) }).scripts.map((s) => path.relative(P, s.file));

describe('scriptsOfCommand', () => {
  it.each([
    ['python3 guard.py', ['guard.py']],
    ['python3 -u -W error guards/check.py --strict', ['guards/check.py']],
    ['python3 -Werror -X dev x.py', ['x.py']],
    ['python -m pytest tests', []],
    ['python3 -c "import x" y.py', []],
    ['python3 -uc "code"', []],
    ['./hook.sh', ['hook.sh']],
    ['tools/guard --fast', ['tools/guard']],
    ['sh x', ['x']],
    ['bash -e -o pipefail scripts/a.sh arg', ['scripts/a.sh']],
    ['bash --rcfile ./rc x.sh', ['rc', 'x.sh']],
    ['zsh -c "echo hi"', []],
    ['node x.mjs', ['x.mjs']],
    ['node --enable-source-maps -r ./setup.cjs --import=./reg.mjs src/hook.js', ['setup.cjs', 'reg.mjs', 'src/hook.js']],
    ['node -r dotenv/config x.js', ['x.js']],
    ['node -e "1"', []],
    ['deno run -A --config deno.json hooks/x.ts', ['hooks/x.ts']],
    ['bun run hooks/x.ts', ['package.json', 'hooks/x.ts']],
    ['bun x.ts', ['x.ts']],
    ['npx tsx hooks/x.ts', ['hooks/x.ts']],
    ['npx --yes tsx x.ts', ['x.ts']],
    ['npm exec -- tsx x.ts', ['x.ts']],
    ['uv run --with rich x.py', ['x.py']],
    ['uv run python3 y.py', ['y.py']],
    ['tsx watch x.ts', ['x.ts']],
    ['perl -Ilib -w check.pl', ['check.pl']],
    ['perl -e "print 1"', []],
    ['ruby -r json hook.rb', ['hook.rb']],
    ['php -f hook.php', ['hook.php']],
    ['npm run lint', ['package.json']],
    ['npm test', ['package.json']],
    ['yarn lint', ['package.json']],
    ['pnpm run check', ['package.json']],
    ['npm install', []],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', ['.claude/hooks/check.sh']],
    ['${CLAUDE_PROJECT_DIR}/hooks/a.py', ['hooks/a.py']],
    ['python3 "$HOOKS_PROJECT_DIR/guard.py"', ['guard.py']],
    ['env A=1 timeout 5 nohup python3 g.py', ['g.py']],
    ['FOO=1 ./a.sh && bash -c "node b.mjs | sh c.sh"', ['a.sh', 'b.mjs', 'c.sh']],
    ['. ./env.sh; source lib.sh', ['env.sh', 'lib.sh']],
    ['exec ./run', ['run']],
    ['git status --short', []],
    ['/usr/bin/python3 x.py', ['../usr/bin/python3', 'x.py']],
    ['python3 ../outside.py', ['../outside.py']],
  ])('%s', (command, expected) => {
    expect(files(command)).toEqual(expected);
  });

  it('exec form: the words as given, no expansion', () => {
    expect(files({ command: 'python3', args: ['-u', 'g.py'] })).toEqual(['g.py']);
    expect(files({ command: './bin/hook', args: ['$X'] })).toEqual(['bin/hook']);
    expect(files({ command: '$CLAUDE_PROJECT_DIR/x.sh', args: [] })).toEqual(['$CLAUDE_PROJECT_DIR/x.sh']);
  });

  it('a PATH into the project makes bare programs project files; one outside does not', () => {
    expect(files('lint --all', { path: './bin:/usr/bin:tools' })).toEqual(['bin/lint', 'tools/lint']);
    expect(files('lint', { path: '/usr/bin:/bin' })).toEqual([]);
  });

  it('relative paths resolve against the hook\'s cwd', () => {
    expect(files('python3 g.py', { cwd: '/p/sub' })).toEqual(['sub/g.py']);
  });

  it('says what it cannot follow', () => {
    const r = scriptsOfCommand({ command: 'python3 $SCRIPT; $(which x) y; python3 *.py' }, { cwd: P, projectDir: P });
    expect(r.scripts).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(/\$SCRIPT: computed when the hook runs/);
    expect(r.unknown.join('\n')).toMatch(/\$\(which x\): a program computed/);
    expect(r.unknown.join('\n')).toMatch(/\*\.py: computed/);
    expect(scriptsOfCommand({ command: 'x.ps1', shell: 'powershell' }, { cwd: P, projectDir: P }).unknown[0]).toContain('PowerShell');
  });

  it('marks JavaScript to follow and absolute spellings', () => {
    const r = scriptsOfCommand({ command: 'node a.js && /opt/x.sh && "$CLAUDE_PROJECT_DIR"/b.sh' }, { cwd: P, projectDir: P }).scripts;
    expect(r.map((s) => [s.word, s.js, s.absolute])).toEqual([['a.js', true, false], ['/opt/x.sh', false, true], ['/p/b.sh', false, false]]);
  });
});

// A property: whatever options, wrappers and quoting surround it, an interpreter's script (or a program
// spelled as a path) is found. Seeded and bounded in time.
const SEGMENT = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const SCRIPT = fc.tuple(fc.array(SEGMENT, { maxLength: 3 }), SEGMENT, fc.constantFrom('.py', '.sh', '.mjs', '.js', '.ts', '.rb', '')).map(([dirs, base, ext]) => [...dirs, base + ext].join('/'));
const FORMS: [string, fc.Arbitrary<string[]>][] = [
  ['python3', fc.array(fc.constantFrom('-u', '-B', '-E', '-s', '-I', '-OO', '-W error', '-X dev', '-Werror'), { maxLength: 4 })],
  ['node', fc.array(fc.constantFrom('--enable-source-maps', '--no-warnings', '--conditions dev', '--input-type=module', '--stack-size=2000'), { maxLength: 4 })],
  ['bash', fc.array(fc.constantFrom('-e', '-x', '-u', '-o pipefail', '-O extglob', '-eu'), { maxLength: 4 })],
  ['perl', fc.array(fc.constantFrom('-w', '-T', '-Ilib', '-I lib', '-MData::Dumper'), { maxLength: 3 })],
  ['ruby', fc.array(fc.constantFrom('-w', '-r json', '-Ilib'), { maxLength: 3 })],
  ['deno run', fc.array(fc.constantFrom('-A', '--allow-read', '--config deno.json', '--quiet'), { maxLength: 3 })],
];
const WRAP = fc.constantFrom((c: string) => c, (c: string) => `env A=1 ${c}`, (c: string) => `timeout 5 ${c}`, (c: string) => `bash -c '${c}'`, (c: string) => `true && ${c} || exit 2`, (c: string) => `FOO=bar ${c} | cat`);
const QUOTE = fc.constantFrom((s: string) => s, (s: string) => `"${s}"`, (s: string) => `'${s}'`, (s: string) => `"$CLAUDE_PROJECT_DIR"/${s}`, (s: string) => `\${CLAUDE_PROJECT_DIR}/${s}`);
const ARGS = fc.array(fc.constantFrom('--flag', 'x', '1', '--out=a'), { maxLength: 3 });
const options = { seed: 2111, numRuns: 400, interruptAfterTimeLimit: 8_000 };

describe('scriptsOfCommand (property)', () => {
  it('finds an interpreter\'s script behind any options, wrappers and quoting', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMS), fc.nat(), SCRIPT, QUOTE, WRAP, ARGS, ([program, opts], seed, script, quote, wrap, args) => {
        const flags = fc.sample(opts, { seed, numRuns: 1 })[0]!;
        const command = wrap([program, ...flags, quote(script), ...args].join(' '));
        expect(files(command), command).toContain(script);
      }),
      options,
    );
  });

  it('finds a program spelled as a path', () => {
    fc.assert(
      fc.property(SCRIPT, QUOTE, WRAP, ARGS, (script, quote, wrap, args) => {
        const spelled = quote(script.includes('/') ? script : `./${script}`);
        const command = wrap([spelled, ...args].join(' '));
        expect(files(command), command).toContain(script);
      }),
      options,
    );
  });

  it('never throws, and every file it names is absolute', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.option(fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), { nil: undefined }), (command, args) => {
        const r = scriptsOfCommand(args === undefined ? { command } : { command, args }, { cwd: P, projectDir: P, path: './bin' });
        for (const s of r.scripts) expect(path.isAbsolute(s.file)).toBe(true);
      }),
      options,
    );
  });
});

describe('relativeSpecifiers', () => {
  it('finds every static form, in any quote', () => {
    const source = `import a from './a.js';\nimport { b } from "../b.mjs";\nexport * from './c.js';\nimport './d.js';\nconst e = require('./e');\nconst f = await import(\`./f.js\`);\nimport g from 'pkg';\nconst h = import(name);\nconst i = import.meta.resolve('./i.js');\n`;
    expect(relativeSpecifiers(source)).toEqual(['./a.js', '../b.mjs', './c.js', './d.js', './e', './f.js', './i.js']);
  });

  it('finds an import planted anywhere in arbitrary code (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), SCRIPT, fc.constantFrom((s: string) => `import x from '${s}';`, (s: string) => `require("${s}")`, (s: string) => `export { y } from "${s}"`, (s: string) => `import('${s}')`), (before, after, file, form) => {
        const spec = `./${file}`;
        expect(relativeSpecifiers(`${before}\n${form(spec)}\n${after}`)).toContain(spec);
      }),
      options,
    );
  });

  it('candidates: Node\'s order, up to the first file', () => {
    const exists = (f: string) => (f === '/p/lib/util.js' ? 'file' : f === '/p/lib/util' ? 'dir' : 'absent');
    // `./util` is a folder: `util.js` is tried next and found.
    expect(candidates('/p/lib/main.js', './util', exists)).toEqual(['/p/lib/util.js']);
    expect(candidates('/p/lib/main.js', './util', (f) => (f === '/p/lib/util.js' ? 'file' : 'absent'))).toEqual(['/p/lib/util', '/p/lib/util.js']);
    expect(candidates('/p/main.js', './x.js', (f) => (f === '/p/x.js' ? 'file' : 'absent'))).toEqual(['/p/x.js']);
  });
});

describe('pythonImports', () => {
  it('the dotted names of absolute imports, a name from a module as its possible submodule; relative ones are the package\'s', () => {
    expect(pythonImports('import os, sys as system\nimport a.b.c\nfrom lib.util import (x,\n  y as z)\nfrom . import z\nfrom .m import w\n  import inner  # indented\nfrom p import *\nx = "import nothing"\n')).toEqual(['os', 'sys', 'a.b.c', 'lib.util', 'lib.util.x', 'lib.util.y', 'inner', 'p']);
  });
});
