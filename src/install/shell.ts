// The command string an agent runs: the bin, quoted for a POSIX shell, and the marker that makes it ours.

/**
 * A trailing shell comment: every agent below runs a hook command through a shell, which drops it, and
 * it survives in the command string, where settings schemas that reject unknown keys cannot object.
 */
export const MARKER = '# agent-hooks';

const SAFE = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/** The word as one POSIX shell word: unchanged when it is safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `<bin> run <event> --dialect <dialect> # agent-hooks`. */
export function hookCommand(bin: string, event: string, dialect: string): string {
  return `${shellQuote(bin)} run ${event} --dialect ${dialect} ${MARKER}`;
}

/** True for a command string `hookCommand` wrote (whatever bin, event or dialect it named). */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(` ${MARKER}`);
}
