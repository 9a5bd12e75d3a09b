import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeWrite, secretWrite } from '../../src/guards/secret-write.js';
import { writtenBy } from '../../src/guards/secret-write/content.js';
import { secretWriteOptions } from '../../src/guards/secret-write/options.js';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';
import { A62, cleanTexts, generator, HEX } from './corpus/secrets-examples.js';

// Issue 27 item 3: what Write/Edit/MultiEdit/NotebookEdit/apply_patch and shell writers put into
// files is checked for hard-coded credentials. Tokens are generated at run time (seeded).
const g = generator(2703);
const AKIA = ['AK', 'IA'].join('') + g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
const GHP = ['gh', 'p_'].join('') + g.pick(A62, 36);
const PW = g.pick(A62, 14) + '7!';
const DB = `postgres://app:${PW}@db.internal:5432/app`;
const tokens = [AKIA, GHP, PW];

const block = (tool: string, input: unknown) => judgeWrite(tool, input);
const expectBlocked = (tool: string, input: unknown, rule: string) => {
  const v = block(tool, input);
  expect(v.verdict, JSON.stringify(input)).toBe('block');
  expect(v.reason).toContain(rule);
  for (const t of tokens) expect(v.reason).not.toContain(t);
};

describe('secret-write: reading what a tool writes', () => {
  it('reads Write, Edit, MultiEdit, NotebookEdit, str_replace_editor and apply_patch inputs', () => {
    expect(writtenBy('write', { file_path: 'src/a.ts', content: 'x' }).written).toEqual([{ path: 'src/a.ts', text: 'x' }]);
    expect(writtenBy('edit', { file_path: 'a', old_string: 'o', new_string: 'n' }).written).toEqual([{ path: 'a', text: 'n' }]);
    expect(writtenBy('edit', { file_path: 'a', edits: [{ old_string: 'o', new_string: 'n1' }, { new_string: 'n2' }] }).written.map((w) => w.text)).toEqual(['n1', 'n2']);
    expect(writtenBy('edit', { notebook_path: 'n.ipynb', new_source: 'c' }).written).toEqual([{ path: 'n.ipynb', text: 'c' }]);
    expect(writtenBy('write', { path: 'f', file_text: 't' }).written).toEqual([{ path: 'f', text: 't' }]);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old\n+new line\n*** Add File: b.txt\n+hello\n*** End Patch';
    expect(writtenBy('apply_patch', { command: patch }).written).toEqual([{ path: 'src/a.ts', text: 'new line' }, { path: 'b.txt', text: 'hello' }]);
  });

  it('reads shell writers: echo/printf redirections, heredocs, tee, dd', () => {
    const paths = (c: string) => writtenBy('exec', { command: c }).written.map((w) => w.path);
    expect(paths('echo hi > a.txt')).toEqual(['a.txt']);
    expect(paths("printf '%s' x >> b.txt")).toEqual(['b.txt']);
    expect(paths('cat <<EOF > c.env\nA=1\nEOF')).toEqual(['c.env']);
    expect(paths('echo x | tee -a d.txt e.txt')).toEqual(['d.txt', 'e.txt']);
    expect(paths('echo x > /dev/null; ls 2>&1')).toEqual([]);
    expect(writtenBy('exec', { command: 'cat <<EOF > c.env\nA=secretish\nEOF' }).written[0]!.text).toContain('A=secretish');
  });
});

describe('secret-write: verdicts', () => {
  it.each([
    ['write', { file_path: 'src/config.ts', content: `export const KEY = "${AKIA}";\n` }, 'aws-access-key-id'],
    ['edit', { file_path: 'src/gh.ts', old_string: 'TOKEN', new_string: `const token = '${GHP}';` }, 'github-token'],
    ['edit', { file_path: 'src/db.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: `const url = "${DB}";` }] }, 'url-password'],
    ['edit', { notebook_path: 'analysis.ipynb', new_source: `aws_key = "${AKIA}"` }, 'aws-access-key-id'],
    ['apply_patch', { command: `*** Begin Patch\n*** Add File: .env.production\n+DATABASE_URL=${DB}\n*** End Patch` }, 'url-password'],
    ['exec', { command: `echo "GITHUB_TOKEN=${GHP}" > .env` }, 'github-token'],
    ['exec', { command: `printf 'export AWS_ACCESS_KEY_ID=%s\\n' ${AKIA} >> ~/.bashrc` }, 'aws-access-key-id'],
    ['exec', { command: `cat <<EOF > deploy/config.yml\ndb:\n  url: ${DB}\nEOF` }, 'url-password'],
    ['exec', { command: `echo '${GHP}' | tee -a notes.txt` }, 'github-token'],
    ['exec', { command: `cat > src/k.ts <<'EOF'\nexport const k = '${AKIA}';\nEOF` }, 'aws-access-key-id'],
    ['exec', { command: ['bash', '-lc', `echo ${GHP} > token.txt`] }, 'github-token'],
  ])('blocks a hard-coded credential: %s %j', (tool, input, rule) => expectBlocked(tool, input, rule));

  it('asks instead of blocking with decision=ask', () => {
    const v = judgeWrite('write', { file_path: 'src/config.ts', content: `const k = "${AKIA}"` }, { decision: 'ask' });
    expect(v.verdict).toBe('ask');
    expect(v.reason).not.toContain(AKIA);
  });

  it.each([
    'test/fixtures/aws.json', 'src/__tests__/client.ts', 'pkg/server/testdata/creds.txt', 'src/auth.test.ts', 'spec/fixtures/x.yml',
    'internal/api_test.go', 'tests/test_auth.py', 'fixtures/env',
  ])('lets a credential into a test fixture: %s', (file) => {
    expect(block('write', { file_path: file, content: `const k = "${AKIA}"; const t = "${GHP}";` }).verdict).toBe('allow');
    expect(block('exec', { command: `echo "${GHP}" > ${file}` }).verdict).toBe('allow');
  });

  it('blocks test paths too with allowTestPaths=false, and allows extra paths by option', () => {
    expect(judgeWrite('write', { file_path: 'test/k.ts', content: GHP }, { allowTestPaths: false }).verdict).toBe('block');
    expect(judgeWrite('write', { file_path: 'docs/examples/k.md', content: GHP }, { allowPaths: ['docs/examples/'] }).verdict).toBe('allow');
  });

  it.each([
    'export const KEY = process.env.AWS_ACCESS_KEY_ID;',
    'const token = "${GITHUB_TOKEN}";',
    'OPENAI_API_KEY=<your-key>',
    'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'DATABASE_URL=postgres://user:password@localhost:5432/db',
    'password: ${{ secrets.DB_PASSWORD }}',
    `const sha = "${g.pick(HEX, 40)}";`,
  ])('lets documented placeholders and references through: %s', (content) => {
    expect(block('write', { file_path: 'src/config.ts', content }).verdict).toBe('allow');
    expect(block('exec', { command: `cat <<'EOF' > src/config.ts\n${content}\nEOF` }).verdict).toBe('allow');
  });

  it('does not count a credential the command uses but does not write (curl output to a file)', () => {
    expect(block('exec', { command: 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com -o out.json' }).verdict).toBe('allow');
    expect(block('exec', { command: 'ls -la > listing.txt' }).verdict).toBe('allow');
  });

  it('judges an unparseable writing command as a whole, and says so', () => {
    const v = block('exec', { command: `echo "${GHP}" > out.txt "unterminated` });
    expect(v.verdict).toBe('block');
    expect(v.reason).toMatch(/could not be parsed/);
    expect(v.reason).not.toContain(GHP);
  });

  it('property: the clean corpus written anywhere passes; a credential inserted anywhere is blocked, never echoed', () => {
    const clean = cleanTexts();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...clean), { minLength: 1, maxLength: 4 }), fc.constantFrom(AKIA, GHP), fc.nat(), fc.constantFrom('src/a.ts', 'config/app.yml', '.env'), (parts, token, at, file) => {
        const text = parts.join('\n');
        expect(block('write', { file_path: file, content: text }).verdict).toBe('allow');
        const i = at % (text.length + 1);
        const dirty = `${text.slice(0, i)}\n${token}\n${text.slice(i)}`;
        const v = block('write', { file_path: file, content: dirty });
        expect(v.verdict).toBe('block');
        expect(v.reason).not.toContain(token);
      }),
      { seed: 27003, numRuns: 150, interruptAfterTimeLimit: 8_000 },
    );
  });

  it('property: never throws on any tool input', () => {
    fc.assert(
      fc.property(fc.constantFrom('write', 'edit', 'apply_patch', 'exec'), fc.jsonValue({ maxDepth: 4 }), (tool, input) => {
        expect(['allow', 'block', 'ask']).toContain(judgeWrite(tool, input).verdict);
      }),
      { seed: 27004, numRuns: 300, interruptAfterTimeLimit: 8_000 },
    );
  });

  it('as a handler: answers block with the reason, nothing for a clean write', () => {
    const handler = secretWrite.create(secretWriteOptions.parse({}));
    const ctx: HandlerContext = { event: 'preToolUse', tool: 'write', signal: new AbortController().signal };
    const reply = handler({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'src/a.ts', content: GHP } } as HookInput, ctx) as ReplyObject;
    expect(reply).toMatchObject({ decision: 'block' });
    expect(handler({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'src/a.ts', content: 'x' } } as HookInput, ctx)).toBeUndefined();
  });
});

// Hostile review F3: the exemptions are judged on the path inside the project, `..` resolved.
describe('secret-write: test-path exemption is judged on the project-relative path (review)', () => {
  const CONTENT = `export const AWS_KEY = "${AKIA}";\nexport const GH = "${GHP}";\n`;
  it.each([
    ['Write, relative traversal', 'write', { file_path: 'test/../src/config.ts', content: CONTENT }],
    ['Write, absolute traversal', 'write', { file_path: '/home/dev/project/test/../src/config.ts', content: CONTENT }],
    ['Edit, traversal through fixtures/', 'edit', { file_path: '/home/dev/project/fixtures/../src/config.ts', old_string: 'x', new_string: CONTENT }],
    ['shell redirect through spec/', 'exec', { command: `printf '%s' '${CONTENT.replace(/\n/g, ' ')}' > spec/../src/config.ts` }],
    ['apply_patch through __mocks__/', 'apply_patch', { input: `*** Begin Patch\n*** Add File: __mocks__/../src/config.ts\n+${CONTENT.split('\n')[0]}\n*** End Patch\n` }],
    // Claude Code's Write sends absolute paths: a project under a folder named test/ or specs/ is not a fixture.
    ['Write, project checked out under ~/test/', 'write', { file_path: '/home/dev/test/shop/src/config.ts', content: CONTENT }],
    ['Write, project checked out under /srv/specs/', 'write', { file_path: '/srv/specs/api/src/config.ts', content: CONTENT }],
    ['Write, a test folder outside the project', 'write', { file_path: '/home/dev/other/test/k.ts', content: CONTENT }],
    ['Write, out of the project by ..', 'write', { file_path: '../test/k.ts', content: CONTENT }],
    ['Write, through ~', 'write', { file_path: '~/test/k.ts', content: CONTENT }],
  ])('%s: blocked', (_what, tool, input) => {
    expect(judgeWrite(tool, input, {}, undefined, '/home/dev/test/shop').verdict, JSON.stringify(input).slice(0, 120)).toBe('block');
    expect(judgeWrite(tool, input).verdict).toBe('block');
  });

  it('an absolute path into the project\'s own test tree passes, given the cwd', () => {
    expect(judgeWrite('write', { file_path: '/home/dev/test/shop/test/fixtures/k.ts', content: CONTENT }, {}, undefined, '/home/dev/test/shop').verdict).toBe('allow');
    expect(judgeWrite('write', { file_path: 'C:\\dev\\shop\\test\\k.ts', content: CONTENT }, {}, undefined, 'C:\\dev\\shop').verdict).toBe('allow');
    expect(judgeWrite('write', { file_path: './test/../test/k.ts', content: CONTENT }).verdict).toBe('allow');
  });

  it('as a handler: the payload\'s cwd is the project root the exemption is judged in', () => {
    const handler = secretWrite.create(secretWriteOptions.parse({}));
    const ctx: HandlerContext = { event: 'preToolUse', tool: 'write', signal: new AbortController().signal };
    const write = (file_path: string) => handler({ hook_event_name: 'PreToolUse', cwd: '/home/dev/test/shop', tool_name: 'Write', tool_input: { file_path, content: CONTENT } } as HookInput, ctx);
    expect(write('/home/dev/test/shop/test/fixtures/k.ts')).toBeUndefined();
    expect(write('/home/dev/test/shop/src/config.ts')).toMatchObject({ decision: 'block' });
  });

  it('allowPaths matches whole folders of the project-relative path', () => {
    const opts = { allowPaths: ['docs/examples/'] };
    expect(judgeWrite('write', { file_path: '/p/docs/examples/k.md', content: GHP }, opts, undefined, '/p').verdict).toBe('allow');
    expect(judgeWrite('write', { file_path: '/p/pkg/docs/examples/k.md', content: GHP }, opts, undefined, '/p').verdict).toBe('allow');
    expect(judgeWrite('write', { file_path: '/p/mydocs/examples/k.md', content: GHP }, opts, undefined, '/p').verdict).toBe('block');
    expect(judgeWrite('write', { file_path: 'docs/examples/../../src/k.ts', content: GHP }, opts).verdict).toBe('block');
    expect(judgeWrite('write', { file_path: '/docs/examples/k.md', content: GHP }, opts, undefined, '/p').verdict).toBe('block');
  });

  it('the exemption never lets a path out of the project through (property)', () => {
    const seg = fc.constantFrom('test', 'spec', 'fixtures', '__mocks__', 'src', '..', '.', 'a');
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 6 }), (segs) => {
        const path = [...segs, 'k.ts'].join('/');
        const v = judgeWrite('write', { file_path: path, content: GHP }, {}, undefined, '/p').verdict;
        let depth = 0;
        let escaped = false;
        for (const s of segs) {
          depth += s === '..' ? -1 : s === '.' ? 0 : 1;
          if (depth < 0) escaped = true;
        }
        if (escaped) expect(v).toBe('block');
      }),
      { seed: 33, numRuns: 300, interruptAfterTimeLimit: 10_000 },
    );
  });
});

// Hostile review F10: a literal credential in interpreter code that writes a file.
describe('secret-write: interpreter code that writes a file (review)', () => {
  it.each([
    ['python writes it', `python3 -c "open('src/config.ts','w').write('const K = \\"${AKIA}\\";')"`],
    ['node writes it', `node -e "require('fs').writeFileSync('src/config.ts', 'const K = \\"${AKIA}\\";')"`],
    ['pathlib write_text', `python3 -c "import pathlib; pathlib.Path('src/k.py').write_text('K = \\"${GHP}\\"')"`],
    ['ruby File.write', `ruby -e "File.write('src/k.rb', 'K = \\"${GHP}\\"')"`],
    ['python heredoc', `python3 <<'EOF'\nopen('src/k.py', 'a').write("K = '${GHP}'")\nEOF`],
    ['python, path through ..', `python3 -c "open('test/../src/k.py','w').write('${GHP}')"`],
  ])('%s: blocked', (_what, command) => {
    expect(judgeWrite('exec', { command }).verdict).toBe('block');
  });

  it.each([
    ['a read that prints a credential-shaped literal', `python3 -c "print(open('src/k.py').read(), '${GHP}')"`],
    ['a write into a fixture', `python3 -c "open('test/fixtures/k.json','w').write('${GHP}')"`],
    ['a write of a clean value', `node -e "require('fs').writeFileSync('src/k.ts', 'export const K = process.env.K;')"`],
  ])('%s: passes', (_what, command) => {
    expect(judgeWrite('exec', { command }).verdict).toBe('allow');
  });
});

// Review follow-up: an engine error must not let a credential through, nor put the text it quotes in the reason.
describe('secret-write when the scan itself fails', () => {
  const FAKE = `AKIA${'FAKEFAKE'.repeat(2)}`;
  const throwing = {
    text: (text: string) => {
      throw new SyntaxError(`Invalid regular expression: /${text}/: too large`);
    },
  } as unknown as Parameters<typeof judgeWrite>[3];

  it('asks, naming only the error type, for a Write and for a shell writer', () => {
    for (const [tool, input] of [
      ['write', { file_path: 'src/config.ts', content: `export const KEY = "${FAKE}";` }],
      ['exec', { command: `echo 'KEY=${FAKE}' > src/.config` }],
    ] as const) {
      const v = judgeWrite(tool, input, {}, throwing, '/home/dev/project');
      expect(v.verdict, tool).toBe('ask');
      expect(v.reason, tool).toContain('SyntaxError');
      expect(v.reason, tool).not.toContain(FAKE);
    }
  });
});
