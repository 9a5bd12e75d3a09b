// Reads back the command a sandbox rewrite runs, so the shell guards judge what will really run:
// the rewrite hands the agent's command to the sandbox as arguments of a setup script, where a
// shell parse sees only data. Used by the shell analysis (command-safety, sensitive-paths) on top of
// judging the rewritten command as it is: judging more can never let more through.

// One word exactly as shellQuote writes it: bare, or single-quoted with '\'' for each quote.
const WORD = /(?:'[^']*'(?:\\''[^']*')*|[\w@%+=:,./-]+)/y;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);
const DOCKER_VALUE_OPTIONS = new Set(['--network', '--cap-drop', '--security-opt', '--user', '--tmpfs', '--env', '--mount', '--workdir']);
const DOCKER_FLAGS = new Set(['--rm', '-i', '--init', '--read-only']);

/** The command a rewrite made by this package runs, and where; undefined for any other command. */
export function sandboxedCommand(command: string): { command: string; cwd?: string } | undefined {
  if (command.length > 1_000_000) return undefined;
  const argv = splitQuoted(command);
  if (argv === undefined || argv.length < 3) return undefined;
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
  return { command: text, ...(cwd !== undefined && cwd.startsWith('/') ? { cwd } : {}) };
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
