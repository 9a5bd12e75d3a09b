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
    walker.walkSource(command, cwd);
    // A command rewritten to run in agent-hooks' sandbox hands the agent's command over as data:
    // judge that command too (nested rewrites included), or a sandbox rewrite would hide it.
    let inner = sandboxedCommand(command);
    for (let depth = 0; inner !== undefined && depth < 4; depth++) {
      walker.walkSource(inner.command, inner.cwd ?? cwd);
      inner = sandboxedCommand(inner.command);
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
