// Shell quoting for the sandbox rewrite: every word of the wrapped command, the agent's own command
// included, reaches the sandbox as exactly one argument, whatever bytes it holds.

/** `word` as one POSIX shell word: bare when it is plainly safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  // Inside single quotes nothing is special but the quote itself: close, escape it, reopen.
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An argv as one shell command line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
