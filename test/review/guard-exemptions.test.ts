// Hostile review (issue 27): the agent names its write or read so a new exemption turns the guard off.
// Attack strings are data given to the guards in-process; nothing here is run by a shell.
import { describe, expect, it } from 'vitest';
import { judgeWrite } from '../../src/guards/secret-write.js';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';
import { A62, generator } from '../guards/corpus/secrets-examples.js';

const g = generator(9021);
const AKIA = ['AK', 'IA'].join('') + g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
const GHP = ['gh', 'p_'].join('') + g.pick(A62, 36);
const CONTENT = `export const AWS_KEY = "${AKIA}";\nexport const GH = "${GHP}";\n`;

describe('review: secret-write test-path exemption is judged on the path as written', () => {
  it('control: the same credential into src/config.ts is blocked', () => {
    expect(judgeWrite('write', { file_path: '/home/dev/project/src/config.ts', content: CONTENT }).verdict).toBe('block');
  });

  it.each([
    // `..` out of a test folder: the file lands in src/config.ts.
    ['Write, relative traversal', 'write', { file_path: 'test/../src/config.ts', content: CONTENT }],
    ['Write, absolute traversal', 'write', { file_path: '/home/dev/project/test/../src/config.ts', content: CONTENT }],
    ['Edit, traversal through fixtures/', 'edit', { file_path: '/home/dev/project/fixtures/../src/config.ts', old_string: 'x', new_string: CONTENT }],
    ['shell redirect through spec/', 'exec', { command: `printf '%s' '${CONTENT.replace(/\n/g, ' ')}' > spec/../src/config.ts` }],
    ['apply_patch through __mocks__/', 'apply_patch', { input: `*** Begin Patch\n*** Add File: __mocks__/../src/config.ts\n+${CONTENT.split('\n')[0]}\n*** End Patch\n` }],
    // Claude Code's Write sends absolute paths: a project that lives under any folder named test/,
    // spec/, mocks/, fixtures/ (a checkout in ~/test/, /srv/specs/, a repo named `spec`) is exempt whole.
    ['Write, project checked out under ~/test/', 'write', { file_path: '/home/dev/test/shop/src/config.ts', content: CONTENT }],
    ['Write, project checked out under /srv/specs/', 'write', { file_path: '/srv/specs/api/src/config.ts', content: CONTENT }],
  ])('%s: a credential written outside any test tree is still blocked', (_what, tool, input) => {
    const v = judgeWrite(tool, input);
    expect(v.verdict, JSON.stringify(input).slice(0, 120)).toBe('block');
  });
});

const HOME = '/home/dev';
const CWD = `${HOME}/project`;
const bash = (command: string) => {
  const j = judgeToolCall({ hook_event_name: 'PreToolUse', cwd: CWD, tool_name: 'Bash', tool_input: { command } }, {}, { tool: 'exec', home: HOME, env: { HOME }, realpath: false });
  return j.verdict;
};

describe('review: sensitive-paths print-only interpreter exception', () => {
  it('control: a plain read of .env through node is refused', () => {
    expect(bash(`node -e 'console.log(require("fs").readFileSync(".env","utf8"))'`)).not.toBe('allow');
  });

  // `node -e` has every core module as a global: `vm` (not in CODE_IO) evaluates code from a string,
  // so the only IO words are inside literals, which printsOnly() strips before looking.
  it.each([
    ['vm.runInThisContext builds require', `node -e 'console.log(vm.runInThisContext("require")("fs")["readFileSync"](".env","utf8"))'`],
    ['vm with the names split', `node -e 'console.log(vm.runInThisContext("req"+"uire")("f"+"s")["readFileSync"](".env","utf8"))'`],
    ['node -p form', `node -p 'vm.runInThisContext("require")("fs")["readFileSync"](".env","utf8")'`],
  ])('%s: reading .env is not "code that only prints"', (_what, command) => {
    expect(bash(command)).not.toBe('allow');
  });
});

// docs/guards/secret-write.md lists `cp`, `sed -i` and run-time assembly as not caught; a literal
// credential in interpreter code that writes a file is neither.
describe('review: secret-write interpreter writers with a literal credential', () => {
  const key = AKIA;
  it.each([
    ['python writes it', `python3 -c "open('src/config.ts','w').write('const K = \\"${key}\\";')"`],
    ['node writes it', `node -e "require('fs').writeFileSync('src/config.ts', 'const K = \\"${key}\\";')"`],
  ])('%s: blocked', (_what, command) => {
    expect(judgeWrite('exec', { command }).verdict).toBe('block');
  });
});
