// Hostile review (issue 27 item 5): the new git restore exemptions (help, --no-worktree) and the
// option-prefix handling added for reset but not for restore. Commands are data for the judge only.
import { describe, expect, it } from 'vitest';
import { judgeCommand, type JudgeContext } from '../../src/guards/command-safety.js';

const BASE: JudgeContext = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };

describe('review: git restore that discards work', () => {
  it.each([
    // After `--` every word is a pathspec: `--help` / `-h` here are file names, and the restore runs.
    'git restore -- src/app.ts --help',
    'git restore -- src/app.ts -h',
    // git takes an unambiguous prefix of a long option: `--work` is `--worktree` (as `--ha` is `--hard`).
    'git restore --staged --work src/app.ts',
    'git restore --staged --worktr src/app.ts',
    // `--no-worktree` followed by the prefix of `--worktree`: the last one wins in git.
    'git restore --no-worktree --work src/app.ts',
  ])('%j is blocked', (command) => {
    expect(judgeCommand(command, {}, BASE)).toMatchObject({ verdict: 'block', rule: 'git-discard-changes' });
  });
});
