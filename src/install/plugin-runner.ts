// What the generated agent plugins (opencode, Cline) share: the source of `runHooks`, which spawns
// `hooks run` once per event and never rejects, and the small readers of its answer. It is source text
// interpolated into each plugin's template, because a generated plugin has no dependencies to import.
// The template must define HOOKS_BIN, TIMEOUT_MS and import `spawn` from node:child_process.

/**
 * `runHooks(event, payload, cwd, failClosed)`, `parseAnswer`, `reasonOf` and `isObject` as plugin
 * source. `host` names the agent in comments. `continues`: whether the plugin lets a call go on when
 * the runner fails and `failClosed` is off (opencode does; Cline blocks then too), which the timeout
 * message says, so it never claims the call goes on where it does not.
 */
export function renderRunHooks(host: string, continues: boolean): string {
  const suffix = continues ? ` + (failClosed ? '' : '; continuing')` : '';
  return `/** Runs the runner on one event; never rejects (a runner that cannot start comes back as code -1). */
function runHooks(event, payload, cwd, failClosed) {
  return new Promise((resolve) => {
    let child;
    try {
      const args = ['run', event, '--dialect', 'native', ...(failClosed ? ['--on-error', 'block'] : [])];
      child = spawn(HOOKS_BIN, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ code: -1, stdout: '', stderr: 'agent-hooks: cannot start ' + HOOKS_BIN + ': ' + (error && error.message) });
      return;
    }
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let killTimer;
    let drainTimer;
    // Once: 'exit', 'close', 'error', the KILL and the drain may each come first. The pipes are let go of
    // then, so a process that still holds them keeps neither this call nor ${host} waiting.
    const settle = (run) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(run);
    };
    const tookTooLong = () => ({ code: -1, stdout: '', stderr: 'agent-hooks: hooks run took over ' + TIMEOUT_MS / 1000 + 's'${suffix} });
    // TERM first: the runner then stops its own hooks before it exits. Not a process group of its own (the
    // runner puts each hook in one and a watchdog stops them if the runner is KILLed), so ${host}'s own
    // signals still reach it. After the KILL the call is over, whoever still holds the pipes.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => {
        child.kill('SIGKILL');
        settle(tookTooLong());
      }, 2000);
    }, TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => {
      settle({ code: -1, stdout, stderr: 'agent-hooks: cannot run ' + HOOKS_BIN + ': ' + error.message });
    });
    // 'close' waits for every holder of the pipes, which a hook's background process may be: the answer is
    // complete at 'exit' (the runner's writes to a pipe are synchronous), so 'close' gets a short drain only.
    child.on('exit', (code) => {
      if (timedOut) return settle(tookTooLong());
      clearTimeout(timer);
      const run = () => ({ code: code === null ? -1 : code, stdout, stderr });
      child.on('close', () => settle(run()));
      // A timer can fire before the loop has read what is already in the pipe (a busy ${host} loop): the
      // check after setImmediate comes after a poll phase has read it. Output still coming, or an answer
      // begun and not yet whole (the runner writes one JSON object), means one more wait, 2 s after the
      // exit at most: a timer alone cut a 200 KB answer short on a loaded machine.
      const exitedAt = Date.now();
      const drain = () => {
        const seen = stdout.length + stderr.length;
        setImmediate(() => {
          const more = stdout.length + stderr.length !== seen || !answerWhole(stdout);
          if (more && Date.now() - exitedAt < 2000) drainTimer = setTimeout(drain, 50);
          else settle(run());
        });
      };
      drainTimer = setTimeout(drain, 200);
    });
    // A runner that exits without reading stdin must not crash ${host} with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Nothing, or one whole JSON value: what the runner writes before it exits. */
function answerWhole(stdout) {
  const text = stdout.trim();
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function parseAnswer(stdout) {
  const text = stdout.trim();
  if (!text.startsWith('{')) return {};
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function reasonOf(answer, run) {
  return (typeof answer.reason === 'string' && answer.reason) || run.stderr.trim() || 'a hook blocked this call';
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
`;
}
