// Splits a command's arguments into options and operands the way GNU tools read them.
import { type OptionGrammar, type ParsedOption, longMatches } from '../shell/options.js';
import type { ShellWord, SimpleCommand } from '../shell/types.js';

export interface Args {
  options: ParsedOption[];
  operands: ShellWord[];
}

/** GNU tools accept options after operands (`rm / -rf`), so options are read anywhere before `--`. */
export function splitArgs(cmd: SimpleCommand, grammar: OptionGrammar = {}, from = 1): Args {
  const options: ParsedOption[] = [];
  const operands: ShellWord[] = [];
  const words = cmd.words;
  let ended = false;
  for (let i = from; i < words.length; i += 1) {
    const word = words[i]!;
    const arg = word.value;
    if (ended || !arg.startsWith('-') || arg === '-') {
      operands.push(word);
      continue;
    }
    if (arg === '--') {
      ended = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) options.push({ name, long: true, value: arg.slice(eq + 1) });
      else if (grammar.longWithValue?.includes(name)) {
        options.push({ name, long: true, value: words[i + 1]?.value ?? '' });
        i += 1;
      } else options.push({ name, long: true });
      continue;
    }
    for (let j = 1; j < arg.length; j += 1) {
      const name = arg[j]!;
      const rest = arg.slice(j + 1);
      if (grammar.shortWithValue?.includes(name)) {
        if (rest !== '') options.push({ name, long: false, value: rest });
        else {
          options.push({ name, long: false, value: words[i + 1]?.value ?? '' });
          i += 1;
        }
        break;
      }
      if (grammar.shortOptionalValue?.includes(name)) {
        options.push(rest === '' ? { name, long: false } : { name, long: false, value: rest });
        break;
      }
      options.push({ name, long: false });
    }
  }
  return { options, operands };
}

/** True when a short option in `short` or a (possibly abbreviated) long option `long` is set. */
export function has(args: Args, short: string, ...long: string[]): boolean {
  return args.options.some((o) => (o.long ? long.some((l) => longMatches(o.name, l)) : short.includes(o.name)));
}

export function optionValue(args: Args, short: string, ...long: string[]): string | undefined {
  return args.options.find((o) => (o.long ? long.some((l) => longMatches(o.name, l)) : short.includes(o.name)))?.value;
}

/** Redirection operators that write to their target. */
export function isWriteRedirect(op: string, target: string): boolean {
  if (op === '>&') return !/^(\d+|-)$/.test(target);
  return op === '>' || op === '>>' || op === '>|' || op === '&>' || op === '&>>' || op === '<>';
}
