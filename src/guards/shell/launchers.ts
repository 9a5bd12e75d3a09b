// Programs that start a shell command given as a string: `script -c`, `flock -c`, `sg`, `tmux`,
// `screen -X stuff`, `vim -c '!…'`. Each is rewritten to the `sh -c '…'` it amounts to, so the
// walker judges the command like any other code string.
import { type OptionGrammar, readOptions } from './options.js';
import { programName } from './program.js';
import type { ShellWord } from './types.js';
import { literalWord } from './word-value.js';

/** `sh -c <code>` words for a launcher, or undefined when `words` is not one. */
export function launcherCode(words: readonly ShellWord[]): ShellWord[] | undefined {
  const first = words[0];
  if (!first?.literal) return undefined;
  const values = words.map((w) => w.value);
  const name = programName(first.value);
  switch (name) {
    case 'script': {
      const parsed = readOptions(values, 1, { shortWithValue: 'cEIOBTm', shortOptionalValue: 't', longWithValue: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format'] });
      const code = parsed.options.find((o) => o.name === 'c' || o.name === 'command');
      return code?.value !== undefined ? sh(code.value, words) : undefined;
    }
    case 'flock': {
      const c = values.findIndex((v, i) => i > 1 && (v === '-c' || v === '--command'));
      return c !== -1 && values[c + 1] !== undefined ? sh(values[c + 1]!, words) : undefined;
    }
    case 'sg': {
      // `sg group -c 'cmd'` or `sg group cmd`: the command is run by /bin/sh.
      const rest = values.slice(2).filter((v) => v !== '-c');
      return rest.length > 0 ? sh(rest.join(' '), words) : undefined;
    }
    case 'screen': {
      const x = values.indexOf('-X');
      if (x !== -1 && values[x + 1] === 'stuff' && values[x + 2] !== undefined) return sh(keysToCode(values.slice(x + 2)), words);
      return undefined;
    }
    case 'tmux':
      return tmux(values, words);
    case 'npx':
    case 'npm':
    case 'pnpm':
    case 'bun':
      return packageRunnerCode(name, values, words);
    case 'vi':
    case 'vim':
    case 'nvim':
    case 'gvim':
    case 'view':
    case 'ex':
    case 'rvim':
    case 'vimdiff': {
      const bodies: string[] = [];
      values.forEach((v, i) => {
        const command = v.startsWith('+') ? v.slice(1) : (v === '-c' || v === '--cmd') ? values[i + 1] : undefined;
        const code = command === undefined ? undefined : vimShell(command);
        if (code !== undefined) bodies.push(code);
      });
      return bodies.length > 0 ? sh(bodies.join('\n'), words) : undefined;
    }
    default:
      return undefined;
  }
}

const TMUX_SHELL = new Set(['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run-shell', 'run', 'display-popup', 'popup', 'pipe-pane', 'pipep', 'if-shell', 'if']);
const TMUX_GLOBAL: OptionGrammar = { shortWithValue: 'LSfcT' };
const TMUX_SUB: OptionGrammar = { shortWithValue: 'sntcxyeFlTN' };

function tmux(values: string[], words: readonly ShellWord[]): ShellWord[] | undefined {
  const global = readOptions(values, 1, TMUX_GLOBAL);
  const c = global.options.find((o) => o.name === 'c');
  if (c?.value !== undefined) return sh(c.value, words);
  const sub = values[global.next];
  if (sub === undefined) return undefined;
  const parsed = readOptions(values, global.next + 1, TMUX_SUB);
  const operands = values.slice(parsed.next).filter((v) => v !== ';' && v !== '\\;');
  if (operands.length === 0) return undefined;
  if (sub === 'send-keys' || sub === 'send') return sh(keysToCode(operands), words);
  if (TMUX_SHELL.has(sub)) return sh(operands.join(' '), words);
  return undefined;
}

/**
 * `npx -c 'cmd'`, `npm exec --call 'cmd'`, `pnpm exec -c 'cmd'` (shell mode), `bun exec 'cmd'`: the
 * string is a shell command run with the packages' bins on PATH.
 */
function packageRunnerCode(name: string, values: string[], words: readonly ShellWord[]): ShellWord[] | undefined {
  const sub = values.findIndex((v, i) => i > 0 && !v.startsWith('-'));
  if (name === 'bun') return values[sub] === 'exec' && values[sub + 1] !== undefined ? sh(values[sub + 1]!, words) : undefined;
  if (name !== 'npx' && !(sub !== -1 && (values[sub] === 'exec' || values[sub] === 'x' || (name === 'pnpm' && values[sub] === 'dlx')))) return undefined;
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    if (v === '--') break;
    if ((v === '-c' || v === '--call' || v === '--shell-mode') && values[i + 1] !== undefined) return sh(values[i + 1]!, words);
    if (v.startsWith('--call=')) return sh(v.slice('--call='.length), words);
  }
  return undefined;
}

/** Keys typed into a terminal: `Enter`, `C-m` and a newline end a command line. */
function keysToCode(keys: string[]): string {
  return keys.map((k) => (/^(Enter|C-m|KPEnter|C-j)$/i.test(k) ? '\n' : k)).join(' ').replace(/\\n/g, '\n');
}

/** A Vim command that runs the shell: `!cmd`, `:!cmd`, `silent !cmd`, `r !cmd`, `call system("cmd")`. */
function vimShell(command: string): string | undefined {
  const bang = /(?:^|[|:\s])(?:silent!?\s*)?(?:(?:r(?:ead)?|w(?:rite)?)\s*)?!([\s\S]+)$/.exec(command.trim());
  if (bang) return bang[1];
  const system = /\bsystem(?:list)?\s*\(\s*(["'])((?:\\.|(?!\1).)*)\1/.exec(command);
  return system ? system[2] : undefined;
}

function sh(code: string, words: readonly ShellWord[]): ShellWord[] {
  const source = words.find((w) => w.value === code);
  return [literalWord('sh'), literalWord('-c'), source ?? literalWord(code)];
}
