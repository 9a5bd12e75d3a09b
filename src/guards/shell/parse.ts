// unbash behind our own limits: only a complete, error-free parse is trusted.
import { parse, type ParsedScript } from 'unbash';
import { type Budget, ShellAnalysisError } from './limits.js';

/** Parses `source`, throwing ShellAnalysisError when it is too long or not clean Bash. */
export function parseScript(source: string, budget: Budget): ParsedScript {
  if (source.length > budget.limits.maxInputLength) {
    throw new ShellAnalysisError(
      `command is ${source.length} characters, over the ${budget.limits.maxInputLength} limit`,
    );
  }
  const nesting = parenNesting(source);
  if (nesting > budget.limits.maxParenNesting) {
    throw new ShellAnalysisError(`parentheses nested ${nesting} deep, over the ${budget.limits.maxParenNesting} limit`);
  }
  const script = parse(source);
  budget.checkTime();
  assertClean(script);
  return script;
}

/** A partial tree from error recovery could hide a command, so any error is fatal. */
export function assertClean(script: ParsedScript | undefined): asserts script is ParsedScript {
  if (!script) throw new ShellAnalysisError('substitution could not be parsed');
  const error = script.errors?.[0];
  if (error) throw new ShellAnalysisError(`parse error: ${error.message} at offset ${error.pos}`);
}

/**
 * Deeply nested `$(` makes the parser itself slow (hundreds of ms for ~300 levels), and the
 * parser cannot be interrupted, so nesting is measured before parsing. Single-quoted text is
 * skipped; elsewhere an unbalanced `(` only makes the estimate higher, which fails closed.
 */
export function parenNesting(source: string): number {
  let depth = 0;
  let max = 0;
  let quoted = false;
  for (let i = 0; i < source.length; i += 1) {
    const c = source.charCodeAt(i);
    if (quoted) {
      if (c === 0x27) quoted = false;
    } else if (c === 0x5c) i += 1;
    else if (c === 0x27) quoted = true;
    else if (c === 0x28) max = Math.max(max, ++depth);
    else if (c === 0x29 && depth > 0) depth -= 1;
  }
  return max;
}
