// A small argv parser: named positionals, `--flag value`, `--flag=value`, boolean flags, `--`.
import { HooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';

export interface ArgSpec {
  positional: string[];
  flags: Record<string, 'string' | 'boolean'>;
}

export interface ParsedArgs {
  positional: Record<string, string | undefined>;
  flags: Record<string, string | boolean | undefined>;
}

/** Parses argv against the spec; unknown flags and extra arguments are `USAGE` errors. */
export function parseArgs(argv: string[], spec: ArgSpec): ParsedArgs {
  const positional: Record<string, string | undefined> = {};
  const flags: Record<string, string | boolean | undefined> = {};
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      values.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      values.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = spec.flags[name];
    if (kind === undefined) {
      throw new HooksError('USAGE', `unknown option --${name}${didYouMean(name, Object.keys(spec.flags).map((f) => f))}`);
    }
    if (kind === 'boolean') {
      if (inline !== undefined) throw new HooksError('USAGE', `--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new HooksError('USAGE', `--${name} needs a value`);
    flags[name] = value;
  }
  if (values.length > spec.positional.length) {
    throw new HooksError('USAGE', `unexpected argument "${values[spec.positional.length]}"`);
  }
  spec.positional.forEach((name, i) => (positional[name] = values[i]));
  return { positional, flags };
}
