// How answers combine, end to end through the engine with real hook processes.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, event, fixture, runnerWith, tmpProject } from '../helpers.js';

const REPLY = { bash: fixture('bash'), python: fixture('python'), node: fixture('node') };
const MARKER = fixture('bash', 'marker');
const SLEEP = fixture('bash', 'sleep-then');

const BARRIER = fixture('bash', 'barrier');

function markerFile() {
  return path.join(tmpProject(), 'ran.txt');
}
function barrierDir() {
  const dir = path.join(tmpProject(), 'started');
  mkdirSync(dir);
  return dir;
}
function ran(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('intercepting events run as a chain', () => {
  it('chains rewrites across three hooks in three languages: each sees the one before', async () => {
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'b', command: REPLY.bash, env: { MODE: 'modify-input' } },
          { id: 'p', command: REPLY.python, env: { MODE: 'modify-input' } },
          { id: 'n', command: REPLY.node, env: { MODE: 'modify-input' } },
        ],
      },
    });
    const d = await runner.run(bash('make'));
    expect(d.decision).toBe('modify');
    expect(d.updatedInput?.command).toBe('make --by-bash --by-python --by-node');
    expect(d.results.map((r) => r.id)).toEqual(['b', 'p', 'n']);
  });

  it('a block after a rewrite wins, and the blocker judged the rewritten payload', async () => {
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'rewrite', command: REPLY.node, env: { MODE: 'modify-input' } },
          // Blocks only what the rewrite produced: proof it saw the rewritten command.
          { id: 'guard', command: REPLY.bash, env: { MODE: 'block-exit2' }, if: { command: '*--by-node' } },
        ],
      },
    });
    const d = await runner.run(bash('deploy'));
    expect(d.decision).toBe('block');
    expect(d.decidedBy).toBe('guard');
    expect(d.reason).toBe('blocked by bash');
    expect(d.updatedInput).toBeUndefined();
  });

  it('after a block nothing runs: a later rewrite never happens', async () => {
    const marker = markerFile();
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'guard', command: REPLY.python, env: { MODE: 'block-json' } },
          { id: 'later', command: MARKER, env: { NAME: 'later', MARKER_FILE: marker } },
          { id: 'rewrite', command: REPLY.node, env: { MODE: 'modify-input' } },
        ],
      },
    });
    const d = await runner.run(bash('ls'));
    expect(d.decision).toBe('block');
    expect(d.results.map((r) => r.id)).toEqual(['guard']);
    expect(ran(marker)).toEqual([]);
  });

  it('runs by priority (higher first), then layer, then position', async () => {
    const marker = markerFile();
    const m = (name: string, priority?: number) => ({ id: name, command: MARKER, env: { NAME: name, MARKER_FILE: marker }, ...(priority === undefined ? {} : { priority }) });
    const runner = await runnerWith({ hooks: { preToolUse: [m('a'), m('b', 5), m('c'), m('d', 10), m('e', -1)] } });
    await runner.run(bash('ls'));
    expect(ran(marker)).toEqual(['d', 'b', 'a', 'c', 'e']);
  });

  it('ask beats allow, a rewrite rides along with an ask, and block beats ask', async () => {
    const ask = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'allow', command: REPLY.bash, env: { MODE: 'allow-json' } },
          { id: 'rewrite', command: REPLY.node, env: { MODE: 'modify-input' } },
          { id: 'ask', command: REPLY.python, env: { MODE: 'ask-json' } },
        ],
      },
    });
    const asked = await ask.run(bash('rm build'));
    expect(asked.decision).toBe('ask');
    expect(asked.reason).toBe('python asks');
    expect(asked.updatedInput?.command).toBe('rm build --by-node');

    const block = await runnerWith({
      hooks: { preToolUse: [{ id: 'ask', command: REPLY.python, env: { MODE: 'ask-json' } }, { id: 'no', command: REPLY.bash, env: { MODE: 'block-exit2' } }] },
    });
    expect((await block.run(bash('ls'))).decision).toBe('block');
  });

  it('halt beats a block in the same parallel batch', async () => {
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'block', command: REPLY.bash, env: { MODE: 'block-exit2' }, parallel: true },
          { id: 'halt', command: REPLY.node, env: { MODE: 'halt' }, parallel: true },
        ],
      },
    });
    const d = await runner.run(bash('ls'));
    expect(d.decision).toBe('halt');
    expect(d.reason).toBe('node halts');
  });

  it('additionalContext from every hook is kept, in order', async () => {
    const runner = await runnerWith({
      hooks: {
        userPromptSubmit: [
          { id: 'n', command: REPLY.node, env: { MODE: 'context' } },
          { id: 'b', command: REPLY.bash, env: { MODE: 'plain-stdout' } },
          { id: 'p', command: REPLY.python, env: { MODE: 'context' } },
        ],
      },
    });
    const d = await runner.run(event('userPromptSubmit', { prompt: 'hi' }));
    expect(d.additionalContext).toEqual(['context from node', 'plain text from bash', 'context from python']);
  });
});

describe('parallel batches', () => {
  // Each hook waits until all four have started: only hooks that run at the same time all get there
  // (in turn, each would wait alone), however long a loaded machine takes to start them.
  it('four parallel hooks all run at the same time', async () => {
    const marker = markerFile();
    const barrier = barrierDir();
    const party = (n: number) => ({ id: `s${n}`, command: BARRIER, env: { NAME: `s${n}`, PARTIES: '4', WAIT: '8', BARRIER_DIR: barrier, MARKER_FILE: marker }, parallel: true });
    const runner = await runnerWith({ hooks: { preToolUse: [party(1), party(2), party(3), party(4)] } });
    const d = await runner.run(bash('ls'));
    expect(d.results).toHaveLength(4);
    expect(ran(marker).sort()).toEqual(['s1 together', 's2 together', 's3 together', 's4 together']);
  });

  it('in a batch the first block in config order wins, and rewrites apply in config order', async () => {
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'slow-block', command: SLEEP, env: { SLEEP: '0.2', ANSWER: '{"decision":"block","reason":"slow one"}' }, parallel: true },
          { id: 'fast-block', command: REPLY.bash, env: { MODE: 'block-exit2' }, parallel: true },
        ],
      },
    });
    const d = await runner.run(bash('ls'));
    expect(d.decidedBy).toBe('slow-block');
    expect(d.reason).toBe('slow one');

    const rewrites = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'one', command: SLEEP, env: { SLEEP: '0.2', ANSWER: '{"decision":"modify","updatedInput":{"command":"first"}}' }, parallel: true },
          { id: 'two', command: REPLY.bash, env: { MODE: 'claude-rewrite' }, parallel: true },
        ],
      },
    });
    // Both judged the original; applied in config order, the later one's rewrite stands.
    expect((await rewrites.run(bash('ls'))).updatedInput).toEqual({ command: 'echo rewritten-by-bash' });
  });

  it('a sequential hook after a batch sees the batch rewrites', async () => {
    const runner = await runnerWith({
      hooks: {
        preToolUse: [
          { id: 'p1', command: REPLY.bash, env: { MODE: 'modify-input' }, parallel: true },
          { id: 'p2', command: REPLY.python, env: { MODE: 'continue' }, parallel: true },
          { id: 'seq', command: REPLY.node, env: { MODE: 'modify-input' } },
        ],
      },
    });
    expect((await runner.run(bash('x'))).updatedInput?.command).toBe('x --by-bash --by-node');
  });
});

describe('observe events', () => {
  it('run every matching hook concurrently, all run, all failures are reported', async () => {
    const marker = markerFile();
    // a and b each wait for the other: both say "together" only when they ran at the same time.
    const env = { PARTIES: '2', WAIT: '8', BARRIER_DIR: barrierDir(), MARKER_FILE: marker };
    const runner = await runnerWith({
      hooks: {
        sessionEnd: [
          { id: 'a', command: BARRIER, env: { ...env, NAME: 'a' } },
          { id: 'broken', command: REPLY.python, env: { MODE: 'exit1' } },
          { id: 'b', command: BARRIER, env: { ...env, NAME: 'b' } },
          { id: 'missing', command: './not/there.sh' },
        ],
      },
    });
    const d = await runner.run(event('sessionEnd', { reason: 'other' }));
    expect(ran(marker).sort()).toEqual(['a together', 'b together']);
    expect(d.warnings).toHaveLength(2);
    expect(d.warnings.join('\n')).toMatch(/"broken" failed \(exit-1[\s\S]*"missing" failed \(not-found/);
  });

  it('a stop hook block means "do not stop yet", with its reason as the next instruction', async () => {
    const runner = await runnerWith({
      hooks: { stop: [{ id: 'tests', command: REPLY.node, env: { MODE: 'claude-block' } }, { id: 'ok', command: REPLY.bash, env: { MODE: 'continue' } }] },
    });
    const d = await runner.run(event('stop', { stop_hook_active: false }));
    expect(d.decision).toBe('block');
    expect(d.reason).toBe('node blocks');
    expect(d.results).toHaveLength(2);
  });

  it('an answer the event cannot carry is ignored and said so', async () => {
    const runner = await runnerWith({ hooks: { sessionStart: [{ id: 'blocker', command: REPLY.bash, env: { MODE: 'block-json' } }] } });
    const d = await runner.run(event('sessionStart', { source: 'startup' }));
    expect(d.decision).toBe('continue');
    expect(d.warnings).toEqual(['hook "blocker" answered block, which sessionStart cannot do; ignored']);
  });
});

describe('selection', () => {
  it('match, if, enabled and HOOKS_SKIP decide which hooks run', async () => {
    const marker = markerFile();
    const m = (name: string, extra: Record<string, unknown>) => ({ id: name, command: MARKER, env: { NAME: name, MARKER_FILE: marker }, ...extra });
    const runner = await runnerWith(
      {
        hooks: {
          preToolUse: [
            m('exec-only', { match: 'exec' }),
            m('raw-name', { match: 'Bash' }),
            m('group', { match: 'group:fs' }),
            m('push-only', { if: { command: 'git push*' } }),
            m('off', { enabled: false }),
            m('skipped', {}),
            m('every', {}),
          ],
        },
      },
      { env: { HOOKS_SKIP: 'skipped, nothing' } },
    );
    await runner.run(bash('git push origin main'));
    expect(ran(marker)).toEqual(['exec-only', 'raw-name', 'push-only', 'every']);
    const plan = runner.plan(bash('ls'));
    expect(plan.filter((s) => !s.selected).map((s) => [s.hook.id, !s.selected && s.why])).toEqual([
      ['group', 'match: tool exec (Bash) is not group:fs'],
      ['push-only', 'if: command does not match "git push*"'],
      ['off', 'disabled (enabled: false)'],
      ['skipped', 'skipped by HOOKS_SKIP'],
    ]);
  });
});
