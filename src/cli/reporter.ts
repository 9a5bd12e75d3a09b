// The human trace: one line per hook on stderr. The only module that uses kleur.
import kleur from 'kleur';
import type { HookResult, Outcome } from '../decide/combine.js';
import { outcomeOf } from '../decide/combine.js';

export interface Reporter {
  hook(result: HookResult): void;
  skipped(id: string, why: string): void;
  line(text: string): void;
}

/** A reporter writing to `write`; colours only when the stream is a TTY and NO_COLOR is unset. */
export function createReporter(write: (text: string) => void, colour: boolean): Reporter {
  kleur.enabled = colour;
  const paint: Record<Outcome, (s: string) => string> = {
    continue: kleur.green,
    allow: kleur.green,
    modify: kleur.cyan,
    ask: kleur.yellow,
    block: kleur.red,
    halt: kleur.magenta,
  };
  return {
    hook(result) {
      const outcome = outcomeOf(result.reply);
      const status = result.failure === undefined ? paint[outcome](outcome) : `${paint[outcome](outcome)} ${kleur.red(`(failed: ${result.failure.kind})`)}`;
      const audit = result.wouldHave === undefined ? '' : kleur.yellow(` (audit: would ${outcomeOf(result.wouldHave)})`);
      const reason = result.failure?.message ?? result.wouldHave?.reason ?? result.reply.reason;
      const where = kleur.dim(`${result.source.layer} ${result.source.key}`);
      write(`hooks: ${kleur.bold(result.id)} ${status}${audit} ${kleur.dim(`${result.ms}ms`)} ${where}${reason ? ` ${kleur.dim('—')} ${reason}` : ''}\n`);
    },
    skipped(id, why) {
      write(kleur.dim(`hooks: ${id} skipped — ${why}\n`));
    },
    line(text) {
      write(`${text}\n`);
    },
  };
}
