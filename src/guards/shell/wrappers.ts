// Peels off commands that only run another command (`sudo rm …` is `rm …` to the rules).
import { type OptionGrammar, readOptions, hasOption } from './options.js';
import { programName } from './program.js';
import type { ShellWord } from './types.js';

export interface Unwrapped {
  words: ShellWord[];
  wrappers: string[];
  /** `NAME=value` set by `env`/`sudo` for the wrapped command. */
  assignments: { name: string; value: string }[];
  /** Present when xargs runs the command with arguments read from stdin. */
  xargs?: { replace?: string };
  /** `env -S 'cmd args'` gives a command line as one string, split by env like a shell would. */
  splitString?: string;
  /** A wrapper that does not run its operand (`command -v rm`, `sudo -l`). */
  notRun: boolean;
}

interface WrapperSpec {
  grammar: OptionGrammar;
  /** Words between the options and the command (`timeout 5`, `chroot /mnt`). */
  positional?: number;
  /** Accepts `NAME=value` words before the command. */
  assignments?: boolean;
  /** These options mean the operand is not run as a command. */
  notRunShort?: string;
  notRunLong?: readonly string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    grammar: {
      shortWithValue: 'ugpChDrtTUR',
      longWithValue: ['user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'command-timeout', 'other-user', 'chroot'],
    },
    assignments: true,
    notRunShort: 'elvV',
    notRunLong: ['edit', 'list', 'validate', 'version', 'help'],
  },
  doas: { grammar: { shortWithValue: 'uC' } },
  env: {
    grammar: {
      shortWithValue: 'uCS',
      longWithValue: ['unset', 'chdir', 'split-string'],
      dashIsOption: true,
    },
    assignments: true,
  },
  command: { grammar: {}, notRunShort: 'vV' },
  builtin: { grammar: {} },
  exec: { grammar: { shortWithValue: 'a' } },
  nohup: { grammar: {} },
  setsid: { grammar: {} },
  nocorrect: { grammar: {} },
  noglob: { grammar: {} },
  time: { grammar: { shortWithValue: 'fo', longWithValue: ['format', 'output'] } },
  timeout: { grammar: { shortWithValue: 'sk', longWithValue: ['signal', 'kill-after'] }, positional: 1 },
  nice: { grammar: { shortWithValue: 'n', longWithValue: ['adjustment'] } },
  ionice: { grammar: { shortWithValue: 'cnpPu', longWithValue: ['class', 'classdata', 'pid', 'pgid', 'uid'] }, notRunShort: 'pPu', notRunLong: ['pid', 'pgid', 'uid'] },
  stdbuf: { grammar: { shortWithValue: 'ioe', longWithValue: ['input', 'output', 'error'] } },
  chroot: { grammar: { longWithValue: ['userspec', 'groups'] }, positional: 1 },
  unbuffer: { grammar: {} },
  caffeinate: { grammar: { shortWithValue: 'tw' } },
  busybox: { grammar: {} },
  toybox: { grammar: {} },
  xargs: {
    grammar: {
      shortWithValue: 'adEILnPs',
      shortOptionalValue: 'eil',
      longWithValue: ['arg-file', 'delimiter', 'eof', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    },
  },
};

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/** Unwraps as many wrapper layers as there are (bounded), outermost first. */
export function unwrap(input: ShellWord[]): Unwrapped {
  const out: Unwrapped = { words: input, wrappers: [], assignments: [], notRun: false };
  for (let layer = 0; layer < 32; layer += 1) {
    const first = out.words[0];
    if (!first || !first.literal) return out;
    const name = programName(first.value);
    const spec = WRAPPERS[name];
    if (!spec) return out;
    const values = out.words.map((w) => w.value);
    const parsed = readOptions(values, 1, niceDigits(name, values, spec.grammar));
    let next = parsed.next;
    if (spec.notRunShort !== undefined && hasOption(parsed, spec.notRunShort, undefined)) out.notRun = true;
    if (spec.notRunLong?.some((l) => hasOption(parsed, '', l))) out.notRun = true;
    if (name === 'env') {
      const split = parsed.options.find((o) => o.name === 'S' || o.name === 'split-string');
      if (split) out.splitString = split.value ?? '';
    }
    if (name === 'xargs') {
      const replace = parsed.options.find((o) => o.name === 'I' || o.name === 'i' || o.name === 'replace');
      out.xargs = replace ? { replace: replace.value ?? '{}' } : {};
    }
    next += spec.positional ?? 0;
    if (spec.assignments) {
      while (next < values.length) {
        const m = ASSIGNMENT.exec(values[next]!);
        if (!m) break;
        out.assignments.push({ name: m[1]!, value: m[2]! });
        next += 1;
      }
    }
    out.wrappers.push(name);
    out.words = out.words.slice(next);
    if (name === 'xargs' && out.words.length === 0) {
      out.words = [{ ...first, value: 'echo', text: 'echo', collapsed: 'echo' }];
    }
    if (out.notRun) return out;
  }
  return out;
}

/** `nice -10 cmd` uses a bare number as an option. */
function niceDigits(name: string, values: string[], grammar: OptionGrammar): OptionGrammar {
  if (name !== 'nice' || !/^-\d+$/.test(values[1] ?? '')) return grammar;
  return { ...grammar, shortWithValue: `${grammar.shortWithValue ?? ''}0123456789` };
}
