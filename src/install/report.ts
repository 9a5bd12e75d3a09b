// An outcome as the lines the user reads: one per file, after the diff on a dry run.
import { label, type Outcome, type Where } from './index.js';

const UNCHANGED = { installed: 'agent-hooks is already installed', missing: 'not found', none: 'no agent-hooks entries in it' } as const;

/** The text for stdout. */
export function describe(outcome: Outcome, where: Where, dryRun: boolean): string {
  const name = label(outcome.file, where);
  if (outcome.action === 'unchanged') return `unchanged ${name}: ${UNCHANGED[outcome.why ?? 'none']}, nothing to do\n`;
  const what =
    outcome.removed === undefined
      ? `${count(outcome.entries ?? 0)} installed`
      : `${count(outcome.removed)} removed${outcome.action === 'removed' ? ', nothing else was in it' : ''}`;
  if (dryRun) {
    const verb = { created: 'create', updated: 'update', removed: 'remove' }[outcome.action];
    return `${outcome.diff}would ${verb} ${name}: ${what}; dry run, nothing written\n`;
  }
  const backup = outcome.backup === undefined ? '' : ` (backup: ${label(outcome.backup, where)})`;
  return `${outcome.action} ${name}: ${what}${backup}\n`;
}

function count(n: number): string {
  return `${n} agent-hooks ${n === 1 ? 'entry' : 'entries'}`;
}
