// Commands whose meaning is only known at run time, in places where that hides danger.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { DANGEROUS_TREE, isDevice, worstClass } from '../paths.js';
import { isDecoder, runsStdin } from '../streams.js';

/** Bash splits words on space, tab and newline only; these look like spaces but are not. */
const LOOKALIKE_SPACE = /[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]/;

export function unverifiableRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.words;
  if (program && LOOKALIKE_SPACE.test(program.value)) {
    return finding(cmd, 'the command name contains a character that looks like a space');
  }
  if (program && cmd.dynamicProgram) {
    // `$EDITOR file` is fine; `$X -rf /` is not, and neither is `eval "$X"`.
    const risky = cmd.words.slice(1).find((w) => DANGEROUS_TREE.has(worstClass(w, cmd.cwd).cls) || isDevice(w.value));
    if (risky) return finding(cmd, `program name ${program.value} is computed at run time, with argument ${risky.value}`);
    if (cmd.depth > 0 && program.unknownVars) return finding(cmd, `code comes from a variable (${program.value})`);
  }
  if (runsStdin(cmd)) {
    const decoder = cmd.pipedFrom.find(isDecoder);
    if (decoder) return finding(cmd, `output of ${decoder.argv[0]} piped into ${cmd.argv[0]}`, [decoder]);
    const printer = cmd.pipedFrom.find((c) => (c.argv[0] === 'echo' || c.argv[0] === 'printf') && c.words.some((w) => w.unknownVars || w.unknownCommands));
    if (printer) return finding(cmd, `code built at run time piped into ${cmd.argv[0]}`, [printer]);
  }
  return undefined;
}

function finding(cmd: SimpleCommand, what: string, involved?: SimpleCommand[]): Finding {
  return { category: 'unverifiable', what: `could not be verified: ${what}`, command: cmd, ...(involved ? { involved } : {}) };
}
