// Warnings as every dialect writes them: one `agent-hooks: ` line each.

/** For stderr: one line per warning, each ending in a newline; empty when there are none. */
export function warningLines(warnings: readonly string[]): string {
  return warnings.map((w) => `agent-hooks: ${w}\n`).join('');
}

/** For a JSON `systemMessage`: the same lines, joined, without the last newline. */
export function systemMessage(warnings: readonly string[]): string {
  return warnings.map((w) => `agent-hooks: ${w}`).join('\n');
}

/**
 * The decision's warnings and the hooks' own messages for the user (`systemMessages`, when the decision
 * carries them), for dialects that have one channel for both.
 */
export function userWarnings(decision: { warnings: readonly string[] }): string[] {
  const messages = (decision as { systemMessages?: readonly string[] }).systemMessages ?? [];
  return [...decision.warnings, ...messages];
}
