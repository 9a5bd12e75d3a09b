// Misses and false positives that cc-safety-net's own suite found (issue 27 item 5).
import { describe, expect, it } from 'vitest';
import { judgeCommand, type JudgeContext } from '../../src/guards/command-safety.js';

const BASE: JudgeContext = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };

describe('command-safety: issue 27 git and awk cases', () => {
  it.each([
    ['git checkout HEAD file.txt', 'git-discard-changes'],
    ['git checkout main a.txt b.txt', 'git-discard-changes'],
    ['git checkout -q main file.txt', 'git-discard-changes'],
    ['git checkout --guess main file.txt', 'git-discard-changes'],
    ['git checkout HEAD --pathspec-from-file=paths.txt', 'git-discard-changes'],
    ['git checkout -f -b new-branch', 'git-discard-changes'],
    ['git reset --ha HEAD~1', 'git-reset-hard'],
    ["nawk 'BEGIN { system(\"git reset --hard\") }'", 'git-reset-hard'],
  ])('%j is blocked (%s)', (command, rule) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', rule });
  });

  it.each([
    'git restore file.txt --help',
    'git restore -h',
    'git restore file.txt --version',
    'git restore --no-worktree file.txt',
    'git restore -W --no-worktree file.txt',
    'git checkout --unified 3 main',
    'git checkout --track direct main',
    'git checkout feature/x',
    'git checkout -b feature/x origin/main',
    'git checkout -B feature/x main',
    'git reset --soft HEAD~1',
    'git reset --h',
  ])('%j passes', (command) => {
    expect(judgeCommand(command, {}, BASE)).toEqual({ verdict: 'allow' });
  });

  it('still blocks restoring the working tree', () => {
    expect(judgeCommand('git restore --no-worktree -W file.txt', {}, BASE)).toMatchObject({ verdict: 'block', rule: 'git-discard-changes' });
    expect(judgeCommand('git restore --no-staged file.txt', {}, BASE)).toMatchObject({ verdict: 'block', rule: 'git-discard-changes' });
  });
});

// Hostile review F7: the git restore exemptions (help, --no-worktree) against git's own option reading.
describe('command-safety: git restore that discards work (review)', () => {
  it.each([
    // After `--` every word is a pathspec: `--help` / `-h` here are file names, and the restore runs.
    'git restore -- src/app.ts --help',
    'git restore -- src/app.ts -h',
    // git takes an unambiguous prefix of a long option: `--work` is `--worktree` (as `--ha` is `--hard`).
    'git restore --staged --work src/app.ts',
    'git restore --staged --worktr src/app.ts',
    'git restore --staged -W src/app.ts',
    // `--no-worktree` followed by the prefix of `--worktree`: the last one wins in git.
    'git restore --no-worktree --work src/app.ts',
    // `--no-staged` last: the work tree is restored.
    'git restore --staged --no-staged src/app.ts',
  ])('%j is blocked', (command) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', rule: 'git-discard-changes' });
  });

  it.each(['git restore --staged src/app.ts', 'git restore --sta src/app.ts', 'git restore --work --no-work src/app.ts', 'git restore --worktree --no-w --staged src/app.ts', 'git restore --help'])(
    '%j leaves the work tree alone',
    (command) => {
      expect(judgeCommand(command, {}, BASE).verdict).toBe('allow');
    },
  );
});
