// The command string an agent runs: the bin, quoted for a POSIX shell, and the marker that makes it ours.
import { BIN_NAME, type Launcher } from './launcher.js';

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

/**
 * `<launcher> run <event> --dialect <dialect> [--on-error block] # agent-hooks`. `launcher` is already
 * a shell word (see `launcherWord`); `--on-error block` makes the runner's own errors block.
 */
export function hookCommand(launcher: string, event: string, dialect: string, failClosed = false): string {
  return `${launcher} run ${event} --dialect ${dialect}${failClosed ? ' --on-error block' : ''} ${MARKER}`;
}

/**
 * The shell word that starts agent-hooks: the project's bin under the agent's project folder (a shell
 * expression such as `"$CLAUDE_PROJECT_DIR"`), `agent-hooks` on PATH, or an absolute path.
 */
export function launcherWord(launcher: Launcher, projectDir: string): string {
  if (launcher.kind === 'project') return `${projectDir}/${shellQuote(launcher.rel)}`;
  if (launcher.kind === 'path') return BIN_NAME;
  return launcher.node === undefined ? shellQuote(launcher.bin) : `${shellQuote(launcher.node)} ${shellQuote(launcher.bin)}`;
}

/** True for a command string `hookCommand` wrote (whatever bin, event or dialect it named). */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(` ${MARKER}`);
}
