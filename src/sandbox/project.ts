// The project folder a guard judges a tool call against (shared by command-safety and the sandbox).
import type { GuardContext } from '../types.js';

/**
 * `CLAUDE_PROJECT_DIR` / `HOOKS_PROJECT_DIR` when declared; else the config's folder when it holds
 * the event's cwd (the agent works in a subfolder), else the cwd.
 */
export function projectDirOf(cwd: string | undefined, guardContext: GuardContext | undefined): string | undefined {
  const env = guardContext?.env ?? {};
  const declared = firstAbsolute(env.CLAUDE_PROJECT_DIR, env.HOOKS_PROJECT_DIR);
  if (declared !== undefined) return declared;
  const configured = firstAbsolute(guardContext?.projectDir);
  if (cwd === undefined) return configured;
  if (configured !== undefined && configured !== '/' && (cwd === configured || cwd.startsWith(`${configured.replace(/\/+$/, '')}/`))) return configured;
  return cwd;
}

/**
 * The project a sandbox may write: `CLAUDE_PROJECT_DIR` / `HOOKS_PROJECT_DIR` when declared, else the
 * folder of the project's config. Never the event's or the tool call's folder: the model chooses those
 * (Codex's `workdir`, Gemini's `dir_path`), and must not choose what becomes writable.
 */
export function sandboxProjectOf(guardContext: GuardContext | undefined): string | undefined {
  const env = guardContext?.env ?? {};
  return firstAbsolute(env.CLAUDE_PROJECT_DIR, env.HOOKS_PROJECT_DIR, guardContext?.configDir);
}

/** The first value that is an absolute path of sane length without a NUL. */
export function firstAbsolute(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.startsWith('/') && value.length < 4096 && !value.includes('\0')) return value;
  return undefined;
}
