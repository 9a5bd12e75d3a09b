// doctor's timeout warning: the latest moment the runner can still answer something the agent's drop
// would lose, against the agent's limit. A chain that only runs long loses nothing.
import { describe, expect, it } from 'vitest';
import { worstCaseSeconds } from '../../src/doctor/diagnose.js';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

type Hook = Parameters<typeof worstCaseSeconds>[0][number];
const cmd = (seconds: number, extra: Partial<Hook> = {}): Hook => ({ timeoutMs: seconds * 1000, onFailure: 'continue', parallel: false, run: { kind: 'command' } as Hook['run'], ...extra });
const guard = (seconds: number): Hook => ({ timeoutMs: seconds * 1000, onFailure: 'block', parallel: false, run: { kind: 'builtin' } as Hook['run'] });

describe('worstCaseSeconds', () => {
  it('one hook that continues on failure answers at its timeout at the latest, not after the kill grace', () => {
    expect(worstCaseSeconds([cmd(600)], 'intercept')).toBe(600);
    expect(worstCaseSeconds([cmd(600)], 'observe')).toBe(600);
  });

  it('one hook that blocks on failure answers after the kill grace', () => {
    expect(worstCaseSeconds([cmd(600, { onFailure: 'block' })], 'intercept')).toBe(600.5);
    // An in-process guard has no process to kill.
    expect(worstCaseSeconds([guard(30)], 'intercept')).toBe(30);
  });

  it('in sequence: an answer from one hook waits for every other to run to its timeout and grace', () => {
    expect(worstCaseSeconds([cmd(20), cmd(20)], 'intercept')).toBe(40.5);
    expect(worstCaseSeconds([cmd(10), cmd(20, { onFailure: 'block' })], 'intercept')).toBe(31);
    // Parallel hooks are one stage: the slowest one's grace delays the other's answer.
    expect(worstCaseSeconds([cmd(20, { parallel: true }), cmd(20, { parallel: true })], 'intercept')).toBe(20.5);
    expect(worstCaseSeconds([cmd(20), cmd(20)], 'observe')).toBe(20.5);
    expect(worstCaseSeconds([], 'intercept')).toBe(0);
  });
});

describe('hooks doctor', () => {
  it('no warning for one hook with the default timeout; a warning when its failure blocks', () => {
    const run = (hook: Record<string, unknown>) => {
      const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: 'true', ...hook }] } }) });
      return runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir) }).stdout;
    };
    expect(run({})).not.toMatch(/may take up to/);
    expect(run({ onFailure: 'block' })).toMatch(/warning preToolUse: hooks may take up to 600\.5 s \(timeouts in sequence\), but Claude Code waits 600 s/);
  });
});
