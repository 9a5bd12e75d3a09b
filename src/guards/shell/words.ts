// File-naming words of a command, for guards that judge paths rather than commands.
import { analyzeShell } from './analyze.js';

/** `--file=.env` and `if=.env` name `.env` as much as a bare `.env` does. */
const OPTION_VALUE = /^(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*)=(.+)$/;

/**
 * Every word that may name a file: arguments of each simple command (after unwrapping) and
 * redirection targets.
 *
 * Words are unquoted; `~`, `$HOME` and `${HOME}` at the start read `~`; variables assigned
 * earlier in the command are substituted; unknown expansions stay as written (`$DIR/x`).
 * For `key=value` and `--opt=value` words the value is listed too. Commands inside `bash -c`,
 * `eval`, `$( )`, `xargs` and `find -exec` are included. Heredoc bodies are data and are not.
 * Fails when the command cannot be parsed within the shell layer's limits.
 */
export function commandFileWords(command: string): { ok: true; words: string[] } | { ok: false; error: string } {
  const analysis = analyzeShell(command);
  if (!analysis.ok) return { ok: false, error: analysis.error };
  const words: string[] = [];
  const seen = new Set<string>();
  const add = (word: string): void => {
    if (word === '' || seen.has(word)) return;
    seen.add(word);
    words.push(word);
  };
  for (const cmd of analysis.commands) {
    for (const value of cmd.argv.slice(1)) {
      add(value);
      const m = OPTION_VALUE.exec(value);
      if (m) add(m[1]!);
    }
    for (const redirect of cmd.redirects) {
      if (redirect.word && !redirect.op.startsWith('<<') && !/^\d+$|^-$/.test(redirect.target)) add(redirect.target);
    }
  }
  return { ok: true, words };
}
