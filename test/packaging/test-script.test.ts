// scripts/test.mjs, behind `npm test`: one closing line counting vitest's tests and the hooks test
// cases, and a non-zero exit (counted in that line) whenever either half fails or does not report.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

function runScript(args: string[]) {
  const env = { ...process.env };
  // A vitest run inside this one must not think it is a worker of ours.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'test.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 240_000 });
}

describe('npm test closing line', () => {
  it('counts the vitest tests and the hooks test cases together, alone on the last line', () => {
    const r = runScript(['test/testing/diff.test.ts']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const [, passed, failed] = /^(\d+) passed, (\d+) failed$/.exec(lines.at(-1)!) ?? [];
    expect(failed).toBe('0');
    const vitest = Number(/Tests\s+(\d+) passed/.exec(r.stdout.replace(/\x1b\[[0-9;]*m/g, ''))?.[1]);
    const cases = lines.filter((l) => l.startsWith(' ✓ ')).length;
    expect(vitest).toBeGreaterThan(0);
    expect(cases).toBeGreaterThan(0);
    expect(Number(passed)).toBe(vitest + cases);
  }, 240_000);

  it('a vitest half that does not run is a failure, in the line and the exit code', () => {
    const r = runScript(['test/no-such-file.test.ts']);
    expect(r.status).toBe(1);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 1 failed$/);
  }, 240_000);
});
