// Commands that run a string as shell code, and `find -exec`, which runs a command per file.
import { interpreterShellCode } from './interpreter-code.js';
import { isInterpreter, programName, isShell } from './program.js';
import type { ShellWord, SimpleCommand } from './types.js';
import { literalWord, staticPrint } from './word-value.js';
import { readOptions } from './options.js';

export interface CodeRun {
  /** How the code is run, for the wrapper list (`bash -c`, `eval`). */
  runner: string;
  /** The words that hold the code. */
  words: ShellWord[];
  /** `$0`, `$1`, … of `sh -c 'code' a0 a1`. */
  positional?: ShellWord[];
  /** The code strings, given the stage piped into the command (for `echo … | sh`). */
  bodies(previousStage: SimpleCommand[]): string[];
}

/** How `command` runs shell code, if it does. `splitString` is `env -S`'s argument. */
export function codeOf(command: SimpleCommand, splitString: string | undefined): CodeRun | undefined {
  const [program] = command.argv;
  const words = command.words;
  if (splitString !== undefined) {
    const rest = words.map((w) => w.value).join(' ');
    return { runner: 'env -S', words: [literalWord(splitString), ...words], bodies: () => [`${splitString} ${rest}`] };
  }
  if (program === undefined || command.dynamicProgram) return undefined;
  if (isShell(program)) return shellCode(command);
  if (isInterpreter(program) || program === 'awk' || program === 'gawk' || program === 'mawk' || program === 'nawk' || program === 'emacs') return inlineCode(command, program);
  switch (program) {
    case 'trap': {
      // `trap 'cmd' EXIT` runs cmd later, in this shell.
      const args = command.argv.slice(1);
      if (args[0] === '--') args.shift();
      const code = args[0];
      if (code === undefined || code.startsWith('-') || args.length < 2) return undefined;
      return { runner: 'trap', words: words.slice(1, 2), bodies: () => [code] };
    }
    case 'at':
    case 'batch': {
      const parsed = readOptions(command.argv, 1, { shortWithValue: 'qftT' });
      if (parsed.options.some((o) => 'flrdcV'.includes(o.name) && !o.long)) return undefined;
      return { runner: program, words: stdinWords(command), bodies: (previous) => stdinBodies(command, previous) };
    }
    case 'crontab': {
      const parsed = readOptions(command.argv, 1, { shortWithValue: 'u' });
      if (parsed.options.some((o) => 'lreiT'.includes(o.name))) return undefined;
      const file = command.argv[parsed.next];
      if (file !== undefined && file !== '-') return undefined;
      return { runner: 'crontab', words: stdinWords(command), bodies: (previous) => stdinBodies(command, previous).flatMap(cronCommands) };
    }
    case 'alias': {
      // Aliases run later under their name; their bodies are judged where they are defined.
      const bodies = words.slice(1).map((w) => w.value).filter((v) => v.includes('=')).map((v) => v.slice(v.indexOf('=') + 1));
      return bodies.length > 0 ? { runner: 'alias', words: words.slice(1), bodies: () => bodies } : undefined;
    }
    case 'git': {
      // `git -c alias.x='!cmd' x` runs cmd through the shell.
      const bodies: string[] = [];
      command.argv.forEach((a, i) => {
        const value = a === '-c' ? command.argv[i + 1] ?? '' : '';
        const m = /^alias\.[^=]+=\s*!([\s\S]*)$/i.exec(value);
        if (m) bodies.push(m[1]!);
      });
      return bodies.length > 0 ? { runner: 'git alias', words: [], bodies: () => bodies } : undefined;
    }
    case 'eval':
      return joined('eval', words.slice(1));
    case 'su':
    case 'runuser': {
      const parsed = readOptions(command.argv, 1, { shortWithValue: 'cgGswC', longWithValue: ['command', 'group', 'supp-group', 'shell', 'session-command', 'whitelist-environment'] });
      const c = parsed.options.find((o) => o.name === 'c' || o.name === 'command' || o.name === 'session-command');
      if (c?.value === undefined) return undefined;
      const word = words.find((w) => w.value === c.value || w.value.endsWith(`=${c.value}`)) ?? literalWord(c.value);
      return { runner: `${program} -c`, words: [word], bodies: () => [c.value!] };
    }
    case 'ssh': {
      const parsed = readOptions(command.argv, 1, { shortWithValue: 'BbcDEeFIiJLlmOopQRSWw' });
      const remote = words.slice(parsed.next + 1);
      return remote.length > 0 ? joined('ssh', remote) : undefined;
    }
    case 'watch': {
      const parsed = readOptions(command.argv, 1, { shortWithValue: 'nq', longWithValue: ['interval'] });
      const rest = words.slice(parsed.next);
      return rest.length > 0 ? joined('watch', rest) : undefined;
    }
    default:
      return undefined;
  }
}

/** `python -c`, `perl -e`, `node -e`, `awk '…'`: their shell-outs and recursive deletes. */
function inlineCode(command: SimpleCommand, program: string): CodeRun | undefined {
  const codes: string[] = [];
  let fromStdin = false;
  if (program === 'emacs') {
    command.argv.forEach((a, i) => {
      if ((a === '--eval' || a === '-eval') && command.argv[i + 1] !== undefined) codes.push(command.argv[i + 1]!);
      else if (a.startsWith('--eval=')) codes.push(a.slice(7));
    });
  } else if (program.endsWith('awk')) {
    const first = command.argv.slice(1).find((a) => !a.startsWith('-'));
    if (first !== undefined) codes.push(first);
  } else {
    command.argv.forEach((a, i) => {
      if (i > 0 && /^-[a-zA-Z]*[ceErp]$|^--(eval|print)$/.test(a) && command.argv[i + 1] !== undefined) codes.push(command.argv[i + 1]!);
    });
    // `python3 - <<EOF`, `echo code | node`, `python3 <(…)`: the program comes from stdin or a pipe.
    fromStdin = codes.length === 0 && readsProgramFromStdin(command);
  }
  if (!fromStdin) {
    const bodies = codes.flatMap((c) => interpreterShellCode(program, c));
    return bodies.length > 0 ? { runner: `${program} -c`, words: [], bodies: () => bodies } : undefined;
  }
  return {
    runner: `${program} (stdin)`,
    words: stdinWords(command),
    bodies: (previous) => stdinBodies(command, previous).flatMap((c) => interpreterShellCode(program, c)),
  };
}

/** No script operand, or `-`, `/dev/stdin`, or a process substitution as the script. */
function readsProgramFromStdin(command: SimpleCommand): boolean {
  for (let i = 1; i < command.words.length; i += 1) {
    const word = command.words[i]!;
    const arg = word.value;
    if (arg === '-' || arg === '/dev/stdin' || word.processSubstitution) return true;
    if (/^-[WXQmI]$/.test(arg)) {
      if (arg === '-m') return false;
      i += 1;
      continue;
    }
    if (!arg.startsWith('-')) return false;
  }
  return true;
}

/** Words that feed stdin: here-strings, heredocs and `< <(…)`. */
function stdinWords(command: SimpleCommand): ShellWord[] {
  return command.redirects.flatMap((r) => (r.word && r.op.startsWith('<') ? [r.word] : []));
}

/**
 * The text a command reads on stdin, where it is known: heredoc and here-string bodies, the
 * static output of the stage piped in (`echo`, `printf`, `cat <<EOF`), and the static output of
 * a process substitution used as input or as the script (`sh < <(echo …)`, `bash <(echo …)`).
 */
export function stdinBodies(command: SimpleCommand, previous: SimpleCommand[]): string[] {
  const bodies = command.redirects.filter((r) => r.body !== undefined && r.op.startsWith('<<')).map((r) => r.body!);
  const piped = previous.length === 1 ? staticStdout(previous[0]!) : undefined;
  if (piped !== undefined) bodies.push(piped);
  const substituted = [
    ...command.redirects.filter((r) => r.op === '<' && r.word?.processSubstitution).map((r) => r.word!),
    ...command.words.slice(1).filter((w) => w.processSubstitution),
  ];
  for (const word of substituted) {
    const last = word.subCommands.filter((c) => c.pipedTo.length === 0);
    for (const c of last) {
      const out = staticStdout(c);
      if (out !== undefined) bodies.push(out);
    }
  }
  return bodies;
}

/** What a command with literal words prints: `echo`, `printf`, `cat` of a heredoc or here-string. */
export function staticStdout(command: SimpleCommand): string | undefined {
  if (!command.words.every((w) => w.literal)) return undefined;
  const printed = staticPrint(command.argv);
  if (printed !== undefined) return printed;
  if (command.argv[0] === 'cat' && (command.argv.length === 1 || (command.argv.length === 2 && command.argv[1] === '-'))) {
    const input = command.redirects.find((r) => r.body !== undefined && r.op.startsWith('<<') && (r.word === undefined || r.word.literal));
    return input?.body;
  }
  return undefined;
}

/** The commands of crontab lines: five time fields (or `@reboot`-style) and then the command. */
function cronCommands(table: string): string[] {
  const out: string[] = [];
  for (const line of table.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(trimmed)) continue;
    const fields = trimmed.split(/\s+/);
    const skip = trimmed.startsWith('@') ? 1 : 5;
    if (fields.length > skip) out.push(fields.slice(skip).join(' '));
  }
  return out;
}

function joined(runner: string, words: ShellWord[]): CodeRun {
  return { runner, words, bodies: () => [words.map((w) => w.value).join(' ')] };
}

/** `bash -lc 'code' a0 a1`, `sh -s < file`, `sh <<EOF`, `bash <<< 'code'`, `echo code | sh`. */
function shellCode(command: SimpleCommand): CodeRun | undefined {
  const args = command.argv;
  let withC = false;
  let i = 1;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') {
      i += 1;
      break;
    }
    if (!/^[-+]./.test(arg)) break;
    if (arg.startsWith('--')) {
      i += arg === '--rcfile' || arg === '--init-file' ? 2 : 1;
      continue;
    }
    const letters = arg.slice(1);
    if (letters.includes('c')) withC = true;
    i += /[oO]/.test(letters) ? 2 : 1;
  }
  const runner = `${programName(args[0] ?? 'sh')} -c`;
  if (withC) {
    const code = command.words[i];
    if (!code) return undefined;
    return { runner, words: [code], positional: command.words.slice(i + 1), bodies: () => [code.value] };
  }
  const script = command.words[i];
  if (i < args.length && !args.slice(1).includes('-s') && !script?.processSubstitution) return undefined;
  return {
    runner: `${programName(args[0] ?? 'sh')} (stdin)`,
    words: stdinWords(command),
    bodies: (previous) => stdinBodies(command, previous),
  };
}

const FILTERS = /^-(i?name|i?path|i?wholename|i?regex|i?lname|newer.*|[acm](time|min)|size|empty|user|uid|group|gid|nouser|nogroup|inum|samefile|links|perm|used|fstype|context)$/;

/** True when `find` narrows what it matches, so `{}` is not simply the start directories. */
export function findHasFilter(argv: readonly string[]): boolean {
  // `-name '*'` matches everything, so it narrows nothing.
  return argv.some((a, i) => FILTERS.test(a) && !(/^-i?(name|path|wholename)$/.test(a) && /^(\*|\.?\*|\*\*?\/?\*?)$/.test(argv[i + 1] ?? '')));
}

/** The start directories of a `find` command. */
export function findRoots(words: readonly ShellWord[]): ShellWord[] {
  let i = 1;
  while (i < words.length && /^-([HLP]|O\d*|D)$/.test(words[i]!.value)) i += words[i]!.value === '-D' ? 2 : 1;
  const roots: ShellWord[] = [];
  for (; i < words.length; i += 1) {
    const v = words[i]!.value;
    if (v.startsWith('-') || v === '(' || v === '!' || v === ',') break;
    roots.push(words[i]!);
  }
  return roots.length > 0 ? roots : [literalWord('.')];
}

/**
 * The commands `find … -exec cmd {} \;` runs. Without a filter `{}` is every start directory
 * (and everything below it), so it is replaced by them; with a filter it stays `{}`.
 */
export function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  const argv = words.map((w) => w.value);
  const roots = findHasFilter(argv) ? undefined : findRoots(words);
  const out: ShellWord[][] = [];
  for (let i = 0; i < words.length; i += 1) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(argv[i]!)) continue;
    const command: ShellWord[] = [];
    let j = i + 1;
    for (; j < words.length && argv[j] !== ';' && argv[j] !== '+'; j += 1) command.push(words[j]!);
    i = j;
    if (command.length === 0) continue;
    out.push(roots ? command.flatMap((w) => substituteRoots(w, roots)) : command);
  }
  return out;
}

function substituteRoots(word: ShellWord, roots: ShellWord[]): ShellWord[] {
  if (word.value === '{}') return roots;
  if (!word.value.includes('{}')) return [word];
  const joinedRoots = roots.map((r) => r.value).join(' ');
  return [{ ...word, value: word.value.split('{}').join(joinedRoots), collapsed: word.collapsed?.split('{}').join(joinedRoots) }];
}
