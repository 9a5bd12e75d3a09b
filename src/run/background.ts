// Claude Code's `async: true` command hooks: started with the event on stdin and not waited for; they
// can neither block nor rewrite (Claude Code ignores their decision fields too). Claude Code kills one
// at its timeout; the runner is gone by then, so a small `sh` wrapper, leader of the hook's own process
// group, does it: after the timeout it sends TERM, then KILL, to the whole group. What the hook writes
// is dropped (Claude Code hands an async hook's context to the next turn, which a runner that has
// already answered cannot do; docs/claude-settings.md lists this difference).
import { spawn } from 'node:child_process';
import { wholeMs } from './duration.js';

// A background job's stdin is /dev/null before its own redirections apply (POSIX sh), so the event is
// kept on fd 3 and handed over from there.
const WRAPPER = `
mode=$1; shift
exec 3<&0 0</dev/null
if [ "$mode" = shell ]; then sh -c "$1" <&3 3<&- & c=$!; else "$@" <&3 3<&- & c=$!; fi
exec 3<&-
( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep "$HOOKS_BG_TIMEOUT" & s=$!; wait $s; kill -TERM 0; sleep 1; kill -KILL 0 ) &
k=$!
wait $c
kill $k 2>/dev/null
`;

export interface BackgroundSpec {
  command: string;
  args?: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  input: string | Uint8Array;
  timeoutMs: number;
}

/** Starts the hook and returns at once; an error is only a spawn that could not happen. */
export function runBackground(spec: BackgroundSpec): { started: true; pid: number } | { started: false; message: string } {
  const seconds = (Math.max(wholeMs(spec.timeoutMs), 1000) / 1000).toFixed(0);
  const argv = spec.args === undefined ? ['shell', spec.command] : ['exec', spec.command, ...spec.args];
  try {
    const child = spawn('/bin/sh', ['-c', WRAPPER, 'agent-hooks-async', ...argv], {
      cwd: spec.cwd,
      env: { ...spec.env, HOOKS_BG_TIMEOUT: seconds },
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    let failed: string | undefined;
    child.on('error', (error) => {
      failed = error.message;
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(typeof spec.input === 'string' ? Buffer.from(spec.input) : spec.input);
    child.unref();
    if (child.pid === undefined) return { started: false, message: failed ?? `${spec.command}: could not start` };
    return { started: true, pid: child.pid };
  } catch (error) {
    return { started: false, message: (error as Error).message };
  }
}
