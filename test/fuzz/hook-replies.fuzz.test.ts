// Property test through the whole runner with a real hook process (issue 10): the hook writes fuzzed bytes to
// stdout and stderr and exits with a fuzzed code. Invariants: exit codes only 0, 1, 2; a hook's exit 2 or a
// well-formed JSON block always ends as a block (exit 2), whatever else it wrote; no internal error.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';
import { counted, settings } from './settings.js';

const dir = tmpProject();
const config = path.join(dir, 'hooks.json');
writeFileSync(config, JSON.stringify({ hooks: { preToolUse: [{ id: 'fuzzed', command: 'cat reply.bin; cat err.bin >&2; exit $(cat code)', timeout: 20 }] } }));
const env = isolatedEnv(dir);
const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });

const stdout = fc.oneof(
  fc.constantFrom('', '{"decision":"allow"}', 'checking...\n{"decision":"block"}', '{"decision":', 'plain'),
  fc.json().map((j) => j),
  fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b).toString('latin1')),
);
const block = fc.constantFrom('{"decision":"block","reason":"r"}', '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}', '\uFEFF {"decision":"deny"}\n');
const stderrSize = fc.constantFrom(0, 10, 70_000, 2_100_000);

describe('fuzz: real hook replies through the runner', () => {
  it('exit codes 0/1/2 only; exit 2 and a JSON block always block', async () => {
    const { wrapped, report } = counted('hook replies (real process, CLI in process)', async (out: string, isBlock: boolean, code: number, errSize: number) => {
      // Raw bytes are carried as latin1 text; a block is UTF-8 (its BOM must reach the hook as EF BB BF).
      writeFileSync(path.join(dir, 'reply.bin'), out, isBlock ? 'utf8' : 'latin1');
      writeFileSync(path.join(dir, 'err.bin'), 'e'.repeat(errSize));
      writeFileSync(path.join(dir, 'code'), String(code));
      const res = await cliInProcess(['run', 'pre-tool-use', '--config', config], { cwd: dir, env, input });
      expect([0, 1, 2]).toContain(res.code);
      expect(res.stderr).not.toContain('internal error');
      if (code === 2 || isBlock) expect(res.code).toBe(2);
    });
    const reply = fc.oneof(stdout.map((s) => [s, false] as const), block.map((s) => [s, true] as const));
    await fc.assert(fc.asyncProperty(reply, fc.constantFrom(0, 1, 2, 3, 127), stderrSize, ([s, b], c, e) => wrapped(s, b, c, e)), settings(40));
    report();
  }, 60_000);
});
