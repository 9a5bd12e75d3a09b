// The id a hook gets when its entry names none: readable, from the command's first meaningful words.
// Ids reach the model and the user (`blocked by hook "…"`, warnings, traces), so `cat >/dev/null; …`
// must not become `null-`, nor `cat > f; …` become `cat--`. A light word split is enough here: the id
// only has to be readable and stable; nothing is judged on it.
import path from 'node:path';

/** Words of one simple command, and where its stdout goes when redirected. */
interface Simple {
  words: string[];
  stdoutTo?: string;
}

const SCRIPT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|php|ps1)$/;
/** Commands that only prepare (`cd dir && …`, `set -e; …`): the id comes from what follows them. */
const SETUP = new Set(['cd', 'set', 'export', 'source', '.', 'umask', 'shopt', 'trap', 'exec', 'env', 'command', 'builtin']);
/** Commands that, with stdout to /dev/null, only drain stdin (`cat >/dev/null`) or do nothing. */
const DRAIN = new Set(['cat', 'true', ':', 'read', 'head', 'tail']);
const MAX_ID = 40;

/**
 * A readable id for a command hook: the script it runs (`python3 guards/no_force_push.py` →
 * `no_force_push`), else the first meaningful command and its first plain argument
 * (`npx prettier --check` → `npx-prettier`). Never empty; only letters, digits and `_ . : @ -`.
 */
export function idFromCommand(command: string, args: readonly string[] = []): string {
  const commands = split(command);
  if (args.length > 0) {
    if (commands.length === 0) commands.push({ words: [] });
    commands[0]!.words.push(...args);
  }
  const meaningful = commands.filter((c) => c.words.length > 0 && !SETUP.has(c.words[0]!) && !(DRAIN.has(c.words[0]!) && c.stdoutTo === '/dev/null'));
  const chosen = meaningful.length > 0 ? meaningful : commands.filter((c) => c.words.length > 0);
  const words = chosen.flatMap((c) => c.words);
  const script = words.find((w) => SCRIPT.test(w)) ?? words.find((w) => w.includes('/') && !w.startsWith('-') && !w.includes('://'));
  if (script !== undefined) {
    const id = clean(path.posix.basename(script.replace(/\/+$/, '')).replace(/\.[^.]+$/, ''));
    if (id !== '') return id;
  }
  const first = chosen[0]?.words ?? [];
  const head = clean(path.posix.basename(first[0] ?? ''));
  const second = first[1] !== undefined && /^[A-Za-z0-9_][\w.:@-]*$/.test(first[1]) ? clean(first[1]) : '';
  const id = clean([head, second].filter(Boolean).join('-'));
  return id === '' ? 'hook' : id;
}

// --- internal ---

function clean(text: string): string {
  return text.replace(/[^\w.:@-]+/g, '-').replace(/^[-.:@]+|[-.:@]+$/g, '').slice(0, MAX_ID).replace(/[-.:@]+$/, '');
}

/** Splits a shell command into simple commands (at `;` `&` `|` newlines and parentheses), dropping redirections. */
function split(command: string): Simple[] {
  const out: Simple[] = [];
  let current: Simple = { words: [] };
  let word = '';
  let inWord = false;
  /** Set after a redirection operator: the next word is its target, not an argument. */
  let redirect: 'out' | 'other' | undefined;
  const endWord = () => {
    if (!inWord) return;
    if (redirect !== undefined) {
      if (redirect === 'out') current.stdoutTo = word;
      redirect = undefined;
    } else if (current.words.length > 0 || !/^[A-Za-z_]\w*=/.test(word)) current.words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    redirect = undefined;
    if (current.words.length > 0 || current.stdoutTo !== undefined) out.push(current);
    current = { words: [] };
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const close = command.indexOf(c, i + 1);
      const end = close === -1 ? command.length : close;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '\\') {
      word += command[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (/\s/.test(c) && c !== '\n') {
      endWord();
    } else if (c === ';' || c === '|' || c === '\n' || c === '(' || c === ')' || (c === '&' && command[i + 1] !== '>')) {
      endCommand();
    } else if (c === '>' || c === '<' || (c === '&' && command[i + 1] === '>')) {
      // `2>`, `>>`, `&>`, `>&2`, `<<<`: a file-descriptor digit before it belongs to the operator.
      const fd = inWord && /^\d+$/.test(word) ? word : '';
      if (fd !== '') {
        word = '';
        inWord = false;
      } else endWord();
      let j = i;
      while (j < command.length && /[<>&|]/.test(command[j]!)) j++;
      const op = command.slice(i, j);
      i = j - 1;
      // `>&2`, `2>&1`: a descriptor, not a file.
      const dup = /&$/.test(op) && /^\d+|^-/.test(command.slice(j));
      if (dup) {
        while (i + 1 < command.length && /[\d-]/.test(command[i + 1]!)) i++;
        continue;
      }
      redirect = op.includes('>') && (fd === '' || fd === '1') ? 'out' : 'other';
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return out;
}
