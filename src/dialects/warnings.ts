// Warnings as every dialect writes them: one `agent-hooks: ` line each.

/** For stderr: one line per warning, each ending in a newline; empty when there are none. */
export function warningLines(warnings: readonly string[]): string {
  return warnings.map((w) => `agent-hooks: ${w}\n`).join('');
}

/** For a JSON `systemMessage`: the same lines, joined, without the last newline. */
export function systemMessage(warnings: readonly string[]): string {
  return warnings.map((w) => `agent-hooks: ${w}`).join('\n');
}
