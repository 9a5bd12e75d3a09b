// The hook host: a small Node process, the server's child, that spawns the server's command hooks.
//
// Why: Node spawns with fork + exec, and fork copies the parent's page tables, so a spawn costs time in
// proportion to the parent's memory (and every page the parent writes afterwards faults once). After 20,000
// events the server held 80 MB of heap (new space grown to its limit, garbage, config caches, code), and one
// spawn() call took 2.2 ms there against 1.5 ms in the host, which stays near Node's start-up size (it only
// runs hooks, with a small young generation) however large the server grows. The price is one message each
// way between the two.
//
// Every way this can go wrong is still a value: a host that dies with hooks in flight fails those hooks as
// `error` (whether they ran is not known, so none is run again), and the next hook starts a new host. When
// there is no host to be had (its file is missing, fork throws, it dies before it is ready, or three in a row
// die without answering), hooks are spawned from the server itself, as before: slower, the same answers. So
// is a hook whose stdin is large: its bytes would be copied to the host once per hook, on the server's
// event loop, where spawned here every hook of the event writes the one shared buffer.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProcessEnd } from '../reply/interpret.js';
import { wholeMs } from '../run/duration.js';
import { DRAIN_MS, KILL_GRACE_MS, runProcess, type ProcessRunner } from '../run/process.js';
import type { HostAnswer, HostRequest } from './host-main.js';

export interface HookHost {
  runProcess: ProcessRunner;
  /** Lets the host go: it cancels what still runs (killing those trees) and exits; resolves once it has. */
  close(): Promise<void>;
  /** The running host's pid, if one runs (for status and tests). */
  pid(): number | undefined;
}

/** Beside the running code: the CLI bundle's dist/bundle/host-main.js (tests from source pass the built one). */
export const HOST_ENTRY = fileURLToPath(new URL('./host-main.js', import.meta.url));

/**
 * How long past a hook's own timeout (and its kill and drain) the server waits for the host to answer: only a
 * host whose loop is stuck needs it; many large answers at once take seconds to arrive.
 */
const BACKSTOP_MS = KILL_GRACE_MS + DRAIN_MS + 60_000;
/** A hook's stdin past this is spawned from the server (see above). */
export const HOST_INPUT_LIMIT = 1024 * 1024;
/**
 * A host that has grown past this (V8 keeps the heap a burst of large outputs took) is let go once it has
 * nothing running, and the next hook starts a fresh one: a large host is what it exists to avoid.
 */
export const HOST_MEMORY_LIMIT = 128 * 1024 * 1024;
/** Hosts that died one after the other, none having answered: there is something wrong with the host itself. */
const DEATHS_BEFORE_GIVING_UP = 3;

interface Sent {
  settle(end: ProcessEnd): void;
  /** Runs the hook in the server instead (for a host that died before it could have run it). */
  runHere(): void;
}

/** A running host and the hooks it was sent that have not come back. */
interface Host {
  process: ChildProcess;
  pending: Map<number, Sent>;
  ready: boolean;
}

export function hookHost(options: { entry?: string; log(line: string): void; memoryLimit?: number }): HookHost {
  const entry = options.entry ?? HOST_ENTRY;
  const memoryLimit = options.memoryLimit ?? HOST_MEMORY_LIMIT;
  let current: Host | undefined;
  /** Hosts let go for their size, until they have exited (close waits for them too). */
  const retiring = new Set<ChildProcess>();
  let unavailable: string | undefined;
  let nextId = 0;
  let deaths = 0;

  const start = (): Host | undefined => {
    if (current !== undefined || unavailable !== undefined) return current;
    if (!existsSync(entry)) return noHost(`${entry} is missing`);
    let started: ChildProcess;
    try {
      started = fork(entry, [], {
        // A young generation of 1 MB instead of Node's 16: what keeps the host small, which is its point.
        execArgv: ['--max-semi-space-size=1'],
        // Buffers (a hook's stdin and output) cross as bytes, not as JSON arrays of numbers.
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        cwd: '/',
      });
    } catch (error) {
      return noHost(error instanceof Error ? error.message : String(error));
    }
    const host: Host = { process: started, pending: new Map(), ready: false };
    started.on('message', (answer: HostAnswer) => {
      if ('ready' in answer) host.ready = true;
      else {
        deaths = 0;
        host.pending.get(answer.id)?.settle(answer.end);
        // Nothing of its own running, so letting it go loses nothing; new hooks already go to the next one.
        if (answer.rss > memoryLimit && host.pending.size === 0 && current === host) {
          current = undefined;
          retiring.add(started);
          started.once('exit', () => retiring.delete(started));
          started.disconnect();
        }
      }
    });
    // A failed send is answered in its callback, the host's end by 'exit': listened so that it never throws.
    started.on('error', (error) => options.log(`hook host: ${error.message}`));
    started.once('exit', (code, signal) => {
      if (current === host) current = undefined;
      const how = signal ?? `code ${code}`;
      const lost = [...host.pending.values()];
      if (!host.ready) {
        // It never got to run anything: those hooks run here, and so will the rest.
        if (unavailable === undefined) noHost(`it exited (${how}) before it was ready`);
        for (const sent of lost) sent.runHere();
        return;
      }
      if (lost.length === 0) return;
      options.log(`hook host (pid ${started.pid}) exited (${how}) with ${lost.length} hook(s) running; they failed`);
      for (const sent of lost) sent.settle({ kind: 'error', message: `the server's hook host exited (${how}) while this hook ran; whether it finished is not known` });
      if (++deaths >= DEATHS_BEFORE_GIVING_UP && unavailable === undefined) noHost(`${deaths} hosts in a row died without answering`);
    });
    // Neither the host nor its channel keeps the server alive: the server's listeners do.
    started.unref();
    started.channel?.unref();
    current = host;
    return host;
  };

  const noHost = (why: string): undefined => {
    unavailable = why;
    options.log(`hook host unavailable (${why}): command hooks are spawned from the server itself`);
    return undefined;
  };

  const viaHost: ProcessRunner = (spec) => {
    if (spec.signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
    if ((typeof spec.input === 'string' ? Buffer.byteLength(spec.input) : spec.input.byteLength) > HOST_INPUT_LIMIT) return runProcess(spec);
    const host = start();
    if (host === undefined) return runProcess(spec);
    const id = ++nextId;
    const { signal, ...rest } = spec;
    return new Promise<ProcessEnd>((resolve) => {
      const onAbort = () => send({ type: 'cancel', id });
      // Within what a timer takes: past it, a timer fires at once.
      const backstopMs = wholeMs(wholeMs(spec.timeoutMs) + BACKSTOP_MS);
      const backstop = setTimeout(() => {
        // Told to stop too, so that an answer thrown away is not a hook left running.
        send({ type: 'cancel', id });
        settle({ kind: 'error', message: `the server's hook host did not answer within ${Math.round(backstopMs / 1000)} s` });
      }, backstopMs);
      /** Takes the hook off the books; false when it already was (one answer per hook). */
      const done = (): boolean => {
        if (!host.pending.delete(id)) return false;
        clearTimeout(backstop);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const settle = (end: ProcessEnd) => {
        if (done()) resolve(asBuffers(end));
      };
      const runHere = () => {
        if (done()) resolve(runProcess(spec));
      };
      const send = (request: HostRequest) =>
        host.process.send(request, (error: Error | null) => {
          if (error === null || request.type !== 'run') return;
          // Not delivered (the host is gone, its exit not yet seen): the hook never ran, so it runs here.
          if (current === host) current = undefined;
          runHere();
        });
      host.pending.set(id, { settle, runHere });
      signal?.addEventListener('abort', onAbort, { once: true });
      send({ type: 'run', id, spec: rest });
    });
  };

  return {
    runProcess: viaHost,
    pid: () => current?.process.pid,
    async close() {
      const hosts = [...retiring, ...(current === undefined ? [] : [current.process])].filter((h) => h.exitCode === null && h.signalCode === null);
      await Promise.all(
        hosts.map(async (host) => {
          const exited = new Promise<void>((resolve) => host.once('exit', () => resolve()));
          if (host.connected) host.disconnect();
          // Whatever it still runs is cancelled on the disconnect and down within the kill grace; past that, it goes.
          const late = setTimeout(() => host.kill('SIGKILL'), KILL_GRACE_MS + DRAIN_MS + 1_000);
          await exited;
          clearTimeout(late);
        }),
      );
    },
  };
}

/** The channel delivers a Buffer as a plain Uint8Array; the readers of an end take either, its users expect Buffers. */
function asBuffers(end: ProcessEnd): ProcessEnd {
  if (end.kind !== 'exited') return end;
  const buffer = (b: string | Uint8Array) => (typeof b === 'string' || Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  return { ...end, stdout: buffer(end.stdout), stderr: buffer(end.stderr) };
}
