// The shell layer's entry point: a command string in, normalized simple commands out.
import { Budget, DEFAULT_LIMITS, type ShellLimits, ShellAnalysisError } from './limits.js';
import type { AnalysisResult } from './types.js';
import { Walker } from './walk.js';
import { sandboxedCommand } from '../../sandbox/unwrap.js';

/**
 * Parses and walks `command` within `limits`. Never throws for bad input: anything that cannot
 * be analysed completely (parse error, limit hit) is `{ ok: false, error }`.
 */
export function analyzeShell(
  command: string,
  limits: Partial<ShellLimits> = {},
  cwd?: string,
  home?: string,
  gitAliases?: ReadonlyMap<string, string>,
): AnalysisResult {
  const budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  const walker = new Walker(budget, home !== undefined && home.startsWith('/') && home.length > 1 ? home.replace(/\/+$/, '') : undefined, gitAliases);
  try {
    // A command rewritten to run in agent-hooks' sandbox hands the agent's command over as data:
    // judge that command too (nested rewrites included), or a sandbox rewrite would hide it; and the
    // rewrite itself, but for the parts that are word for word ours (the folders they mount are no reads).
    let source = command;
    let where = cwd;
    for (let depth = 0; ; depth++) {
      const inner = depth < 4 ? sandboxedCommand(source) : undefined;
      if (inner === undefined) {
        walker.walkSource(source, where);
        break;
      }
      if (inner.wrapper !== '') walker.walkSource(inner.wrapper, where);
      source = inner.command;
      where = inner.cwd ?? where;
    }
    budget.checkTime();
  } catch (error) {
    if (error instanceof ShellAnalysisError) return { ok: false, error: error.message };
    if (error instanceof RangeError) return { ok: false, error: 'command is nested too deeply' };
    // Anything else is a bug in the walker: still an answer, never an exception for the caller.
    return { ok: false, error: `the shell analysis failed (${error instanceof Error ? error.message : String(error)})` };
  }
  return { ok: true, commands: walker.commands, functions: walker.functions };
}
