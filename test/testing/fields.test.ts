// A test case's sample input with a key its tool does not have would run on the sample's default input
// and pass without testing what it says: the key fails the case, named, with the fields there are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unknownInputField } from '../../src/testing/fields.js';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

describe('unknownInputField', () => {
  it('names the key, suggests the field, and lists the fields the tool has', () => {
    const why = unknownInputField('pre-tool-use', 'exec', { comand: 'rm -rf /' });
    expect(why).toMatch(/^comand: the exec tool's input has no field "comand" \(did you mean "command"\?\)/);
    expect(why).toContain('its fields: command, description');
    expect(unknownInputField('preToolUse', 'Bash', { command: 'ls', description: 'x' })).toBeUndefined();
    expect(unknownInputField('pre-tool-use', undefined, { comand: 'x' })).toMatch(/^comand: the exec tool/);
    expect(unknownInputField('post-tool-use', 'read', { file_path: '.env' })).toBeUndefined();
    expect(unknownInputField('pre-tool-use', 'write', { filepath: 'a' })).toMatch(/did you mean "file_path"/);
    expect(unknownInputField('user-prompt-submit', undefined, { promt: 'x' })).toMatch(/^promt: a user-prompt-submit event has no field "promt" \(did you mean "prompt"\?\)/);
    expect(unknownInputField('stop', undefined, { stop_hook_active: true })).toBeUndefined();
  });

  it('leaves tools whose fields it does not know alone (MCP tools, an agent’s own tools)', () => {
    expect(unknownInputField('pre-tool-use', 'mcp__github__create_issue', { anything: 1 })).toBeUndefined();
    expect(unknownInputField('pre-tool-use', 'TodoWrite', { todos: [] })).toBeUndefined();
  });

  it('property: a key outside the tool’s fields is always reported, and by its name', () => {
    const known = new Set(['command', 'description', 'timeout', 'run_in_background', 'cmd', 'workdir', 'directory']);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !known.has(k) && k !== '__proto__'), fc.jsonValue(), (key, value) => {
        const why = unknownInputField('pre-tool-use', 'exec', { command: 'ls', [key]: value });
        expect(why?.startsWith(`${key}: `)).toBe(true);
      }),
      { seed: 8, numRuns: 200, interruptAfterTimeLimit: 2000 },
    );
  });
});

describe('hooks test with a mistyped input key', () => {
  it('fails that case with one line naming the key; the other cases still run', async () => {
    const dir = tmpProject({
      'hooks.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }),
      'hooks-tests/cases.json': JSON.stringify({
        config: '../hooks.json',
        cases: [
          { name: 'typo', event: { sample: 'pre-tool-use', input: { comand: 'rm -rf /' } }, expect: { decision: 'continue' } },
          { name: 'real', event: { sample: 'pre-tool-use', input: { command: 'rm -rf /' } }, expect: { decision: 'block' } },
        ],
      }),
    });
    const r = await cliInProcess(['test'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('✗ typo'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]!.trim()).toMatch(/^cases\[0\]\.event\.input\.comand: the exec tool's input has no field "comand" \(did you mean "command"\?\); its fields: command, .*\(the case would run on the sample's default input/);
    expect(lines.some((l) => l.startsWith('✓ real'))).toBe(true);
    expect(lines.at(-2)).toBe('1 passed, 1 failed');
  });
});

it('a tool named like an Object property is not mistaken for a known tool', () => {
  for (const tool of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(unknownInputField('pre-tool-use', tool, { x: 1 })).toBeUndefined();
});
