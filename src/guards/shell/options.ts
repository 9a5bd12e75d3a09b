// A getopt-style reader shared by the wrappers and the rules: `-abc`, `-ovalue`, `-o value`,
// `--long`, `--long=value`, `--long value`, `--`.

export interface OptionGrammar {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortWithValue?: string;
  /** Short options whose value is only ever attached (`xargs -i{}`, `sed -i.bak`). */
  shortOptionalValue?: string;
  /** Long options that take a value (`--user root`, `--user=root`), without the dashes. */
  longWithValue?: readonly string[];
  /** A lone `-` is an option (env) rather than an operand. */
  dashIsOption?: boolean;
}

export interface ParsedOption {
  /** `u` for `-u`, `user` for `--user`. */
  name: string;
  long: boolean;
  value?: string;
}

export interface ParsedOptions {
  options: ParsedOption[];
  /** Index of the first operand (the wrapped command, or the first file). */
  next: number;
}

/** Reads options from `args[start]` on, stopping at the first operand or after `--`. */
export function readOptions(args: readonly string[], start: number, grammar: OptionGrammar): ParsedOptions {
  const options: ParsedOption[] = [];
  let i = start;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') return { options, next: i + 1 };
    if (arg === '-' && grammar.dashIsOption) {
      options.push({ name: '-', long: false });
      i += 1;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) options.push({ name, long: true, value: arg.slice(eq + 1) });
      else if (grammar.longWithValue?.includes(name)) {
        options.push({ name, long: true, value: args[i + 1] ?? '' });
        i += 1;
      } else options.push({ name, long: true });
      i += 1;
      continue;
    }
    i += 1 + readCluster(arg, args[i + 1], grammar, options);
  }
  return { options, next: i };
}

/** Returns how many extra words the cluster consumed (0 or 1). */
function readCluster(
  arg: string,
  following: string | undefined,
  grammar: OptionGrammar,
  out: ParsedOption[],
): number {
  for (let j = 1; j < arg.length; j += 1) {
    const name = arg[j]!;
    const rest = arg.slice(j + 1);
    if (grammar.shortWithValue?.includes(name)) {
      if (rest !== '') {
        out.push({ name, long: false, value: rest });
        return 0;
      }
      out.push({ name, long: false, value: following ?? '' });
      return 1;
    }
    if (grammar.shortOptionalValue?.includes(name)) {
      out.push(rest === '' ? { name, long: false } : { name, long: false, value: rest });
      return 0;
    }
    out.push({ name, long: false });
  }
  return 0;
}

/** GNU tools accept any unambiguous prefix of a long option: `--recur` is `--recursive`. */
export function longMatches(given: string, full: string, minLength = 3): boolean {
  return given.length >= Math.min(minLength, full.length) && full.startsWith(given);
}

export function hasOption(parsed: ParsedOptions, short: string, long?: string): boolean {
  return parsed.options.some((o) =>
    o.long ? long !== undefined && longMatches(o.name, long) : short.includes(o.name),
  );
}
