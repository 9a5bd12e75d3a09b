// Budgets that keep a hostile command from turning the guard into the slow or crashing part.
import { now } from '../../clock.js';

export interface ShellLimits {
  /** Longest command accepted, in UTF-16 code units. */
  maxInputLength: number;
  /** Most AST nodes visited, over the command and everything parsed out of it. */
  maxNodes: number;
  /** Deepest nesting of parentheses (`$(`, `(`, `<(`) accepted before parsing. */
  maxParenNesting: number;
  /** Deepest AST nesting walked. */
  maxDepth: number;
  /** Deepest nesting of code strings (`bash -c "eval '…'"`). */
  maxCodeNesting: number;
  /**
   * Wall-clock budget for one analysis: a last resort only. The node and nesting limits bound the
   * work deterministically; a tight clock would block harmless commands whenever the machine is busy
   * or the process is cold (every `hooks run` is a fresh process), so it is generous.
   */
  maxMillis: number;
  /** Most iterations of a `for` loop over literal words that are walked one by one. */
  maxLoopUnroll: number;
}

export const DEFAULT_LIMITS: ShellLimits = Object.freeze({
  maxInputLength: 64 * 1024,
  maxNodes: 50_000,
  maxParenNesting: 48,
  maxDepth: 200,
  maxCodeNesting: 8,
  maxMillis: 2000,
  maxLoopUnroll: 16,
});

/** Thrown inside the walker; turned into an `{ ok: false }` result at the boundary. */
export class ShellAnalysisError extends Error {
  override readonly name = 'ShellAnalysisError';
}

/** Shared between a walk and the nested parses it starts. */
export class Budget {
  private nodes = 0;
  private readonly deadline: number;

  constructor(readonly limits: ShellLimits) {
    this.deadline = now() + limits.maxMillis;
  }

  /** Counts one node; checks the clock every 256 nodes, which keeps the check itself cheap. */
  tick(): void {
    this.nodes += 1;
    if (this.nodes > this.limits.maxNodes) {
      throw new ShellAnalysisError(`more than ${this.limits.maxNodes} syntax nodes`);
    }
    if ((this.nodes & 0xff) === 0) this.checkTime();
  }

  checkTime(): void {
    if (now() > this.deadline) {
      throw new ShellAnalysisError(`analysis took longer than ${this.limits.maxMillis} ms`);
    }
  }
}
