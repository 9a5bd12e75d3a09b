// Which commands fetch from the network, and which run what they read on stdin as code.
import { isInterpreter, isShell } from '../shell/program.js';
import type { SimpleCommand } from '../shell/types.js';

const FETCHERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'lwp-request', 'get', 'aria2c', 'axel', 'curlie']);
const NETCATS = /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|pwncat|socat|telnet|cryptcat|sbd)$/;
const DECODERS = /^(base64|base32|basenc|xxd|uudecode|openssl|rev|tr|gunzip|zcat|gzip|bzcat|bunzip2|xzcat|unxz|zstdcat|perl|python[\d.]*|ruby|node)$/;

export function isFetcher(cmd: SimpleCommand): boolean {
  return FETCHERS.has(cmd.argv[0] ?? '');
}

export function isNetworkTool(cmd: SimpleCommand): boolean {
  const [program] = cmd.argv;
  if (program === undefined) return false;
  return NETCATS.test(program) || (program === 'openssl' && cmd.argv[1] === 's_client');
}

export function isDecoder(cmd: SimpleCommand): boolean {
  return DECODERS.test(cmd.argv[0] ?? '');
}

/** Options after which an interpreter's program comes from the command line, not stdin. */
const INLINE_CODE = /^-(c|e|E|m|r|p|-eval|-print|-command|-module)$|^-[a-zA-Z]*[cemr]$/;

/**
 * A shell or interpreter that takes its program from stdin: no script operand and no inline
 * code (`bash`, `sh -s -- --flag`, `python3 -`, `node`). `source /dev/stdin` too.
 */
export function runsStdin(cmd: SimpleCommand): boolean {
  const [program, ...args] = cmd.argv;
  if (program === undefined) return false;
  if (program === 'source' || program === '.') return args[0] === '/dev/stdin' || args[0] === '-' || args[0] === '/proc/self/fd/0';
  const shell = isShell(program);
  if (!shell && !isInterpreter(program)) return false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-' || arg === '--' || arg === '/dev/stdin') return true;
    if (shell ? /^[-+][a-zA-Z]*c/.test(arg) && !arg.startsWith('--') : INLINE_CODE.test(arg)) return false;
    if (shell && /^-[a-zA-Z]*s/.test(arg)) return true;
    if (/^[-+][oO]$/.test(arg) || arg === '--rcfile' || arg === '--init-file' || (!shell && /^-[WXQ]$/.test(arg))) {
      i += 1;
      continue;
    }
    if (!arg.startsWith('-') && !arg.startsWith('+')) return false;
  }
  return true;
}

/** Takes code as its program: a shell, an interpreter, `source`, `.` or `eval`. */
export function runsCode(cmd: SimpleCommand): boolean {
  const [program] = cmd.argv;
  if (program === undefined) return false;
  return isShell(program) || isInterpreter(program) || program === 'source' || program === '.' || program === 'eval';
}
