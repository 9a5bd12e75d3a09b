// Turns an unbash Word into a ShellWord: quotes removed, statically known parts expanded.
import type { DoubleQuotedChild, ParsedScript, Word, WordPart } from 'unbash';
import type { ShellWord, SimpleCommand } from './types.js';

/** A variable whose value the walker knows from an earlier `X=…` in the same command. */
export interface KnownValue {
  value: string;
  literal: boolean;
  collapsed: string | undefined;
  unknownVars: boolean;
  unknownCommands: boolean;
}

/** What resolving a word needs from the walker. */
export interface WordScope {
  lookup(name: string): KnownValue | undefined;
  cwd: string | undefined;
  /** Walks a substitution's script (its commands are judged too) and returns what it ran. */
  substitute(script: ParsedScript | undefined, kind: 'command' | 'process'): SimpleCommand[];
}

interface Acc {
  value: string;
  collapsed: string | undefined;
  literal: boolean;
  unknownVars: boolean;
  unknownCommands: boolean;
  processSubstitution: boolean;
  subCommands: SimpleCommand[];
}

const HOME: KnownValue = { value: '~', literal: true, collapsed: '~', unknownVars: false, unknownCommands: false };

function knownLiteral(value: string): KnownValue {
  return { value, literal: true, collapsed: value, unknownVars: false, unknownCommands: false };
}

export function resolveWord(word: Word, scope: WordScope): ShellWord {
  const acc: Acc = {
    value: '',
    collapsed: '',
    literal: true,
    unknownVars: false,
    unknownCommands: false,
    processSubstitution: false,
    subCommands: [],
  };
  const parts: readonly WordPart[] = word.parts ?? [
    { type: 'Literal', value: word.value, text: word.text, pos: word.pos, end: word.end },
  ];
  parts.forEach((part, index) => addPart(acc, part, scope, index === 0));
  return {
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

function addKnown(acc: Acc, known: KnownValue): void {
  acc.value += known.value;
  acc.literal &&= known.literal;
  acc.unknownVars ||= known.unknownVars;
  acc.unknownCommands ||= known.unknownCommands;
  acc.collapsed = acc.collapsed === undefined || known.collapsed === undefined
    ? undefined
    : acc.collapsed + known.collapsed;
}

function addText(acc: Acc, text: string): void {
  acc.value += text;
  if (acc.collapsed !== undefined) acc.collapsed += text;
}

function addUnknown(acc: Acc, text: string, collapsed: string | undefined, kind: 'var' | 'command'): void {
  acc.value += text;
  acc.literal = false;
  if (kind === 'var') acc.unknownVars = true;
  else acc.unknownCommands = true;
  acc.collapsed = acc.collapsed === undefined || collapsed === undefined ? undefined : acc.collapsed + collapsed;
}

function addPart(acc: Acc, part: WordPart | DoubleQuotedChild, scope: WordScope, first: boolean): void {
  switch (part.type) {
    case 'Literal':
      if (first && part.text.startsWith('~')) addTilde(acc, part.value);
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
    case 'ExtendedGlob':
    case 'BraceExpansion':
      addText(acc, part.text);
      return;
    case 'SimpleExpansion':
      addVariable(acc, part.text.slice(1), part.text, scope);
      return;
    case 'ParameterExpansion':
      addParameter(acc, part, scope);
      return;
    case 'ArithmeticExpansion':
      addUnknown(acc, part.text, '0', 'var');
      return;
    case 'CommandExpansion': {
      const commands = scope.substitute(part.script, 'command');
      acc.subCommands.push(...commands);
      const output = staticOutput(part.script, commands, scope);
      if (output !== undefined) addKnown(acc, knownLiteral(output));
      else addUnknown(acc, part.text, '', 'command');
      return;
    }
    case 'ProcessSubstitution': {
      acc.subCommands.push(...scope.substitute(part.script, 'process'));
      acc.processSubstitution = true;
      addUnknown(acc, part.text, '/dev/fd/63', 'command');
      return;
    }
  }
}

/** `~` and `~user` both name a home directory; either is "home" to the rules. */
function addTilde(acc: Acc, literal: string): void {
  const slash = literal.indexOf('/');
  const head = slash === -1 ? literal : literal.slice(0, slash);
  const rest = slash === -1 ? '' : literal.slice(slash);
  if (head === '~+' || head === '~-') addUnknown(acc, head, '', 'var');
  else addKnown(acc, HOME);
  addText(acc, rest);
}

function addVariable(acc: Acc, name: string, text: string, scope: WordScope): void {
  const known = lookupSpecial(name, scope);
  if (known) addKnown(acc, known);
  else addUnknown(acc, text, '', 'var');
}

function lookupSpecial(name: string, scope: WordScope): KnownValue | undefined {
  const known = scope.lookup(name);
  if (known) return known;
  if (name === 'HOME') return HOME;
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
  const plain = part.prefix === undefined && part.index === undefined;
  const known = plain ? lookupSpecial(part.parameter, scope) : undefined;
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
  addUnknown(acc, part.text, '', 'var');
}

/**
 * The output of `$(echo …)`, `$(printf …)` or `$(pwd)` when fully literal: these are how a
 * command name or target gets hidden (`$(echo rm) -rf /`), and they are cheap to evaluate.
 */
function staticOutput(
  script: ParsedScript | undefined,
  commands: SimpleCommand[],
  scope: WordScope,
): string | undefined {
  if (!script || script.commands.length !== 1 || commands.length !== 1) return undefined;
  const [command] = commands;
  if (!command || command.redirects.length > 0 || command.wrappers.length > 0) return undefined;
  if (!command.words.every((w) => w.literal)) return undefined;
  const output = staticPrint(command.argv);
  if (output !== undefined) return output.replace(/\n+$/, '');
  if (command.argv[0] === 'pwd' && command.argv.length === 1) return scope.cwd;
  return undefined;
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
