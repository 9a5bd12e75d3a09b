// Commands whose meaning is only known at run time, in places where that hides danger.
import { findExecCommands, findHasFilter, findRoots } from '../../shell/code-runners.js';
import { programName } from '../../shell/program.js';
import type { ShellWord, SimpleCommand } from '../../shell/types.js';
import { has, splitArgs } from '../args.js';
import type { Where } from '../context.js';
import type { Finding } from '../finding.js';
import { DANGEROUS_TREE, isDevice, worstClass } from '../paths.js';
import { isDecoder, runsCode, runsStdin } from '../streams.js';

/** Bash splits words on space, tab and newline only; these look like spaces but are not. */
const LOOKALIKE_SPACE = /[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]/;

export function unverifiableRule(cmd: SimpleCommand, _where?: Where): Finding | undefined {
  const [program] = cmd.words;
  if (program && LOOKALIKE_SPACE.test(program.value)) {
    return finding(cmd, 'the command name contains a character that looks like a space');
  }
  const target = unknownTarget(cmd);
  if (target) return target;
  if (program && cmd.dynamicProgram) {
    // `"${cmd[@]}"`, `"$@"`, `${!name}`: the program itself is hidden in a way that is not evaluated.
    if (program.opaque !== undefined && !cmd.runsFunctionArguments) return finding(cmd, `the program name ${program.opaque}`);
    // `$EDITOR file` is fine; `$X -rf /` is not, and neither is `eval "$X"`.
    const risky = cmd.words.slice(1).find((w) => DANGEROUS_TREE.has(worstClass(w, cmd.cwd).cls) || isDevice(w.value) || w.opaque !== undefined);
    if (risky) return finding(cmd, `program name ${program.value} is computed at run time, with argument ${risky.value}`);
    if (cmd.depth > 0 && program.unknownVars) return finding(cmd, `code comes from a variable (${program.value})`);
  }
  if (runsCode(cmd)) {
    // `eval "$(echo … | base64 -d)"`, `sh -c "$(xxd -r -p <<< …)"`, `bash < <(… | base64 -d)`.
    const words: ShellWord[] = [...cmd.codeWords, ...cmd.words.slice(1).filter((w) => w.processSubstitution)];
    for (const r of cmd.redirects) if (r.word && r.op.startsWith('<')) words.push(r.word);
    for (const word of words) {
      const source = word.subCommands.find((c) => isDecoder(c) || (isPrinter(c) && c.words.some((w) => w.unknownVars || w.unknownCommands)));
      if (source) return finding(cmd, `code for ${cmd.argv[0]} is produced at run time by ${source.argv[0]}`, [source]);
    }
    // `sh -c "$(tool)"`: a shell runs whatever the tool prints. `eval "$(pyenv init -)"` and
    // `source <(kubectl completion bash)` are how tools set up shells, so `eval` and `source` of a
    // setup generator pass; a shell's `-c` code from an arbitrary substitution does not.
    if (cmd.argv[0] !== 'eval' && cmd.argv[0] !== 'source' && cmd.argv[0] !== '.') {
      const hidden = cmd.codeWords.find((w) => w.unknownCommands && /^\s*"?\s*(\$\(|`)/.test(w.text) && !w.subCommands.some(isGenerator));
      if (hidden) return finding(cmd, `code for ${cmd.argv[0]} comes from the output of ${hidden.text}`, hidden.subCommands.slice(0, 1));
    }
  }
  if (runsStdin(cmd)) {
    const decoder = cmd.pipedFrom.find(isDecoder);
    if (decoder) return finding(cmd, `output of ${decoder.argv[0]} piped into ${cmd.argv[0]}`, [decoder]);
    const printer = cmd.pipedFrom.find((c) => isPrinter(c) && c.words.some((w) => w.unknownVars || w.unknownCommands));
    if (printer) return finding(cmd, `code built at run time piped into ${cmd.argv[0]}`, [printer]);
  }
  return undefined;
}

/**
 * A recursive delete of whatever a command prints (`rm -rf "$(tool)"`, `d=$(tool); rm -rf "$d"`,
 * `tool | xargs rm -r`, `find "$(tool)" -delete`): the output could be a home directory, and
 * nothing here can tell. Output known to stay inside the working directory (`find . -name x`,
 * `git ls-files`) passes, and so does a computed path with a known part (`"$(tool)/build"`).
 */
function unknownTarget(cmd: SimpleCommand): Finding | undefined {
  const why = 'whose output is not known and could be a home directory';
  if (cmd.argv[0] === 'rm') {
    const args = splitArgs(cmd);
    if (!has(args, 'rR', 'recursive')) return undefined;
    const word = args.operands.find((w) => w.output !== undefined && !w.output.confined);
    if (word) return finding(cmd, `recursive delete of ${outputOf(word)}, ${why}`);
    if (cmd.stdinArguments && !cmd.stdinOutput?.confined) {
      return finding(cmd, `recursive delete of the paths xargs reads from ${cmd.stdinOutput?.from ?? 'its input'}, ${why}`);
    }
    return undefined;
  }
  if (cmd.argv[0] === 'find' && !findHasFilter(cmd.argv)) {
    const deletes = cmd.argv.includes('-delete') || findExecCommands(cmd.words).some((c) => /^(rm|shred|unlink|srm)$/.test(programName(c[0]?.value ?? '')));
    const root = deletes ? findRoots(cmd.words).find((w) => w.output !== undefined && !w.output.confined) : undefined;
    if (root) return finding(cmd, `find deletes everything under ${outputOf(root)}, ${why}`);
  }
  return undefined;
}

function outputOf(word: ShellWord): string {
  const from = word.output!.from;
  return word.value === from ? `the output of ${from}` : `${word.value}, the output of ${from}`;
}

/** Tools that print shell setup code: `pyenv init -`, `brew shellenv`, `kubectl completion bash`. */
function isGenerator(cmd: SimpleCommand): boolean {
  return cmd.argv.slice(1).some((a) => /^(init|env|hook|shellenv|completions?|activate|docker-env|--alias|shell\.(bash|zsh)|-s)$/.test(a)) || /^(ssh-agent|gpg-agent|dircolors|keychain)$/.test(cmd.argv[0] ?? '');
}

function isPrinter(cmd: SimpleCommand): boolean {
  return cmd.argv[0] === 'echo' || cmd.argv[0] === 'printf' || (cmd.argv[0] === 'cat' && cmd.redirects.some((r) => r.body !== undefined && r.word !== undefined && !r.word.literal));
}


function finding(cmd: SimpleCommand, what: string, involved?: SimpleCommand[]): Finding {
  return { category: 'unverifiable', what: `could not be verified: ${what}`, command: cmd, ...(involved ? { involved } : {}) };
}
