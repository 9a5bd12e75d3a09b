// Deletes outside the project and the temp dirs (`rm -rf ../other`, `rm -rf ~/Documents`,
// `find /srv -name '*.log' -delete`), and deletes of the project itself (`rm -rf "$PWD"`).
// Judged against the event's cwd (tracked through `cd`) and the project root.
import { findExecCommands, findHasFilter, findRoots } from '../../shell/code-runners.js';
import { normalizePath } from '../../shell/paths.js';
import { programName } from '../../shell/program.js';
import type { ShellWord, SimpleCommand } from '../../shell/types.js';
import { has, splitArgs } from '../args.js';
import { type Where, below, canonical, within } from '../context.js';
import type { Finding } from '../finding.js';
import { DANGEROUS_TREE, worstClass } from '../paths.js';

/** Files whose loss breaks the system or the user's setup, even one at a time. */
const SYSTEM_PREFIX = /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|opt|srv|var\/lib|var\/spool|var\/mail|System|Library|Applications|private\/etc)(\/|$)/;
const TEMP_VARIABLE = /^\$\{?(TMPDIR|TMP|TEMP|RUNNER_TEMP|XDG_RUNTIME_DIR)\b/;

export function outsideProjectRule(cmd: SimpleCommand, where: Where): Finding | undefined {
  switch (cmd.argv[0]) {
    case 'rm':
    case 'unlink':
    case 'shred':
    case 'srm':
      return rm(cmd, where);
    case 'find':
      return find(cmd, where);
    default:
      return undefined;
  }
}

function rm(cmd: SimpleCommand, where: Where): Finding | undefined {
  const args = splitArgs(cmd, cmd.argv[0] === 'shred' ? { shortWithValue: 'nsx', longWithValue: ['iterations', 'size', 'random-source'] } : {});
  const recursive = cmd.argv[0] === 'rm' ? has(args, 'rR', 'recursive') : false;
  for (const word of args.operands) {
    const finding = judgeTarget(cmd, word, where, recursive);
    if (finding) return finding;
  }
  return undefined;
}

function find(cmd: SimpleCommand, where: Where): Finding | undefined {
  const deletes = cmd.argv.includes('-delete')
    || findExecCommands(cmd.words).some((c) => /^(rm|shred|unlink|srm)$/.test(programName(c[0]?.value ?? '')));
  if (!deletes) return undefined;
  const unfiltered = !findHasFilter(cmd.argv);
  for (const root of findRoots(cmd.words)) {
    // An unfiltered `find ~ -exec rm -rf {} +` is `rm -rf ~`, judged as such by filesystem-destruction.
    if (unfiltered && DANGEROUS_TREE.has(worstClass(root, cmd.cwd).cls)) continue;
    const finding = judgeTarget(cmd, root, where, true, !unfiltered);
    if (finding) return { ...finding, what: `find deleting under ${finding.what.replace(/^recursive delete of /, '')}` };
  }
  return undefined;
}

/** Whether deleting `word` (recursively or not) leaves the project and the temp dirs. */
function judgeTarget(cmd: SimpleCommand, word: ShellWord, where: Where, recursive: boolean, searchRoot = false): Finding | undefined {
  if (recursive && word.opaque !== undefined) {
    return { category: 'unverifiable', what: `could not be verified: delete target ${word.opaque}`, command: cmd };
  }
  const value = knownPrefix(word);
  if (value === undefined || value === '' || value === '.' || value === './') return undefined;
  const cwd = cmd.cwd ?? where.cwd;
  const path = canonical(normalizePath(value, cwd), where.home);
  if (!path.startsWith('/') && !path.startsWith('~')) {
    // Relative to an unknown directory: inside it, unless it climbs out.
    // `..cache` is a name inside it; only `..` itself or `../…` climbs out.
    if (path !== '..' && !path.startsWith('../')) return undefined;
    if (where.project === undefined && cwd === undefined) {
      return recursive ? finding(cmd, 'delete-outside-project', `recursive delete of ${path} (outside the working directory)`) : undefined;
    }
  }
  if (recursive && where.project !== undefined && within(where.project, path)) {
    return finding(cmd, 'delete-project-root', `recursive delete of ${path} (${path === where.project ? 'the project itself' : 'a directory holding the project'})`);
  }
  // A filtered `find /tmp -name x -delete` searches /tmp; it does not delete /tmp itself.
  if (where.scratch.some((d) => (searchRoot ? within(path, d) : below(path, d))) || where.scratchRoots.some((d) => within(path, d))) return undefined;
  if (where.project !== undefined && below(path, where.project)) return undefined;
  if (!recursive && !serious(path, word)) return undefined;
  const outside = where.project === undefined ? 'outside any known project' : `outside the project ${where.project}`;
  return finding(cmd, 'delete-outside-project', `${recursive ? 'recursive delete' : 'delete'} of ${path} (${outside})`);
}

/** One file outside the project is only a finding when it is a system file, a dotfile or a glob. */
function serious(path: string, word: ShellWord): boolean {
  if (SYSTEM_PREFIX.test(path)) return true;
  if (/^~\/\./.test(path)) return true;
  return word.glob === true || /[*?]/.test(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * The part of the word that is known: the whole value when literal, else the text before the
 * first expansion when that already fixes the directory (`/data/$X` is under `/data`). Temp-dir
 * variables (`$TMPDIR/x`) count as temp.
 */
function knownPrefix(word: ShellWord): string | undefined {
  if (word.literal) return word.value;
  if (TEMP_VARIABLE.test(word.value)) return undefined;
  const cut = word.value.search(/[$`]/);
  if (cut <= 0) return undefined;
  return word.value.slice(0, cut).includes('/') ? word.value : undefined;
}

function finding(cmd: SimpleCommand, rule: 'delete-outside-project' | 'delete-project-root', what: string): Finding {
  return { category: 'delete-outside-project', rule, what, command: cmd };
}
