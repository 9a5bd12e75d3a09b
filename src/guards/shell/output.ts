// What a command prints, where the walker can tell: the value of `$(…)`, `<(…)`, the stage piped
// into `xargs` or `read`. A home directory hides behind many spellings (`$(cd ~ && pwd -P)`,
// `$(getent passwd me | cut -d: -f6)`, `$(printenv HOME)`); these are evaluated. Anything else is
// an unknown output, which could be any path, a home included; the rules decide what that means.
import { findRoots, staticStdout } from './code-runners.js';
import { normalizePath } from './paths.js';
import type { Produced, SimpleCommand } from './types.js';
import { staticPrint } from './word-value.js';

const unknown = (from: string, confined = false): Produced => ({ output: { from, confined } });

/**
 * What the commands of a substitution print. `commands` is everything the substitution ran, nested
 * substitutions included; `from` names it in messages.
 */
export function substitutionOutput(commands: SimpleCommand[], from: string): Produced {
  const nested = new Set<SimpleCommand>();
  for (const c of commands) {
    for (const w of c.words) for (const s of w.subCommands) nested.add(s);
    for (const r of c.redirects) for (const s of r.word?.subCommands ?? []) nested.add(s);
  }
  const direct = commands.filter((c) => !nested.has(c));
  const last = direct[direct.length - 1];
  if (!last) return { value: '' };
  const upstream = new Set(last.pipedFrom);
  // Only the last command's output is known; any other command that prints makes the whole unknown.
  if (direct.some((c) => c !== last && !upstream.has(c) && !silent(c))) return unknown(from);
  return commandOutput(last, from);
}

/**
 * Commands that print nothing of their own (an `eval` or `sh -c` prints through its commands,
 * listed too). `cd -` prints where it went;
 * `declare -p`, a bare `set` or `export` list variables; `mkdir -v` reports: none of those is silent.
 */
function silent(cmd: SimpleCommand): boolean {
  if (cmd.argv.length === 0 || stdoutRedirected(cmd) || cmd.codeWords.length > 0) return true;
  const [program = '', ...args] = cmd.argv;
  if (program === 'printf') return args[0] === '-v';
  // A `CDPATH` set in the agent's environment is not seen here: `cd name` is taken as silent.
  if (program === 'cd') return !args.includes('-');
  if (/^(export|local|declare|typeset|readonly|set|shopt|umask)$/.test(program)) return args.length > 0 && !args.some((a) => /^-[a-zA-Z]*p/.test(a));
  if (/^(mkdir|touch)$/.test(program)) return !args.some((a) => /^-[a-zA-Z]*v|^--verbose$/.test(a));
  return /^(unset|true|:|read|test|\[)$/.test(program);
}

function stdoutRedirected(cmd: SimpleCommand): boolean {
  return cmd.redirects.some((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>') && (r.fd === undefined || r.fd === 1));
}

/** What one command prints to its stdout (its pipeline's earlier stages read through `pipedFrom`). */
export function commandOutput(cmd: SimpleCommand, from: string, depth = 0): Produced {
  if (stdoutRedirected(cmd)) return { value: '' };
  const [program = '', ...args] = cmd.argv;
  const literal = cmd.words.every((w) => w.literal);
  if (program === 'echo' || program === 'printf') {
    // `eval echo ~$USER` names a home: `~` then a user name, expanded again by eval.
    const argv = cmd.words.map((w, i) => (i > 0 && /^~\$\{?\w+\}?(\/|$)/.test(w.value) ? w.value.replace(/^~\$\{?\w+\}?/, '~') : w.literal ? w.value : undefined));
    if (argv.every((a): a is string => a !== undefined)) {
      const printed = staticPrint(argv);
      if (printed !== undefined) return { value: printed.replace(/\n+$/, '') };
    }
    return unknown(from);
  }
  if (program === 'cat') {
    const out = staticStdout(cmd);
    if (out !== undefined) return { value: out.replace(/\n+$/, '') };
  }
  if (program === 'pwd' && args.every((a) => /^-[LP]+$/.test(a))) {
    return cmd.cwd !== undefined ? { value: cmd.cwd } : unknown(from);
  }
  if (program === 'printenv' && args.length === 1 && literal) {
    if (args[0] === 'HOME') return { value: '~' };
    if (args[0] === 'PWD' && cmd.cwd !== undefined) return { value: cmd.cwd };
    if (args[0] === 'OLDPWD') return unknown(from);
  }
  if (passwdHome(cmd)) return { value: '~' };
  if (program === 'mktemp' && literal) return { value: mktempPath(args) };
  const operands = args.filter((a) => !a.startsWith('-'));
  if (literal && (program === 'realpath' || program === 'readlink') && operands.length === 1) return { value: operands[0]! };
  if (literal && program === 'dirname' && operands.length === 1) {
    const path = operands[0]!.replace(/\/+$/, '');
    // `dirname ~` is the folder holding the home directory, not `.`.
    if (/^~[^/]*$/.test(path)) return { value: `${path}/..` };
    const slash = path.lastIndexOf('/');
    return { value: slash > 0 ? path.slice(0, slash) : slash === 0 ? '/' : '.' };
  }
  return filtered(cmd, from, depth) ?? unknown(from, confined(cmd));
}

/** Field 6 of a `passwd` line is the home directory: `getent passwd me | cut -d: -f6`, `awk -F: '{print $6}'`. */
function passwdHome(cmd: SimpleCommand): boolean {
  const [program, ...args] = cmd.argv;
  const joined = args.join(' ');
  if (program === 'cut') {
    const colon = /(^| )(-d ?|--delimiter=?\s?)['"]?:/.test(joined);
    return colon && /(^| )(-f ?|--fields=?\s?)([\d,-]*,)?6\b/.test(joined);
  }
  if (/^[gnm]?awk$/.test(program ?? '')) return /(^| )-F ?['"]?:/.test(joined) && /\$6\b/.test(joined);
  return false;
}

/** `mktemp` always makes (or names, with `-u`) a fresh path: deleting it loses nothing. */
function mktempPath(args: string[]): string {
  let dir: string | undefined;
  let template: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (a === '-p' || a === '--tmpdir') dir = a === '-p' ? args[(i += 1)] : undefined;
    else if (a.startsWith('--tmpdir=')) dir = a.slice(9);
    else if (/^-[a-zA-Z]*p.+/.test(a)) dir = a.slice(a.indexOf('p') + 1);
    else if (a === '--suffix') i += 1;
    else if (!a.startsWith('-')) template = a;
  }
  const name = template ?? 'tmp.XXXXXXXXXX';
  if (dir !== undefined && !name.startsWith('/')) return `${dir.replace(/\/+$/, '')}/${name}`;
  return name.includes('/') ? name : `/tmp/${name}`;
}

/** Filters that only drop or reorder lines: what they print comes from their input. */
const LINE_FILTERS = /^(head|tail|sort|uniq|grep|egrep|fgrep|tac|shuf)$/;

/**
 * The command only prints paths inside the working directory: `find` from folders inside it,
 * `git ls-files`, `ls` of them.
 */
function confined(cmd: SimpleCommand): boolean {
  const [program, ...args] = cmd.argv;
  const inside = (value: string): boolean => {
    const path = normalizePath(value);
    return !path.startsWith('/') && !path.startsWith('~') && !path.startsWith('..') && !/[$`]/.test(value);
  };
  if (program === 'find') return findRoots(cmd.words).every((w) => w.literal && inside(w.value));
  if (program === 'git') {
    const sub = args.findIndex((a) => !a.startsWith('-'));
    if (args.slice(0, Math.max(sub, 0)).some((a) => /^-C$|^--(git-dir|work-tree)/.test(a))) return false;
    return args[sub] === 'ls-files' || args[sub] === 'status' || (args[sub] === 'diff' && args.includes('--name-only'));
  }
  if (program === 'ls') return cmd.words.slice(1).every((w) => w.literal && (w.value.startsWith('-') || inside(w.value)));
  return false;
}

/**
 * A line filter (`head`, `sort`, `grep x`) reading its pipe prints lines of its input: the
 * input's value (`echo ~ | head -1` is `~`), or whether it stays inside the working directory.
 */
function filtered(cmd: SimpleCommand, from: string, depth: number): Produced | undefined {
  const [program = '', ...args] = cmd.argv;
  // `git status --short | awk '{print $2}'`: whole fields of paths inside stay inside.
  const fields = /^[gnm]?awk$/.test(program) && args.length === 1 && /^\{\s*print\s+\$[1-9]\d*\s*;?\s*\}$/.test(args[0]!);
  if (fields && depth < 8) {
    const upstream = cmd.pipedFrom[cmd.pipedFrom.length - 1];
    const produced = upstream ? commandOutput(upstream, from, depth + 1) : undefined;
    return unknown(from, produced !== undefined && 'output' in produced && produced.output.confined);
  }
  if (!LINE_FILTERS.test(program) || depth >= 8) return undefined;
  // Reading files given as operands is not reading the pipe: only a bare filter passes its input on.
  const operands = args.filter((a, i) => !a.startsWith('-') && !/^-[neABm]$/.test(args[i - 1] ?? '') && !/^\d+$/.test(a));
  if (operands.length > (program.endsWith('grep') ? 1 : 0)) return undefined;
  const upstream = cmd.pipedFrom[cmd.pipedFrom.length - 1];
  if (!upstream) return undefined;
  const produced = commandOutput(upstream, from, depth + 1);
  if (!('value' in produced)) return produced;
  // Which of several lines comes out is not worked out.
  return produced.value.includes('\n') ? unknown(from) : produced;
}
