// Property tests for sensitive-paths (issue 10): no input makes the glob compiler, path resolution
// or the guard throw, and a read of a listed secret is never allowed whatever surrounds it.
// Seeded and time-bounded; inputs the fuzzer found are kept as plain cases in sensitive-paths.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, judgePath, judgeToolCall, resolvePath, sensitivePaths } from '../../src/guards/sensitive-paths.js';
import type { HookInput } from '../../src/types.js';

const home = '/home/dev';
const cwd = '/home/dev/project';
const env = { HOME: home };
// CI runs a small, seeded sample; a longer hunt: SP_FUZZ_RUNS=20000 SP_FUZZ_SEED=7 SP_FUZZ_MS=120000 npx vitest run <this file>.
const RUNS = Number(process.env.SP_FUZZ_RUNS ?? 400);
const SEED = process.env.SP_FUZZ_SEED === undefined ? 0 : Number(process.env.SP_FUZZ_SEED);
const LIMIT_MS = Number(process.env.SP_FUZZ_MS ?? 5_000);
const budget = (seed: number) => ({ seed: seed + SEED, numRuns: RUNS, interruptAfterTimeLimit: LIMIT_MS });

const globChars = fc.constantFrom(...'ab*?[]{},!^-/.\\~$:@ '.split(''), '**', '[b-a]', '[!', '{a,', '/**', '[[:alpha:]]', '\u00e9', '\ud83d');
const globish = fc.array(globChars, { maxLength: 24 }).map((parts) => parts.join(''));
const pathish = fc.oneof(globish, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));

const SECRETS = ['~/.ssh/id_rsa', '~/.aws/credentials', '.env', '.env.production', '~/.kube/config', '/etc/shadow', '~/.codex/auth.json', 'credentials.json', 'server.key', '~/.gnupg/secring.gpg', '/root/.ssh/id_ed25519', '~/.netrc'];
const noiseToken = fc.constantFrom('ls', 'cat', 'grep', '-r', 'token', '**', 'src/**', '~/**', '/etc/**', '[b-a]', '[z-a]*', '*', '?', '{a,b}', '{', '}', '|', '&&', '||', ';', '&', '>', '>>', '<', '2>&1', '$X', '${X:-y}', '$(pwd)', '"', "'", 'x=1', '--', '-', 'echo', 'find', '.', '-name', 'xargs', 'sudo', 'env', 'bash', '-c', 'true', '\n');
const noise = fc.array(noiseToken, { maxLength: 12 }).map((t) => t.join(' '));

const NONE = {};
const exec = (command: string, options: object = NONE) =>
  judgeToolCall({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command } }, options, { tool: 'exec', home, env });

describe('no input throws', () => {
  it('compileGlob compiles or refuses every string, and the RegExp runs', () => {
    fc.assert(
      fc.property(pathish, fc.boolean(), fc.constantFrom('exact', 'wide') as fc.Arbitrary<'exact' | 'wide'>, (glob, dot, brackets) => {
        const compiled = compileGlob(glob, { dot, brackets });
        if (compiled.ok) expect(typeof compiled.re.test('/home/dev/.ssh/id_rsa')).toBe('boolean');
        else expect(compiled.error).toMatch(/glob/);
      }),
      budget(1001),
    );
  });

  // Options objects are few and reused: the guard builds its judge once per options object.
  const optionSets = [{}, { extra: ['**', '[b-a]', '{a,', 'x\\'], allow: ['[!'] }, { allow: ['**/x/**'], categories: { dotenv: 'ask' as const } }, { unverifiable: 'allow' as const }];
  it('resolvePath and judgePath answer for every path, access and options', () => {
    fc.assert(
      fc.property(pathish, fc.constantFrom('read', 'write') as fc.Arbitrary<'read' | 'write'>, fc.nat(optionSets.length - 1), (path, access, i) => {
        expect(typeof resolvePath(path, cwd, home)).toBe('string');
        const verdict = judgePath(path, { cwd, home, access }, optionSets[i]);
        expect(['allow', 'block', 'ask']).toContain(verdict.verdict);
      }),
      budget(1002),
    );
  });

  it('any user glob in extra or allow builds a judge that answers', () => {
    fc.assert(
      fc.property(pathish, pathish, (extra, allow) => {
        const verdict = judgePath('.env', { cwd, home, access: 'read' }, { extra: [extra], allow: [allow] });
        expect(['allow', 'block', 'ask']).toContain(verdict.verdict);
      }),
      { seed: 1008, numRuns: 60, interruptAfterTimeLimit: 4_000 },
    );
  });

  it('the guard answers allow, block or ask for every command', () => {
    fc.assert(
      fc.property(fc.oneof(noise, fc.string({ maxLength: 80 })), (command) => {
        expect(['allow', 'block', 'ask']).toContain(exec(command).verdict);
      }),
      budget(1003),
    );
  });

  it('the handler never throws on any tool input', async () => {
    const handler = sensitivePaths.create({ extra: [], allow: [], home }, { projectDir: cwd, env });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('read', 'write', 'edit', 'exec', 'apply_patch', 'other'), fc.jsonValue({ maxDepth: 4 }), async (tool, toolInput) => {
        const input = { hook_event_name: 'PreToolUse', cwd, tool_name: tool, tool_input: toolInput } as unknown as HookInput;
        const reply = await handler(input, { event: 'preToolUse', signal: new AbortController().signal, tool });
        if (reply) expect(['block', 'ask']).toContain(reply.decision);
      }),
      budget(1004),
    );
  });
});

describe('a read of a listed secret is never allowed', () => {
  it('whatever comes before or after it in the command', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SECRETS), noise, noise, fc.constantFrom('cat', 'less', 'head -n 5', 'base64', 'cp', 'grep -r token', 'sudo cat', 'bash -c cat'), (secret, before, after, reader) => {
        const read = reader === 'bash -c cat' ? `bash -c 'cat ${secret}'` : `${reader} ${secret}`;
        expect(exec(`${read} ; ${after}`).verdict).not.toBe('allow');
        // Before it, `#` and `\` could legitimately turn the read into a comment or an argument; the noise has neither.
        expect(exec(`${before} ; ${read}`).verdict).not.toBe('allow');
      }),
      budget(1005),
    );
  });

  it('through a file tool, however the path is spelled', () => {
    const spelling = fc.constantFrom('', './', 'x/../', 'a/b/../../', './/');
    fc.assert(
      fc.property(fc.constantFrom(...SECRETS.filter((s) => !s.startsWith('/') && !s.startsWith('~'))), spelling, (secret, prefix) => {
        expect(judgePath(prefix + secret, { cwd, home, access: 'read' }).verdict).toBe('block');
      }),
      budget(1006),
    );
  });

  it('unless the user relaxes it: unverifiable "allow" lets an unparsable command through', () => {
    expect(exec('cat "unterminated').verdict).toBe('block');
    expect(exec('cat "unterminated', { unverifiable: 'allow' }).verdict).toBe('allow');
    expect(exec('cat "unterminated', { unverifiable: 'ask' }).verdict).toBe('ask');
  });
});

describe('a write to a hook settings file is never allowed', () => {
  const PROTECTED = ['~/.config/agent-hooks/config.json', '.claude/settings.json', '.claude/settings.local.json', '~/.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json', '.cursor/hooks.json', '/etc/agent-hooks/managed.json', '~/.local/state/agent-hooks/trust.json'];
  it('by any shell writer', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTECTED), fc.constantFrom('echo x >', 'echo x >>', 'tee', 'rm', 'rm -f', 'mv x', 'cp x', 'truncate -s 0', "sed -i s/a/b/", 'ln -sf /dev/null', 'touch'), noise, (file, writer, after) => {
        expect(exec(`${writer} ${file} ; ${after}`).verdict).not.toBe('allow');
      }),
      budget(1007),
    );
  });
});
