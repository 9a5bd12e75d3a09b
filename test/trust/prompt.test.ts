// `hooks trust` on a terminal asks y/N; only a yes records anything.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/main.js';
import { isolatedEnv, tmpProject } from '../helpers.js';

async function trustWith(answer: string) {
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ command: 'make check' }] } }) });
  const home = tmpProject();
  const env = isolatedEnv(home, {}, { trust: false });
  let stdout = '';
  const asked: string[] = [];
  const code = await cli(['trust'], {
    cwd: dir,
    env,
    readStdin: async () => '',
    stdout: (t) => void (stdout += t),
    stderr: () => {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal: new AbortController().signal,
    stdinIsTTY: true,
    prompt: async (q) => {
      asked.push(q);
      return answer;
    },
  });
  return { code, stdout, asked, stored: existsSync(path.join(home, '.local/state/agent-hooks/trust.json')) };
}

describe('hooks trust on a terminal', () => {
  it.each([['y', 0, true], ['yes', 0, true], ['', 1, false], ['n', 1, false], ['sure', 1, false]])('answer %j', async (answer, code, stored) => {
    const r = await trustWith(answer);
    expect(r.asked).toEqual(['Trust this file and let it run? [y/N] ']);
    expect(r.stdout).toContain('runs sh -c "make check"');
    expect(r.code).toBe(code);
    expect(r.stored).toBe(stored);
  });
});
