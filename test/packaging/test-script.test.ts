// scripts/test.mjs, behind `npm test`: one closing line counting vitest's tests and the hooks test
// cases, and a non-zero exit (counted in that line) whenever either half fails or does not report.
//
// The script runs as a user runs it (node scripts/test.mjs, real vitest, the built bin), in a small project:
// a copy of the script, the repository's node_modules and bin linked in, one vitest file and two hooks test
// cases on a builtin guard. Run in the repository itself, each case here cost the whole hooks-tests/ folder
// (27 cases, ~4 CPU-s) on top of vitest; every `npm test` runs the script there anyway, and CI checks its line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, tmpProject } from '../helpers.js';

const VITEST_FILE = `import { expect, it } from 'vitest';
it('adds', () => expect(1 + 1).toBe(2));
it('joins', () => expect(['a', 'b'].join('')).toBe('ab'));
`;
const GUARDS = { hooks: { preToolUse: [{ builtin: 'command-safety' }] } };
const exec = (command: string) => ({ sample: 'pre-tool-use', tool: 'exec', input: { command } });
const CASES = {
  // Not a name the config search finds: a config named for tests needs no trust, as hooks-tests/guards.hooksrc.json.
  config: 'guards.hooksrc.json',
  cases: [
    { name: 'command-safety blocks a commit that skips the git hooks', event: exec('git commit --no-verify -m wip'), expect: { decision: 'block' } },
    { name: 'command-safety lets ls through', event: exec('ls -la'), expect: { decision: 'continue' } },
  ],
};

let project: string;
beforeAll(() => {
  project = tmpProject({
    'test/sum.test.ts': VITEST_FILE,
    'hooks-tests/guards.hooksrc.json': JSON.stringify(GUARDS),
    'hooks-tests/guards.json': JSON.stringify(CASES),
  });
  mkdirSync(path.join(project, 'scripts'));
  copyFileSync(path.join(ROOT, 'scripts', 'test.mjs'), path.join(project, 'scripts', 'test.mjs'));
  for (const name of ['node_modules', 'bin', 'dist']) symlinkSync(path.join(ROOT, name), path.join(project, name));
});

function runScript(args: string[], extra: Record<string, string> = {}) {
  const env = { ...isolatedEnv(project), ...extra };
  // A vitest run inside this one must not think it is a worker of ours.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return spawnSync(process.execPath, [path.join(project, 'scripts', 'test.mjs'), ...args], { cwd: project, env, encoding: 'utf8', timeout: 240_000 });
}

describe('npm test closing line', () => {
  it('counts the vitest tests and the hooks test cases together, alone on the last line', () => {
    const r = runScript(['test/sum.test.ts']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const [, passed, failed] = /^(\d+) passed, (\d+) failed$/.exec(lines.at(-1)!) ?? [];
    expect(failed).toBe('0');
    const vitest = Number(/Tests\s+(\d+) passed/.exec(r.stdout.replace(/\x1b\[[0-9;]*m/g, ''))?.[1]);
    const cases = lines.filter((l) => l.startsWith(' ✓ ')).length;
    expect(vitest).toBe(2);
    expect(cases).toBe(2);
    expect(Number(passed)).toBe(vitest + cases);
  }, 240_000);

  it('a vitest half that does not run is a failure, in the line and the exit code', () => {
    // The contributor's own setup reaches neither half's cases: a user layer that blocks every tool call, and
    // switches that would turn the guard off (the hooks test half runs in a home of its own).
    const user = tmpProject({ 'agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'block-all', command: 'exit 2' }] } }) });
    const r = runScript(['test/no-such-file.test.ts'], { XDG_CONFIG_HOME: user, HOOKS_SKIP: 'command-safety', HOOKS_DISABLE: '1' });
    expect(r.status).toBe(1);
    // The hooks test half still ran and counted its two cases.
    expect(r.stdout.trimEnd().split('\n').at(-1), r.stdout).toBe('2 passed, 1 failed');
  }, 240_000);

  it('--typecheck (npm test passes it): a type error in test/ fails the run, says where, and both halves still count', () => {
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true }, include: ['test'] }));
    try {
      const clean = runScript(['--typecheck', 'test/sum.test.ts']);
      expect(clean.stdout).toContain('type check (src/, test/): no errors');
      expect(clean.stdout.trimEnd().split('\n').at(-1), clean.stdout).toBe('4 passed, 0 failed');
      expect(clean.status).toBe(0);

      writeFileSync(path.join(project, 'test', 'wrong.ts'), "export const n: number = 'one';\n");
      const r = runScript(['--typecheck', 'test/sum.test.ts']);
      expect(r.stdout).toMatch(/test\/wrong\.ts\(1,14\): error TS2322/);
      expect(r.stdout.trimEnd().split('\n').at(-1), r.stdout).toBe('4 passed, 1 failed');
      expect(r.status).toBe(1);
    } finally {
      rmSync(path.join(project, 'test', 'wrong.ts'), { force: true });
      rmSync(path.join(project, 'tsconfig.json'), { force: true });
    }
  }, 240_000);
});
