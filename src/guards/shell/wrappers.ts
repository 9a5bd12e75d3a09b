// Peels off commands that only run another command (`sudo rm …` is `rm …` to the rules).
import { type OptionGrammar, readOptions, hasOption } from './options.js';
import { programName } from './program.js';
import type { ShellWord } from './types.js';
import { launcherCode } from './launchers.js';

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
  /**
   * GNU parallel runs its command through the shell once per input: the inputs after `:::`
   * when given literally, else undefined (read from stdin or a file).
   */
  parallel?: { inputs: string[] | undefined };
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
  strace: { grammar: { shortWithValue: 'abeEIoOpPsSuUX', longWithValue: ['output', 'trace', 'signal', 'user', 'env', 'string-limit'] } },
  ltrace: { grammar: { shortWithValue: 'aAeDInopsSuwx' } },
  valgrind: { grammar: {} },
  unshare: { grammar: { shortWithValue: 'RwSG', longWithValue: ['root', 'wd', 'setuid', 'setgid'] } },
  nsenter: { grammar: { shortWithValue: 'tSGrwe', longWithValue: ['target', 'setuid', 'setgid', 'root', 'wd', 'env'] } },
  flock: { grammar: { shortWithValue: 'wE', longWithValue: ['timeout', 'wait', 'conflict-exit-code'] }, positional: 1 },
  taskset: { grammar: {}, positional: 1, notRunShort: 'p', notRunLong: ['pid'] },
  chrt: { grammar: {}, positional: 1, notRunShort: 'pm', notRunLong: ['pid', 'max'] },
  prlimit: { grammar: {}, notRunShort: 'p', notRunLong: ['pid'] },
  'systemd-run': { grammar: { shortWithValue: 'upEMHd', longWithValue: ['unit', 'property', 'setenv', 'uid', 'gid', 'slice', 'description', 'working-directory', 'machine', 'host', 'on-calendar', 'on-active'] } },
  'systemd-inhibit': { grammar: { longWithValue: ['what', 'who', 'why', 'mode'] } },
  fakeroot: { grammar: { shortWithValue: 'lsi' } },
  faketime: { grammar: { shortWithValue: 'm' }, positional: 1 },
  firejail: { grammar: {} },
  gosu: { grammar: {}, positional: 1 },
  'su-exec': { grammar: {}, positional: 1 },
  setpriv: { grammar: {} },
  pkexec: { grammar: { longWithValue: ['user'] } },
  'dbus-run-session': { grammar: { longWithValue: ['config-file', 'dbus-daemon'] } },
  'xvfb-run': { grammar: { shortWithValue: 'nsfpe', longWithValue: ['server-num', 'server-args', 'auth-file', 'xauth-protocol', 'error-file'] } },
  proxychains: { grammar: { shortWithValue: 'f' } },
  proxychains4: { grammar: { shortWithValue: 'f' } },
  torsocks: { grammar: { shortWithValue: 'uapP' } },
  tsocks: { grammar: {} },
  chronic: { grammar: {} },
  catchsegv: { grammar: {} },
  eatmydata: { grammar: {} },
  nocache: { grammar: {} },
  cpulimit: { grammar: { shortWithValue: 'lpe', longWithValue: ['limit', 'pid', 'exe'] } },
  screen: { grammar: { shortWithValue: 'SceHhpsTtX', longWithValue: [] }, notRunShort: 'lrRxXQ', notRunLong: ['list'] },
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
    const launched = launcherCode(out.words);
    if (launched) {
      out.wrappers.push(name);
      out.words = launched;
      continue;
    }
    if (name === 'parallel') return parallel(out, name);
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

const PARALLEL: OptionGrammar = {
  shortWithValue: 'jPSadInNLEW',
  longWithValue: ['jobs', 'sshlogin', 'arg-file', 'delimiter', 'colsep', 'max-args', 'max-lines', 'delay', 'timeout', 'joblog', 'results', 'tmpdir', 'eof', 'env', 'halt', 'retries', 'tag-string', 'workdir', 'basefile', 'return', 'transfer-file', 'load', 'memfree'],
};

/** `parallel [options] command ::: inputs`: the command and, when literal, its inputs. */
function parallel(out: Unwrapped, name: string): Unwrapped {
  const values = out.words.map((w) => w.value);
  const parsed = readOptions(values, 1, PARALLEL);
  const fromFile = parsed.options.some((o) => o.name === 'a' || o.name === 'arg-file');
  const rest = out.words.slice(parsed.next);
  const marker = rest.findIndex((w) => /^:::+\+?$/.test(w.value));
  const command = marker === -1 ? rest : rest.slice(0, marker);
  const inputs = marker === -1 || fromFile || rest[marker]!.value.startsWith('::::')
    ? undefined
    : rest.slice(marker + 1).filter((w) => !/^:::+\+?$/.test(w.value));
  out.wrappers.push(name);
  out.words = command;
  out.parallel = { inputs: inputs?.every((w) => w.literal) ? inputs.map((w) => w.value) : undefined };
  return out;
}

/** `nice -10 cmd` uses a bare number as an option. */
function niceDigits(name: string, values: string[], grammar: OptionGrammar): OptionGrammar {
  if (name !== 'nice' || !/^-\d+$/.test(values[1] ?? '')) return grammar;
  return { ...grammar, shortWithValue: `${grammar.shortWithValue ?? ''}0123456789` };
}
