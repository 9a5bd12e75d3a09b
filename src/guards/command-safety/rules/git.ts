// Git commands that destroy uncommitted work (reset --hard, clean -f, checkout -- ., restore,
// stash drop) or shared history (push --force, push --delete, filter-branch, reflog expire).
// Each is a named rule that options can relax on its own.
import { normalizePath } from '../../shell/paths.js';
import type { SimpleCommand } from '../../shell/types.js';
import { longMatches, type ParsedOption } from '../../shell/options.js';
import { has, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';
import type { RuleId } from '../options.js';

const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds', '--attr-source']);

export interface GitInvocation {
  sub: string;
  /** Index of the subcommand in argv. */
  at: number;
}

/** `git [global options] <subcommand> …`: where the subcommand is. */
export function gitInvocation(cmd: SimpleCommand): GitInvocation | undefined {
  if (cmd.argv[0] !== 'git') return undefined;
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) return { sub: arg, at: i };
    const name = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (GLOBAL_WITH_VALUE.has(name) && name === arg) i += 1;
  }
  return undefined;
}

export function gitRule(cmd: SimpleCommand): Finding | undefined {
  if (cmd.argv[0] === 'rm') return gitMetadataDelete(cmd);
  if (cmd.argv[0] === 'find') return gitMetadataFind(cmd);
  if (cmd.argv[0] === 'gh' && cmd.argv[1] === 'repo' && cmd.argv[2] === 'delete') {
    return finding(cmd, 'git-repository-delete', 'gh repo delete deletes the repository on GitHub');
  }
  const git = gitInvocation(cmd);
  if (!git) return undefined;
  const from = git.at + 1;
  const rest = cmd.argv.slice(from);
  switch (git.sub) {
    case 'reset': {
      const args = splitArgs(cmd, {}, from);
      // git takes any unambiguous prefix of a long option: `--ha` is `--hard` (`--h` could be `--help`).
      if (args.options.some((o) => o.long && o.name.length >= 2 && 'hard'.startsWith(o.name))) return finding(cmd, 'git-reset-hard', 'git reset --hard discards uncommitted changes');
      return undefined;
    }
    case 'push':
      return push(cmd, from);
    case 'clean': {
      const args = splitArgs(cmd, { shortWithValue: 'e', longWithValue: ['exclude'] }, from);
      if (has(args, 'n', 'dry-run') || has(args, 'i', 'interactive')) return undefined;
      if (!has(args, 'f', 'force')) return undefined;
      // `-X` alone removes only ignored files (build output): that is what it is for.
      if (has(args, 'X') && !has(args, 'x')) return undefined;
      return finding(cmd, 'git-clean', `git clean ${rest.filter((a) => a.startsWith('-')).join(' ')} deletes untracked files`);
    }
    case 'checkout':
      return checkout(cmd, from);
    case 'switch': {
      const args = splitArgs(cmd, { shortWithValue: 'cC', longWithValue: ['create', 'force-create', 'orphan'] }, from);
      return has(args, 'f', 'force', 'discard-changes')
        ? finding(cmd, 'git-discard-changes', 'git switch --discard-changes throws away uncommitted changes')
        : undefined;
    }
    case 'restore': {
      const args = splitArgs(cmd, { shortWithValue: 's', longWithValue: ['source', 'pathspec-from-file'] }, from);
      // Help and version print and exit; `--no-worktree` (when it comes last) leaves the files alone.
      if (has(args, 'h', 'help', 'version')) return undefined;
      // git takes an unambiguous prefix of a long option (`--work` is `--worktree`, `--no-w` is
      // `--no-worktree`), and of `--worktree`/`--no-worktree` and `--staged`/`--no-staged` the last one wins.
      const isNoWorktree = (o: ParsedOption): boolean => o.long && longMatches(o.name, 'no-worktree', 'no-w'.length);
      const isWorktree = (o: ParsedOption): boolean => (o.long ? longMatches(o.name, 'worktree', 1) : o.name === 'W');
      const isNoStaged = (o: ParsedOption): boolean => o.long && longMatches(o.name, 'no-staged', 'no-st'.length);
      const isStaged = (o: ParsedOption): boolean => (o.long ? longMatches(o.name, 'staged', 'st'.length) : o.name === 'S');
      const lastWorktree = args.options.findLast((o) => isWorktree(o) || isNoWorktree(o));
      if (lastWorktree !== undefined && isNoWorktree(lastWorktree)) return undefined;
      const worktree = lastWorktree !== undefined;
      const lastStaged = args.options.findLast((o) => isStaged(o) || isNoStaged(o));
      const staged = lastStaged !== undefined && isStaged(lastStaged);
      if (staged && !worktree) return undefined;
      if (has(args, 'p', 'patch')) return undefined;
      if (args.operands.length === 0 && !has(args, '', 'pathspec-from-file')) return undefined;
      return finding(cmd, 'git-discard-changes', `git restore ${args.operands.map((w) => w.value).join(' ')} overwrites uncommitted changes`);
    }
    case 'branch': {
      const args = splitArgs(cmd, {}, from);
      const del = has(args, 'dD', 'delete');
      if (has(args, 'D') || (del && has(args, 'f', 'force'))) return finding(cmd, 'git-branch-force-delete', 'git branch -D deletes a branch even if it is not merged');
      return undefined;
    }
    case 'stash': {
      const action = rest.find((a) => !a.startsWith('-'));
      if (action === 'clear') return finding(cmd, 'git-stash-drop', 'git stash clear deletes every stash');
      if (action === 'drop') return finding(cmd, 'git-stash-drop', 'git stash drop deletes a stash');
      return undefined;
    }
    case 'filter-branch':
    case 'filter-repo':
      return finding(cmd, 'git-history-rewrite', `git ${git.sub} rewrites the whole history`);
    case 'reflog': {
      const action = rest.find((a) => !a.startsWith('-'));
      return action === 'expire' || action === 'delete'
        ? finding(cmd, 'git-reflog-expire', `git reflog ${action} removes the record that recovers lost commits`)
        : undefined;
    }
    case 'update-ref':
      return rest.includes('-d') || rest.includes('--delete') ? finding(cmd, 'git-reflog-expire', 'git update-ref -d deletes a ref') : undefined;
    case 'rm': {
      const args = splitArgs(cmd, {}, from);
      if (has(args, '', 'cached') || has(args, 'n', 'dry-run')) return undefined;
      return has(args, 'f', 'force') ? finding(cmd, 'git-rm-force', 'git rm -f deletes files with uncommitted changes') : undefined;
    }
    case 'worktree': {
      const action = rest.find((a) => !a.startsWith('-'));
      const args = splitArgs(cmd, {}, from);
      return action === 'remove' && has(args, 'f', 'force')
        ? finding(cmd, 'git-worktree-force-remove', 'git worktree remove --force deletes a worktree with uncommitted changes')
        : undefined;
    }
    default:
      return undefined;
  }
}

function push(cmd: SimpleCommand, from: number): Finding | undefined {
  const args = splitArgs(cmd, { shortWithValue: 'o', longWithValue: ['repo', 'receive-pack', 'exec', 'push-option', 'recurse-submodules'] }, from);
  const lease = args.options.some((o) => o.long && longMatches(o.name, 'force-with-lease', 'force-w'.length));
  if (has(args, '', 'mirror')) return finding(cmd, 'git-push-force', 'git push --mirror overwrites and deletes remote refs');
  if (has(args, 'd', 'delete')) return finding(cmd, 'git-push-delete', 'git push --delete deletes a remote branch');
  if (has(args, '', 'prune')) return finding(cmd, 'git-push-delete', 'git push --prune deletes remote branches');
  const refspecs = args.operands.slice(1).map((w) => w.value);
  if (refspecs.some((r) => r.startsWith(':') && r.length > 1)) return finding(cmd, 'git-push-delete', 'git push origin :branch deletes a remote branch');
  if (lease) return undefined;
  const force = args.options.some((o) => (o.long ? o.name === 'force' || (o.name.length >= 3 && 'force'.startsWith(o.name)) : o.name === 'f'));
  if (force) return finding(cmd, 'git-push-force', 'git push --force overwrites remote history (use --force-with-lease)');
  const plus = refspecs.find((r) => r.startsWith('+'));
  if (plus) return finding(cmd, 'git-push-force', `git push ${plus} force-pushes (use --force-with-lease)`);
  return undefined;
}

/** `git checkout` long options that take no value. */
const CHECKOUT_FLAGS = new Set(['quiet', 'no-quiet', 'force', 'merge', 'detach', 'guess', 'no-guess', 'progress', 'no-progress', 'overwrite-ignore', 'no-overwrite-ignore', 'ignore-other-worktrees', 'ignore-skip-worktree-bits', 'no-track', 'no-recurse-submodules', 'overlay', 'no-overlay', 'ours', 'theirs']);

function checkout(cmd: SimpleCommand, from: number): Finding | undefined {
  const args = splitArgs(cmd, { shortWithValue: 'bB', longWithValue: ['orphan', 'conflict', 'pathspec-from-file'] }, from);
  if (has(args, 'h', 'help')) return undefined;
  if (has(args, 'f', 'force')) return finding(cmd, 'git-discard-changes', 'git checkout --force throws away uncommitted changes');
  if (has(args, 'bB', 'orphan') || has(args, 'p', 'patch')) return undefined;
  if (has(args, '', 'ours', 'theirs')) return undefined;
  if (has(args, '', 'pathspec-from-file')) return finding(cmd, 'git-discard-changes', 'git checkout --pathspec-from-file overwrites the files it lists');
  // `git checkout <tree-ish> <path>…`: only one branch can be checked out, so a second operand is a path.
  // A word after an unknown long option (`--unified 3`) may be its value: only sure operands count.
  const sure = cmd.argv.slice(from).filter((a, i, rest) => !a.startsWith('-') && !(i > 0 && /^--[^=]+$/.test(rest[i - 1]!) && !CHECKOUT_FLAGS.has(rest[i - 1]!.slice(2))));
  if (sure.length >= 2 && args.operands.length >= 2 && !cmd.argv.includes('--')) {
    return finding(cmd, 'git-discard-changes', `git checkout ${args.operands.map((w) => w.value).join(' ')} overwrites uncommitted changes`);
  }
  const dashDash = cmd.argv.indexOf('--', from);
  if (dashDash !== -1 && dashDash < cmd.argv.length - 1) {
    return finding(cmd, 'git-discard-changes', `git checkout -- ${cmd.argv.slice(dashDash + 1).join(' ')} overwrites uncommitted changes`);
  }
  // Without `--` a name is a branch unless it can only be a path: `.`, `*`, `:/`, `./x`.
  const path = args.operands.find((w) => /^(\.|\.\/.*|\.\.(\/.*)?|\*.*|:\/.*|:\(.*)$/.test(w.value) || w.glob === true);
  return path ? finding(cmd, 'git-discard-changes', `git checkout ${path.value} overwrites uncommitted changes`) : undefined;
}

/** `rm -rf .git`: the repository's history and every unpushed commit. */
function gitMetadataDelete(cmd: SimpleCommand): Finding | undefined {
  const args = splitArgs(cmd);
  if (!has(args, 'rR', 'recursive')) return undefined;
  const target = args.operands.find((w) => /(^|\/)\.git$/.test(normalizePath(w.value)));
  return target ? finding(cmd, 'git-repository-delete', `recursive delete of ${target.value} (the repository's history)`) : undefined;
}

/** `find . -name .git -exec rm -rf {} +`, `find . -name .git -delete`: every repository below. */
function gitMetadataFind(cmd: SimpleCommand): Finding | undefined {
  const argv = cmd.argv;
  const named = argv.some((a, i) => /^-i?(name|path|wholename)$/.test(a) && /(^|\/|\*)\.git$/.test(argv[i + 1] ?? ''));
  if (!named) return undefined;
  const deletes = argv.includes('-delete') || argv.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && /^(rm|shred)$/.test(argv[i + 1]?.replace(/^.*\//, '') ?? ''));
  return deletes ? finding(cmd, 'git-repository-delete', 'find deletes .git directories (the repositories\' history)') : undefined;
}

function finding(cmd: SimpleCommand, rule: RuleId, what: string): Finding {
  return { category: 'git-destruction', rule, what, command: cmd };
}
