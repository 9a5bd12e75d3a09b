// A small argv parser: named positionals, a variadic rest, `--flag value`, `--flag=value`, boolean and
// repeatable flags, `--`.
import { HooksError } from '../errors.js';
import { closest } from '../suggest.js';

export interface ArgSpec {
  positional: string[];
  /** Name of a variadic positional taking every value after the named ones (`hooks test [paths...]`). */
  rest?: string;
  /** `list` flags may repeat (`--input a=1 --input b=2`) and collect into `lists`. */
  flags: Record<string, 'string' | 'boolean' | 'list'>;
}

export interface ParsedArgs {
  positional: Record<string, string | undefined>;
  rest: string[];
  flags: Record<string, string | boolean | undefined>;
  lists: Record<string, string[]>;
}

/** Parses argv against the spec; unknown flags and extra arguments are `USAGE` errors. */
export function parseArgs(argv: string[], spec: ArgSpec): ParsedArgs {
  const positional: Record<string, string | undefined> = {};
  const flags: Record<string, string | boolean | undefined> = {};
  const lists: Record<string, string[]> = {};
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
      throw new HooksError('USAGE', `unknown option --${name}${suggestFlag(name, Object.keys(spec.flags))}`);
    }
    if (kind === 'boolean') {
      if (inline !== undefined) throw new HooksError('USAGE', `--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new HooksError('USAGE', `--${name} needs a value`);
    if (kind === 'list') (lists[name] ??= []).push(value);
    else flags[name] = value;
  }
  if (spec.rest === undefined && values.length > spec.positional.length) {
    throw new HooksError('USAGE', `unexpected argument "${values[spec.positional.length]}"`);
  }
  spec.positional.forEach((name, i) => (positional[name] = values[i]));
  return { positional, rest: values.slice(spec.positional.length), flags, lists };
}

/** ` (did you mean "--verbose"?)` for a mistyped flag: the suggestion is what to type, dashes included. */
export function suggestFlag(name: string, flags: readonly string[]): string {
  const hit = closest(name, flags);
  return hit === undefined ? '' : ` (did you mean "--${hit}"?)`;
}
