// Variables set by commands rather than by `X=…`: `printf -v d %s ~`, `read -r d <<< ~`,
// `mapfile -t a < <(echo ~)`. A value hidden this way is as dangerous as one assigned, so the
// walker tracks it the same way; a value that cannot be known leaves the variable unknown.
import { readOptions } from './options.js';
import { commandOutput } from './output.js';
import type { ShellWord, SimpleCommand } from './types.js';
import { type KnownValue, staticPrint } from './word-value.js';

/** A variable a command sets: its value when known, else `undefined` (unknown from now on). */
export interface SetVariable {
  name: string;
  value: KnownValue | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables `cmd` sets in the shell that runs it; `previous` is the pipeline stage before it. */
export function variablesSetBy(cmd: SimpleCommand, previous: SimpleCommand[]): SetVariable[] {
  switch (cmd.argv[0]) {
    case 'printf':
      return printfV(cmd);
    case 'read':
      return read(cmd, previous);
    case 'mapfile':
    case 'readarray':
      return mapfile(cmd, previous);
    default:
      return [];
  }
}

function literal(value: string): KnownValue {
  return { value, literal: true, collapsed: value, unknownVars: false, unknownCommands: false };
}

/** What a shell word holds, as the value of a variable set from it. */
export function fromWord(word: ShellWord): KnownValue {
  return {
    value: word.value,
    literal: word.literal,
    collapsed: word.collapsed,
    unknownVars: word.unknownVars,
    unknownCommands: word.unknownCommands,
    ...(word.output ? { output: word.output } : {}),
  };
}

/** `printf -v name format args…`: the formatted text, or the one argument of `%s`. */
function printfV(cmd: SimpleCommand): SetVariable[] {
  const { argv, words } = cmd;
  if (argv[1] !== '-v' || argv[2] === undefined) return [];
  const name = argv[2].replace(/\[.*$/, '');
  if (!NAME.test(name)) return [];
  const rest = words.slice(3);
  if (rest[0]?.value === '--') rest.shift();
  if (rest.every((w) => w.literal)) {
    const printed = staticPrint(['printf', ...rest.map((w) => w.value)]);
    return [{ name, value: printed !== undefined ? literal(printed) : undefined }];
  }
  // `printf -v d %s "$(tool)"` is `d=$(tool)`.
  if (rest.length === 2 && rest[0]!.literal && rest[0]!.value === '%s') return [{ name, value: fromWord(rest[1]!) }];
  return [{ name, value: undefined }];
}

/** What the command reads on stdin, when known: a literal text, or one word (`<<< "$x"`). */
function stdin(cmd: SimpleCommand, previous: SimpleCommand[]): string | ShellWord | undefined {
  for (let i = cmd.redirects.length - 1; i >= 0; i -= 1) {
    const r = cmd.redirects[i]!;
    if (r.fd !== undefined && r.fd !== 0) continue;
    if (r.op === '<<<' && r.word) return r.word.literal ? `${r.word.value}\n` : r.word;
    if (r.op.startsWith('<<')) {
      if (r.expanded) return r.expanded.literal ? r.expanded.value : undefined;
      return r.body;
    }
    if (r.op === '<') return r.word?.prints !== undefined ? `${r.word.prints}\n` : undefined;
  }
  if (previous.length !== 1) return undefined;
  const produced = commandOutput(previous[0]!, '');
  return 'value' in produced ? `${produced.value}\n` : undefined;
}

function read(cmd: SimpleCommand, previous: SimpleCommand[]): SetVariable[] {
  const parsed = readOptions(cmd.argv, 1, { shortWithValue: 'adinNptu' });
  const array = parsed.options.find((o) => o.name === 'a')?.value;
  const names = array !== undefined ? [array] : cmd.argv.slice(parsed.next);
  if (names.length === 0) names.push('REPLY');
  const valid = names.filter((n) => NAME.test(n));
  const input = parsed.options.some((o) => 'inNu'.includes(o.name)) ? undefined : stdin(cmd, previous);
  if (input === undefined) return valid.map((name) => ({ name, value: undefined }));
  if (typeof input !== 'string') {
    // `read -r d <<< "$(tool)"` is `d=$(tool)`: whatever is known about the word carries over.
    return valid.map((name, i) => ({ name, value: i === 0 && valid.length === 1 ? fromWord(input) : undefined }));
  }
  const delimiter = parsed.options.find((o) => o.name === 'd')?.value;
  const end = delimiter === undefined ? input.indexOf('\n') : input.indexOf(delimiter === '' ? '\0' : delimiter[0]!);
  const record = end === -1 ? input : input.slice(0, end);
  const fields = record.split(/[ \t\n]+/).filter((f) => f !== '');
  if (array !== undefined) return [{ name: array, value: literal(fields.join(' ')) }];
  return valid.map((name, i) => ({
    name,
    // The last name takes the rest of the line.
    value: literal(i === valid.length - 1 ? fields.slice(i).join(' ') : fields[i] ?? ''),
  }));
}

function mapfile(cmd: SimpleCommand, previous: SimpleCommand[]): SetVariable[] {
  const parsed = readOptions(cmd.argv, 1, { shortWithValue: 'dnOsuCc' });
  const name = cmd.argv[parsed.next] ?? 'MAPFILE';
  if (!NAME.test(name)) return [];
  const input = parsed.options.some((o) => o.name === 'u') ? undefined : stdin(cmd, previous);
  if (typeof input !== 'string') return [{ name, value: undefined }];
  return [{ name, value: literal(input.split('\n').filter((l) => l !== '').join(' ')) }];
}
