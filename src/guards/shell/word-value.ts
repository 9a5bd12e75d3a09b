// Turns an unbash Word into a ShellWord: quotes removed, statically known parts expanded.
import type { DoubleQuotedChild, ParsedScript, Word, WordPart } from 'unbash';
import type { CommandOutput, Produced, ShellWord, SimpleCommand } from './types.js';

/** A variable whose value the walker knows from an earlier `X=…` in the same command. */
export interface KnownValue {
  value: string;
  literal: boolean;
  collapsed: string | undefined;
  unknownVars: boolean;
  unknownCommands: boolean;
  /** The value is the output of a command that is not known (`d=$(tool)`). */
  output?: CommandOutput;
}

/** What resolving a word needs from the walker. */
export interface WordScope {
  lookup(name: string): KnownValue | undefined;
  cwd: string | undefined;
  /** Walks a substitution's script (its commands are judged too) and returns what it ran. */
  substitute(script: ParsedScript | undefined, kind: 'command' | 'process'): SimpleCommand[];
  /** What the commands of a substitution print (`from` names it). */
  produced(commands: SimpleCommand[], from: string): Produced;
}

interface Acc {
  value: string;
  /** Every value the word takes once unquoted brace expansions are applied (bounded). */
  alternatives: string[] | undefined;
  opaque: string | undefined;
  glob: boolean;
  collapsed: string | undefined;
  literal: boolean;
  unknownVars: boolean;
  unknownCommands: boolean;
  processSubstitution: boolean;
  subCommands: SimpleCommand[];
  /** Unknown command outputs the word is made of. */
  outputs: CommandOutput[];
  /** Parts other than unknown outputs and `/`: when there are none, the word is one output. */
  other: number;
  /** What a process substitution prints, when known. */
  prints: string | undefined;
}

const HOME: KnownValue = { value: '~', literal: true, collapsed: '~', unknownVars: false, unknownCommands: false };

function knownLiteral(value: string): KnownValue {
  return { value, literal: true, collapsed: value, unknownVars: false, unknownCommands: false };
}

export function resolveWord(word: Word, scope: WordScope): ShellWord {
  const acc: Acc = {
    value: '',
    alternatives: undefined,
    opaque: undefined,
    glob: false,
    collapsed: '',
    literal: true,
    unknownVars: false,
    unknownCommands: false,
    processSubstitution: false,
    subCommands: [],
    outputs: [],
    other: 0,
    prints: undefined,
  };
  const parts: readonly WordPart[] = word.parts ?? [
    { type: 'Literal', value: word.value, text: word.text, pos: word.pos, end: word.end },
  ];
  parts.forEach((part, index) => addPart(acc, part, scope, index === 0));
  if (!acc.literal && acc.opaque === undefined && WHOLE_CWD.test(word.text)) {
    acc.opaque = `${word.text} is the working directory, which is not known`;
  }
  const output = acc.outputs.length === 1 && acc.other === 0 ? acc.outputs[0] : undefined;
  return {
    ...(output !== undefined ? { output } : {}),
    ...(acc.prints !== undefined ? { prints: acc.prints } : {}),
    ...(acc.opaque !== undefined ? { opaque: acc.opaque } : {}),
    ...(acc.glob ? { glob: true } : {}),
    ...(acc.alternatives !== undefined && acc.alternatives.length !== 1 ? { alternatives: acc.alternatives } : {}),
    value: acc.value,
    literal: acc.literal,
    collapsed: acc.collapsed,
    unknownVars: acc.unknownVars,
    unknownCommands: acc.unknownCommands,
    processSubstitution: acc.processSubstitution,
    subCommands: acc.subCommands,
    text: word.text,
  };
}

/** A word built by the walker itself (split code strings, xargs input). */
export function literalWord(value: string): ShellWord {
  return {
    value,
    literal: true,
    collapsed: value,
    unknownVars: false,
    unknownCommands: false,
    processSubstitution: false,
    subCommands: [],
    text: value,
  };
}

/** `$PWD`, `${PWD}`, `"$(pwd)"`, `~+` as a whole word: the directory itself. */
const WHOLE_CWD = /^"?(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|~\+\/?)"?$/;

/** Most words one brace expansion may produce before the word is given up on. */
const MAX_ALTERNATIVES = 64;

/** Text that leaves a word one output still: `"$(tool)"/`, `"$d"/*` (everything in it). */
const OUTPUT_TAIL = /^(\/+\.?\*?)*$/;

function append(acc: Acc, text: string): void {
  if (!OUTPUT_TAIL.test(text)) acc.other += 1;
  acc.value += text;
  if (acc.alternatives) acc.alternatives = acc.alternatives.map((a) => a + text);
}

function addKnown(acc: Acc, known: KnownValue): void {
  if (known.output) {
    acc.outputs.push(known.output);
    acc.value += known.value;
    if (acc.alternatives) acc.alternatives = acc.alternatives.map((a) => a + known.value);
  } else append(acc, known.value);
  acc.literal &&= known.literal;
  acc.unknownVars ||= known.unknownVars;
  acc.unknownCommands ||= known.unknownCommands;
  acc.collapsed = acc.collapsed === undefined || known.collapsed === undefined
    ? undefined
    : acc.collapsed + known.collapsed;
}

function addText(acc: Acc, text: string): void {
  append(acc, text);
  if (acc.collapsed !== undefined) acc.collapsed += text;
}

function addUnknown(acc: Acc, text: string, collapsed: string | undefined, kind: 'var' | 'command', output?: CommandOutput): void {
  if (output) {
    acc.outputs.push(output);
    acc.value += text;
    if (acc.alternatives) acc.alternatives = acc.alternatives.map((a) => a + text);
  } else append(acc, text);
  acc.literal = false;
  if (kind === 'var') acc.unknownVars = true;
  else acc.unknownCommands = true;
  acc.collapsed = acc.collapsed === undefined || collapsed === undefined ? undefined : acc.collapsed + collapsed;
}

function addPart(acc: Acc, part: WordPart | DoubleQuotedChild, scope: WordScope, first: boolean): void {
  switch (part.type) {
    case 'Literal':
      if (first && part.text.startsWith('~')) addTilde(acc, part.value, scope);
      else addText(acc, part.value);
      return;
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      addText(acc, part.value);
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      for (const child of part.parts) addPart(acc, child, scope, false);
      return;
    case 'Glob':
      acc.glob = true;
      addText(acc, part.text);
      return;
    case 'ExtendedGlob':
      acc.glob = true;
      substituteWithin(acc, part.parts, scope);
      addText(acc, part.text);
      return;
    case 'BraceExpansion':
      addBraces(acc, part);
      substituteWithin(acc, part.parts, scope);
      return;
    case 'SimpleExpansion':
      addVariable(acc, part.text.slice(1), part.text, scope);
      return;
    case 'ParameterExpansion':
      addParameter(acc, part, scope);
      return;
    case 'ArithmeticExpansion':
      // `$(( $(rm -rf ~) ))`: substitutions inside arithmetic run too.
      substituteWithin(acc, part.expression, scope);
      addUnknown(acc, part.text, '0', 'var');
      return;
    case 'CommandExpansion': {
      const commands = scope.substitute(part.script, 'command');
      acc.subCommands.push(...commands);
      const produced = scope.produced(commands, part.text);
      if ('value' in produced) addKnown(acc, knownLiteral(produced.value));
      else {
        const broad = commands.flatMap((c) => c.words.slice(1)).find((w) => isBroadPath(w.value) || w.opaque !== undefined);
        if (broad) acc.opaque ??= `${part.text} is computed from ${broad.value}`;
        addUnknown(acc, part.text, '', 'command', produced.output);
      }
      return;
    }
    case 'ProcessSubstitution': {
      const commands = scope.substitute(part.script, 'process');
      acc.subCommands.push(...commands);
      const produced = scope.produced(commands, part.text);
      if ('value' in produced) acc.prints = produced.value;
      acc.processSubstitution = true;
      addUnknown(acc, part.text, '/dev/fd/63', 'command');
      return;
    }
  }
}

/** `~` and `~user` both name a home directory; either is "home" to the rules. */
function addTilde(acc: Acc, literal: string, scope: WordScope): void {
  const slash = literal.indexOf('/');
  const head = slash === -1 ? literal : literal.slice(0, slash);
  const rest = slash === -1 ? '' : literal.slice(slash);
  const oldpwd = head === '~-' ? scope.lookup('OLDPWD') : undefined;
  if (head === '~+' && scope.cwd !== undefined) addKnown(acc, knownLiteral(scope.cwd));
  else if (oldpwd) addKnown(acc, oldpwd);
  else if (head === '~+' || head === '~-') {
    acc.opaque ??= `${head} is a directory that is not known`;
    addUnknown(acc, head, '', 'var');
  } else addKnown(acc, HOME);
  addText(acc, rest);
}

function addVariable(acc: Acc, name: string, text: string, scope: WordScope): void {
  const known = lookupSpecial(name, scope);
  if (known) addKnown(acc, known);
  else {
    if (/^[@*\d]$/.test(name)) acc.opaque ??= `${text} is a positional parameter`;
    addUnknown(acc, text, '', 'var');
  }
}

function lookupSpecial(name: string, scope: WordScope): KnownValue | undefined {
  const known = scope.lookup(name);
  if (known) return known;
  if (name === 'HOME') return HOME;
  // `$SHELL -c …`, `curl … | $SHELL`: whatever the user's shell is, it is a shell.
  if (name === 'SHELL') return knownLiteral('/bin/sh');
  if (name === 'BASH') return knownLiteral('/bin/bash');
  if (name === 'PWD' && scope.cwd !== undefined) {
    return knownLiteral(scope.cwd);
  }
  return undefined;
}

function addParameter(
  acc: Acc,
  part: Extract<WordPart, { type: 'ParameterExpansion' }>,
  scope: WordScope,
): void {
  const op = part.operation;
  substituteWithin(acc, part.index, scope);
  if (op !== undefined && op.type !== 'Default') substituteWithin(acc, op, scope);
  if (part.prefix === '!') {
    acc.opaque ??= `${part.text} is an indirect expansion`;
    addUnknown(acc, part.text, '', 'var');
    return;
  }
  if (part.index !== undefined && part.prefix === undefined && op === undefined) {
    addArrayElement(acc, part, scope);
    return;
  }
  const plain = part.prefix === undefined && part.index === undefined;
  const known = plain ? lookupSpecial(part.parameter, scope) : undefined;
  if (/^[@*\d]$/.test(part.parameter) && !known) acc.opaque ??= `${part.text} is a positional parameter`;
  if (plain && op === undefined) {
    if (known) addKnown(acc, known);
    else addUnknown(acc, part.text, '', 'var');
    return;
  }
  if (plain && op?.type === 'Default') {
    const operand = resolveWord(op.operand, scope);
    acc.subCommands.push(...operand.subCommands);
    if (op.operator.endsWith('?')) {
      // `${X:?}` aborts when X is unset or empty, so the word can never collapse.
      if (known) addKnown(acc, known);
      else addUnknown(acc, part.text, undefined, 'var');
      return;
    }
    if (op.operator.endsWith('+')) {
      addUnknown(acc, part.text, '', 'var');
      return;
    }
    if (known && known.value !== '') addKnown(acc, known);
    else addUnknown(acc, part.text, operand.collapsed, 'var');
    return;
  }
  // `${HOME%/}`, `${HOME:0:1}`, `${X^^}` of a known dangerous value: not evaluated, so not trusted.
  if (known && (isBroadPath(known.value) || known.value.startsWith('~'))) acc.opaque ??= `${part.text} is computed from ${known.value}`;
  addUnknown(acc, part.text, '', 'var');
}

/** `${arr[@]}`, `${arr[0]}` of an array assigned earlier in the command; anything else is opaque. */
function addArrayElement(acc: Acc, part: Extract<WordPart, { type: 'ParameterExpansion' }>, scope: WordScope): void {
  const known = scope.lookup(part.parameter);
  const index = part.index?.text ?? '';
  if (known && known.literal) {
    const fields = known.value.split(/\s+/).filter((f) => f !== '');
    if (index === '@' || index === '*') {
      addKnown(acc, known);
      return;
    }
    if (/^\d+$/.test(index)) {
      addKnown(acc, knownLiteral(fields[Number(index)] ?? ''));
      return;
    }
  }
  acc.opaque ??= `${part.text} is an array element that is not known`;
  addUnknown(acc, part.text, '', 'var');
}

/**
 * Substitutions in places the word grammar does not surface directly (arithmetic, array
 * subscripts, slice offsets, brace and extglob contents): found with an explicit stack, so a
 * deep expression cannot overflow the call stack, and judged like any other.
 */
function substituteWithin(acc: Acc, root: unknown, scope: WordScope): void {
  if (root === undefined || root === null) return;
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if ((visited += 1) > 100_000) throw new RangeError('expression too large');
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    const type = record.type;
    if (type === 'CommandExpansion' || type === 'ArithmeticCommandExpansion' || type === 'ProcessSubstitution') {
      const commands = scope.substitute(record.script as ParsedScript | undefined, type === 'ProcessSubstitution' ? 'process' : 'command');
      acc.subCommands.push(...commands);
      acc.unknownCommands = true;
      continue;
    }
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'script' && typeof value === 'object') stack.push(value);
    }
    // unbash's Word computes `parts` lazily, on its prototype.
    if (!Object.hasOwn(record, 'parts') && 'parts' in record) stack.push(record.parts);
  }
}

/** Applies one unquoted brace expansion to every value the word has so far. */
function addBraces(acc: Acc, part: Extract<WordPart, { type: 'BraceExpansion' }>): void {
  // Long or nested groups are not expanded: the expansion itself could be slow or huge.
  const expanded = part.parts === undefined && part.text.length <= 1024 ? expandBraces(part.text) : undefined;
  if (expanded === undefined) {
    acc.opaque ??= `${part.text} is a brace expansion that is not evaluated`;
    addText(acc, part.text);
    return;
  }
  const before = acc.alternatives ?? [acc.value];
  const next: string[] = [];
  for (const b of before) for (const e of expanded) next.push(b + e);
  if (next.length > MAX_ALTERNATIVES) {
    acc.opaque ??= `${part.text} expands to more than ${MAX_ALTERNATIVES} words`;
    addText(acc, part.text);
    return;
  }
  acc.value += part.text;
  acc.other += 1;
  if (acc.collapsed !== undefined) acc.collapsed += part.text;
  acc.alternatives = next;
}

/**
 * Bash brace expansion of a literal `{…}` group: `{a,b}`, nested `{a,{b,c}}`, sequences
 * `{1..3}`, `{a..c}`, `{0..10..5}`. Undefined when it is too large to expand.
 */
export function expandBraces(text: string, budget = { left: MAX_ALTERNATIVES * 4 }): string[] | undefined {
  const open = findBraceGroup(text);
  if (open === undefined) return [text];
  if (open === 'too-large') return undefined;
  const { start, end, items } = open;
  const prefix = text.slice(0, start);
  const suffix = text.slice(end + 1);
  const middles: string[] = [];
  for (const item of items) {
    const inner = expandBraces(item, budget);
    if (inner === undefined) return undefined;
    middles.push(...inner);
  }
  const tails = expandBraces(suffix, budget);
  if (tails === undefined) return undefined;
  const out: string[] = [];
  for (const m of middles) {
    for (const t of tails) {
      if ((budget.left -= 1) < 0) return undefined;
      out.push(prefix + m + t);
    }
  }
  return out;
}

/** The first brace group that expands: its bounds and its comma-separated (or sequence) items. */
function findBraceGroup(text: string): { start: number; end: number; items: string[] } | 'too-large' | undefined {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i += 1) {
      const c = text[i];
      if (c === '\\') {
        i += 1;
        continue;
      }
      if (c === '{') depth += 1;
      else if (c === '}') {
        depth -= 1;
        if (depth === 0) {
          const body = text.slice(start + 1, i);
          if (commas.length > 0) {
            const items: string[] = [];
            let from = start + 1;
            for (const comma of commas) {
              items.push(text.slice(from, comma));
              from = comma + 1;
            }
            items.push(text.slice(from, i));
            return { start, end: i, items };
          }
          const sequence = expandSequence(body);
          if (sequence === 'too-large') return sequence;
          if (sequence !== undefined) return { start, end: i, items: sequence };
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

function expandSequence(body: string): string[] | 'too-large' | undefined {
  const m = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const [, from = '', to = '', stepText] = m;
  const numeric = /\d/.test(from);
  if (numeric !== /\d/.test(to)) return undefined;
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  if (Math.abs(b - a) / step > MAX_ALTERNATIVES) return 'too-large';
  const out: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/** `/`, `~`, `..`, a top-level directory such as `/etc`: paths a computed word must not come from. */
export function isBroadPath(value: string): boolean {
  if (value === '' || value.startsWith('-')) return false;
  if (value === '~' || value === '~/' || value.startsWith('~+') || value.startsWith('~-')) return true;
  const path = value.replace(/\/+/g, '/');
  if (path === '/' || /^\/[^/]+\/?$/.test(path)) return true;
  return /^(\.\.\/?)+$/.test(path);
}

/** What `echo`/`printf` with literal arguments print, or undefined when it is not that simple. */
export function staticPrint(argv: string[]): string | undefined {
  const [program, ...args] = argv;
  if (program === 'echo') {
    let escapes = false;
    while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
      escapes = args[0].includes('e');
      args.shift();
    }
    const text = args.join(' ');
    return escapes ? decodeEscapes(text) : text;
  }
  if (program === 'printf') {
    const [format, ...values] = args;
    if (format === undefined || format.startsWith('-')) return undefined;
    let next = 0;
    let failed = false;
    const out = format.replace(/%(.)/g, (match, spec: string) => {
      if (spec === '%') return '%';
      if (spec === 's' || spec === 'b') return values[next++] ?? '';
      failed = true;
      return match;
    });
    if (failed || next < values.length) return undefined;
    return decodeEscapes(out);
  }
  return undefined;
}

function decodeEscapes(text: string): string {
  return text.replace(/\\(0?[0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/g, (_, esc: string) => {
    if (esc.startsWith('x')) return String.fromCharCode(parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', v: '\v', f: '\f' };
    return simple[esc] ?? `\\${esc}`;
  });
}
