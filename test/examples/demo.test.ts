// `npm run demo`'s script: the three answers it promises, and escape codes only on a terminal.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isolatedEnv, ROOT, tmpProject } from '../helpers.js';

// The demo runs about a dozen real CLI processes and hooks: generous, so only a hang fails on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

const DEMO = path.join(ROOT, 'hooks-examples', 'demo.sh');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

function env(extra: Record<string, string> = {}) {
  const e = isolatedEnv(tmpProject(), extra);
  delete e.NO_COLOR;
  return { ...e, ...extra, TERM: 'xterm' };
}

describe('hooks-examples/demo.sh', () => {
  it('into a pipe: a block, a rewrite, session context, and no escape codes', () => {
    const r = spawnSync('bash', [DEMO], { encoding: 'utf8', env: env() });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('exit 2');
    expect(r.stdout).toContain('ls --color=never -la src');
    expect(r.stdout).toContain('additionalContext');
    expect(r.stdout).toContain('$ node bin/hooks.js run pre-tool-use --config .hooksrc.example.json --verbose');
    // A built-in guard with no config, then the example guard's test cases.
    expect(r.stdout).toMatch(/\$ node bin\/hooks\.js guard command-safety .*\n.*"permissionDecision":"deny".*git-hook-bypass/);
    expect(r.stdout).toMatch(/^✓ no-force-push blocks git push --force /m);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed\nexit 0\n$/m);
    expect(r.stdout + r.stderr).not.toMatch(/\x1b\[/);
  });

  // script(1) gives the demo a terminal: bold headings there, none with NO_COLOR.
  it.skipIf(!hasScript)('on a terminal: bold headings, unless NO_COLOR is set', () => {
    const tty = spawnSync('script', ['-qec', `bash ${JSON.stringify(DEMO)}`, '/dev/null'], { encoding: 'utf8', env: env() });
    expect(tty.stdout).toContain('\x1b[1m$ node bin/hooks.js run');
    const plain = spawnSync('script', ['-qec', `bash ${JSON.stringify(DEMO)}`, '/dev/null'], { encoding: 'utf8', env: env({ NO_COLOR: '1' }) });
    expect(plain.stdout).toContain('$ node bin/hooks.js run');
    expect(plain.stdout).not.toMatch(/\x1b\[/);
  });
});
