// A function that starts itself at least twice, at least once concurrently, grows exponentially.
import type { ShellAnalysis } from '../../shell/types.js';
import type { Finding } from '../finding.js';

export function forkBombRule(analysis: ShellAnalysis): Finding | undefined {
  for (const fn of analysis.functions) {
    const name = fn.name.toLowerCase();
    const calls = analysis.commands.filter((c) => c.inFunction === fn.name && c.argv[0] === name);
    const first = calls[0];
    if (first && calls.length >= 2 && calls.some((c) => c.concurrent)) {
      return {
        category: 'fork-bomb',
        what: `function ${fn.name} starts itself ${calls.length} times in the background`,
        command: { ...first, anchor: fn.anchor, source: fn.source },
      };
    }
  }
  return undefined;
}
