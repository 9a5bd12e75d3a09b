// The human trace of `hooks run --verbose`: one line per hook on stderr.
import type { HookResult, Outcome } from '../decide/combine.js';
import { outcomeOf } from '../decide/combine.js';
import { createStyle, type Paint } from './style.js';
import { judgeLine } from '../judge/note.js';

export interface Reporter {
  hook(result: HookResult): void;
  skipped(id: string, why: string): void;
  /** A hook the run never got to: the chain ended at a block or halt before it. */
  notReached(id: string, why: string): void;
  line(text: string): void;
}

/** A reporter writing to `write`, in colour when `colour` is true. */
export function createReporter(write: (text: string) => void, colour: boolean): Reporter {
  const s = createStyle(colour);
  const paint: Record<Outcome, Paint> = { continue: s.green, allow: s.green, modify: s.cyan, ask: s.yellow, block: s.red, halt: s.magenta };
  return {
    hook(result) {
      const outcome = outcomeOf(result.reply);
      const status = result.failure === undefined ? paint[outcome](outcome) : `${paint[outcome](outcome)} ${s.red(`(failed: ${result.failure.kind})`)}`;
      const audit = result.wouldHave === undefined ? '' : s.yellow(` (audit: would ${outcomeOf(result.wouldHave)})`);
      const reason = result.failure?.message ?? result.wouldHave?.reason ?? result.reply.reason;
      const where = s.dim(`${result.source.layer} ${result.source.key}`);
      const judge = result.judge === undefined ? '' : ` ${s.dim(judgeLine(result.judge))}`;
      write(`hooks: ${s.bold(result.id)} ${status}${audit} ${s.dim(`${result.ms}ms`)} ${where}${judge}${reason ? ` ${s.dim('—')} ${reason}` : ''}\n`);
    },
    skipped(id, why) {
      write(s.dim(`hooks: ${id} skipped — ${why}`) + '\n');
    },
    notReached(id, why) {
      write(s.dim(`hooks: ${id} not reached — ${why}`) + '\n');
    },
    line(text) {
      write(`${text}\n`);
    },
  };
}
