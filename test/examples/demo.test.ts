// `npm run demo`'s script: the three answers it promises, and escape codes only on a terminal.
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
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

  // script(1) gives the demo a terminal: bold headings there, and the CLI sees the terminal and colours too.
  it.skipIf(!hasScript)('on a terminal: bold headings, and hooks test in colour', () => {
    const tty = spawnSync('script', ['-qec', `bash ${JSON.stringify(DEMO)}`, '/dev/null'], { encoding: 'utf8', env: env() });
    expect(tty.stdout).toContain('\x1b[1m$ node bin/hooks.js run');
    expect(tty.stdout).toMatch(/\x1b\[32m✓\x1b\[39m no-force-push blocks/);
  });

  // NO_COLOR on a terminal: what is tested is the script's own choice, so node on PATH is a stand-in that only
  // logs its arguments (the CLI's NO_COLOR is wantsColour's, test/cli/completion.test.ts; a third real demo run
  // cost a third of this file).
  it.skipIf(!hasScript)('on a terminal with NO_COLOR set: plain headings', () => {
    const bin = tmpProject({ node: '#!/bin/sh\necho "stand-in node $*"\n' });
    chmodSync(path.join(bin, 'node'), 0o755);
    const e = env({ NO_COLOR: '1' });
    const plain = spawnSync('script', ['-qec', `bash ${JSON.stringify(DEMO)}`, '/dev/null'], { encoding: 'utf8', env: { ...e, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    expect(plain.stdout).toContain('stand-in node bin/hooks.js test hooks-tests/no-force-push.json');
    expect(plain.stdout).toContain('$ node bin/hooks.js run');
    expect(plain.stdout).not.toMatch(/\x1b\[/);
  });
});
