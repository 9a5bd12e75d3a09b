// Recursive deletes and moves of the root, a home or a system directory.
import { findExecCommands, findHasFilter, findRoots } from '../../shell/code-runners.js';
import { programName } from '../../shell/program.js';
import type { ShellWord, SimpleCommand } from '../../shell/types.js';
import { has, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';
import { DANGEROUS_TREE, describeClass, worstClass } from '../paths.js';

export function filesystemRule(cmd: SimpleCommand): Finding | undefined {
  switch (cmd.argv[0]) {
    case 'rm':
      return rm(cmd);
    case 'find':
      return findDelete(cmd);
    case 'mv':
      return mv(cmd);
    case 'rsync':
      return rsyncDelete(cmd);
    default:
      return undefined;
  }
}

function rm(cmd: SimpleCommand): Finding | undefined {
  const args = splitArgs(cmd);
  const recursive = has(args, 'rR', 'recursive');
  if (has(args, '', 'no-preserve-root')) {
    return { category: 'filesystem-destruction', what: 'rm with --no-preserve-root', command: cmd };
  }
  for (const word of args.operands) {
    const { cls, path } = worstClass(word, cmd.cwd);
    if (recursive && DANGEROUS_TREE.has(cls)) {
      return { category: 'filesystem-destruction', what: `recursive delete of ${path} (${describeClass(cls)})`, command: cmd };
    }
    if (!recursive && (cls === 'root-glob' || cls === 'home-glob')) {
      return { category: 'filesystem-destruction', what: `delete of ${path} (${describeClass(cls)})`, command: cmd };
    }
  }
  if (recursive && cmd.stdinArguments) {
    const source = cmd.pipedFrom.find((c) => listedTree(c) !== undefined);
    if (source) {
      return {
        category: 'filesystem-destruction',
        what: `recursive delete of paths listed by ${source.argv[0]} ${listedTree(source)}`,
        command: cmd,
        involved: [source],
      };
    }
  }
  return undefined;
}

/** `find /`, `ls ~`, `echo /*`, `fd . /`: a listing of a dangerous tree, fed to `xargs rm -r`. */
function listedTree(cmd: SimpleCommand): string | undefined {
  if (cmd.argv[0] === 'find') return dangerousFind(cmd);
  if (!/^(ls|echo|printf|fd|fdfind|locate|tree|du|realpath|readlink)$/.test(cmd.argv[0] ?? '')) return undefined;
  for (const word of cmd.words.slice(1)) {
    const { cls, path } = worstClass(word, cmd.cwd);
    if (DANGEROUS_TREE.has(cls)) return path;
  }
  return undefined;
}

/** The dangerous start directory of an unfiltered `find`, if it has one. */
function dangerousFind(cmd: SimpleCommand): string | undefined {
  if (findHasFilter(cmd.argv)) return undefined;
  for (const root of findRoots(cmd.words)) {
    const { cls, path } = worstClass(root, cmd.cwd);
    if (DANGEROUS_TREE.has(cls)) return path;
  }
  return undefined;
}

function findDelete(cmd: SimpleCommand): Finding | undefined {
  const execRm = findExecCommands(cmd.words).find((c) => /^(rm|shred|unlink|srm)$/.test(programName(c[0]?.value ?? '')));
  if (!cmd.argv.includes('-delete') && !execRm) return undefined;
  const root = dangerousFind(cmd);
  if (root === undefined) return undefined;
  const how = cmd.argv.includes('-delete') ? 'find -delete' : `find -exec ${programName(execRm![0]!.value)}`;
  return { category: 'filesystem-destruction', what: `${how} over ${root}`, command: cmd };
}

function mv(cmd: SimpleCommand): Finding | undefined {
  const args = splitArgs(cmd, { shortWithValue: 'tS', longWithValue: ['target-directory', 'suffix'] });
  const sources: ShellWord[] = has(args, 't', 'target-directory') ? args.operands : args.operands.slice(0, -1);
  for (const word of sources) {
    const { cls, path } = worstClass(word, cmd.cwd);
    if (DANGEROUS_TREE.has(cls) && cls !== 'parent') {
      return { category: 'filesystem-destruction', what: `move of ${path} (${describeClass(cls)})`, command: cmd };
    }
  }
  return undefined;
}

function rsyncDelete(cmd: SimpleCommand): Finding | undefined {
  const args = splitArgs(cmd, { shortWithValue: 'eBfT', longWithValue: ['rsh', 'exclude', 'include', 'filter', 'rsync-path'] });
  if (!args.options.some((o) => o.long && o.name.startsWith('del'))) return undefined;
  const destination = args.operands[args.operands.length - 1];
  if (!destination) return undefined;
  const { cls, path } = worstClass(destination, cmd.cwd);
  if (cls === 'root' || cls === 'home' || cls === 'system') {
    return { category: 'filesystem-destruction', what: `rsync --delete into ${path} (${describeClass(cls)})`, command: cmd };
  }
  return undefined;
}
