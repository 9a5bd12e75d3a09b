// `hooks explain`: the run order, batches, skips and answers, as text and JSON.
import { describe, expect, it } from 'vitest';
import { cliInProcess, fixture, isolatedEnv, sample, tmpProject } from '../helpers.js';

/** `hooks explain` in-process (cliInProcess: the same argv, cwd, env, stdin and exit code). */
const cli = cliInProcess;

function project() {
  const config = {
    hooks: {
      preToolUse: [
        { id: 'rewrite', command: fixture('python'), env: { MODE: 'modify-input' } },
        { id: 'p1', command: fixture('bash'), env: { MODE: 'context' }, parallel: true },
        { id: 'p2', command: fixture('python'), env: { MODE: 'exit1' }, parallel: true },
        { id: 'writes-only', command: fixture('bash'), env: { MODE: 'continue' }, match: 'write' },
        { id: 'guard', command: fixture('bash'), env: { MODE: 'block-exit2' }, if: { command: '*--by-python' } },
        { id: 'never', command: fixture('bash'), env: { MODE: 'continue' } },
        { builtin: 'audit-log', options: { path: 'audit.jsonl' } },
      ],
    },
  };
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
  return { cwd: dir, env: isolatedEnv(dir) };
}

describe('hooks explain', () => {
  it('shows every hook in run order and batch, what each answered, and why the others did not run', async () => {
    const r = await cli(['explain'], { ...project(), input: JSON.stringify(sample('pre-tool-use.ls')) });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // Each layer first, with its trust state, then the event.
    expect(lines[0]).toMatch(/^project layer \S+\.hooksrc\.json trusted$/);
    expect(lines[1]).toMatch(/^pre-tool-use · tool exec \(Bash\)  chain/);
    const text = r.stdout;
    expect(text).toMatch(/batch 1\n\s+● rewrite modify \d+ms/);
    expect(text).toMatch(/batch 2 \(parallel\)\n\s+● p1 continue \d+ms[^\n]*\n\s+✗ p2 continue \d+ms failed: exit-1/);
    expect(text).toMatch(/○ writes-only skipped: match: tool exec \(Bash\) is not write/);
    expect(text).toMatch(/■ guard block \d+ms — blocked by bash/);
    expect(text).toMatch(/○ never not run: the chain ended at "guard"/);
    expect(text).toMatch(/after the decision\n\s+◇ audit-log records the run/);
    expect(lines).toContain('→ block by guard — blocked by bash');
  });

  it('--json gives the same steps as data', async () => {
    const p = project();
    const r = await cli(['explain', 'pre-tool-use', '--json'], { ...p, input: JSON.stringify(sample('pre-tool-use.ls')) });
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ event: 'preToolUse', decision: 'block', decidedBy: 'guard' });
    expect(json.steps.map((s: { id: string; batch: number; status: string }) => [s.id, s.batch, s.status])).toEqual([
      ['rewrite', 1, 'ran'],
      ['p1', 2, 'ran'],
      ['p2', 2, 'ran'],
      ['writes-only', 3, 'skipped'],
      ['guard', 4, 'ran'],
      ['never', 5, 'not-reached'],
      ['audit-log', 0, 'observer'],
    ]);
    expect(json.steps[2].failure.kind).toBe('exit-1');
  });

  it('says so when no hooks are configured for the event', async () => {
    const r = await cli(['explain'], { ...project(), input: JSON.stringify(sample('session-end')) });
    expect(r.stdout).toContain('no hooks are configured for this event');
    expect(r.stdout).toContain('→ continue');
  });
});
