// Reads back the command a sandbox rewrite runs, so the shell guards judge what will really run:
// the rewrite hands the agent's command to the sandbox as arguments of a setup script, where a
// shell parse sees only data. Used by the shell analysis (command-safety, sensitive-paths): the
// command inside is judged, and so is every part of the rewrite that is not word for word one this
// package writes. Only an exact rewrite's own words go unjudged: they name the folders it binds,
// keeps read-only or hides (`.envrc`, `~/.claude`, agent-hooks' state), which a guard would otherwise
// take for the command reading them; a mount reads nothing, and the command inside is judged.

import { LAUNCH, LAUNCH_NAME } from './launch.js';
import { UNSHARE_SETUP } from './unshare-setup.js';

// One word exactly as shellQuote writes it: bare, or single-quoted with '\'' for each quote.
const WORD = /(?:'[^']*'(?:\\''[^']*')*|[\w@%+=:,./-]+)/y;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);
const DOCKER_VALUE_OPTIONS = new Set(['--network', '--cap-drop', '--security-opt', '--user', '--tmpfs', '--env', '--mount', '--workdir']);
const DOCKER_FLAGS = new Set(['--rm', '-i', '--init', '--read-only']);

export interface Sandboxed {
  /** The command the rewrite runs. */
  command: string;
  /** Where it starts. */
  cwd?: string;
  /** The part of the rewrite still to judge as a command: all of it, unless parts are exactly ours ('' when all are). */
  wrapper: string;
}

/** The command a rewrite made by this package runs, and where; undefined for any other command. */
export function sandboxedCommand(command: string): Sandboxed | undefined {
  if (command.length > 1_000_000) return undefined;
  const whole = splitQuoted(command);
  if (whole === undefined || whole.length < 3) return undefined;
  let argv = whole;
  let launcherOurs = false;
  // The launcher around the sandbox (launch.ts): sh -c <script> agent-hooks-launch n kind path… -- sandbox…
  if (argv[1] === '-c' && argv[3] === LAUNCH_NAME) {
    const n = Number(argv[4]);
    if (!Number.isInteger(n) || n < 0 || argv[5 + n] !== '--') return undefined;
    launcherOurs = argv[0] === '/bin/sh' && argv[2] === LAUNCH && n % 2 === 0 && argv.slice(5, 5 + n).every((w, i) => (i % 2 === 0 ? w === 'd' || w === 'f' : plainAbsolute(w)));
    argv = argv.slice(6 + n);
    if (argv.length < 3) return undefined;
  }
  const program = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
  let inner: string[] | undefined;
  let cwd: string | undefined;
  if (program === 'unshare') {
    const at = argv.indexOf('agent-hooks-sandbox');
    const n = at < 0 ? NaN : Number(argv[at + 6]);
    if (!Number.isInteger(n) || n < 0 || argv[at + 7 + n] !== '--') return undefined;
    cwd = argv[at + 2];
    inner = argv.slice(at + 8 + n);
  } else if (program === 'bwrap') {
    const at = argv.indexOf('--');
    if (at < 0) return undefined;
    const chdir = argv.indexOf('--chdir');
    if (chdir > 0 && chdir < at) cwd = argv[chdir + 1];
    inner = argv.slice(at + 1);
  } else if (program === 'docker' && argv[1] === 'run') {
    let i = 2;
    for (; i < argv.length; i++) {
      if (DOCKER_FLAGS.has(argv[i]!)) continue;
      if (DOCKER_VALUE_OPTIONS.has(argv[i]!)) {
        if (argv[i] === '--workdir') cwd = argv[i + 1];
        i++;
        continue;
      }
      break;
    }
    inner = argv.slice(i + 1); // after the image
  }
  if (inner === undefined || inner.length === 0) return undefined;
  const shell = inner[0]!.slice(inner[0]!.lastIndexOf('/') + 1);
  const text = SHELLS.has(shell) && inner[1] === '-c' && inner.length >= 3 ? inner[2]! : inner.map(quoteWord).join(' ');
  const sandbox = argv.slice(0, argv.length - inner.length);
  const wrapper = !launcherOurs ? command : program === 'bwrap' ? (bwrapOurs(sandbox) ? '' : sandbox.map(quoteWord).join(' ')) : program === 'unshare' && unshareOurs(sandbox) ? '' : sandbox.map(quoteWord).join(' ');
  return { command: text, ...(cwd !== undefined && cwd.startsWith('/') ? { cwd } : {}), wrapper };
}

/** An absolute path with no control character (as the rewrite writes every folder). */
function plainAbsolute(word: string | undefined): boolean {
  return word !== undefined && word.startsWith('/') && !/[\0-\x1f\x7f]/.test(word);
}

const BWRAP_FLAGS = new Set(['--die-with-parent', '--new-session', '--unshare-all', '--share-net']);

/** `bwrap … --` made only of the options wrap.ts writes: flags, and mounts of a path onto itself. */
function bwrapOurs(argv: readonly string[]): boolean {
  if (!plainAbsolute(argv[0]) || argv.at(-1) !== '--') return false;
  for (let i = 1; i < argv.length - 1; ) {
    const [a, b, c] = [argv[i]!, argv[i + 1], argv[i + 2]];
    if (BWRAP_FLAGS.has(a)) i += 1;
    else if ((a === '--bind' || a === '--ro-bind') && plainAbsolute(c) && (b === c || (a === '--ro-bind' && b === '/dev/null'))) i += 3;
    else if (['--tmpfs', '--remount-ro', '--chdir', '--dev', '--proc'].includes(a) && plainAbsolute(b)) i += 2;
    else if ((a === '--perms' && b === '0555') || (a === '--unsetenv' && b === 'SSH_AUTH_SOCK')) i += 2;
    else if (a === '--setenv' && b === 'TMPDIR' && c === '/tmp') i += 3;
    else return false;
  }
  return true;
}

const UNSHARE_FLAGS = new Set(['--user', '--map-root-user', '--mount', '--pid', '--fork', '--kill-child', '--ipc', '--uts', '--net']);

/** `unshare … -- /bin/sh -c <setup> agent-hooks-sandbox … --` exactly as wrap.ts writes it. */
function unshareOurs(argv: readonly string[]): boolean {
  const at = argv.indexOf('--');
  if (!plainAbsolute(argv[0]) || at < 0 || !argv.slice(1, at).every((a) => UNSHARE_FLAGS.has(a))) return false;
  const [sh, c, setup, name, tmp, cwd, uid, gid, binary, n, ...rest] = argv.slice(at + 1);
  return (
    sh === '/bin/sh' && c === '-c' && setup === UNSHARE_SETUP && name === 'agent-hooks-sandbox' && (tmp === 'private' || tmp === 'read-only') &&
    plainAbsolute(cwd) && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '') && plainAbsolute(binary) && rest.length === Number(n) + 1 && rest.at(-1) === '--' &&
    rest.slice(0, -1).every((note) => /^[wprh]:\//.test(note) && plainAbsolute(note.slice(2)))
  );
}

/** The words of `command` when it is written entirely in shellQuote's form, else undefined. */
function splitQuoted(command: string): string[] | undefined {
  const words: string[] = [];
  let at = 0;
  while (at < command.length) {
    WORD.lastIndex = at;
    const found = WORD.exec(command);
    if (found === null) return undefined;
    const raw = found[0];
    words.push(raw.startsWith("'") ? raw.slice(1, -1).split(`'\\''`).join("'") : raw);
    at = WORD.lastIndex;
    if (at < command.length) {
      if (command[at] !== ' ') return undefined;
      at++;
    }
  }
  return words;
}

function quoteWord(word: string): string {
  return word !== '' && /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
