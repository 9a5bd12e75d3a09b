// The hook host's own process (see host.ts): runs each command hook the server sends with the same
// runProcess as `hooks run`, and sends back how it ended. Its parent is the server, over the IPC channel
// Node opened at fork; nothing else can reach it.
import type { ProcessEnd } from '../reply/interpret.js';
import { runProcess, type ProcessSpec } from '../run/process.js';

export type HostRequest = { type: 'run'; id: number; spec: Omit<ProcessSpec, 'signal'> } | { type: 'cancel'; id: number };
/** `ready` first (nothing ran in a host that died before it), then one answer per hook, with the host's resident memory. */
export type HostAnswer = { ready: true } | { id: number; end: ProcessEnd; rss: number };

const live = new Map<number, AbortController>();

process.on('message', (request: HostRequest) => {
  if (request.type === 'cancel') {
    live.get(request.id)?.abort();
    return;
  }
  const controller = new AbortController();
  live.set(request.id, controller);
  void runProcess({ ...request.spec, signal: controller.signal }).then((end) => {
    live.delete(request.id);
    if (process.connected) process.send?.({ id: request.id, end, rss: process.memoryUsage.rss() } satisfies HostAnswer);
  });
});

process.send?.({ ready: true } satisfies HostAnswer);

// The server is gone (it exited, or was killed): nobody will read an answer, so every hook still running is
// cancelled, which kills its tree. The host exits once they are down, as nothing else keeps it alive.
process.on('disconnect', () => {
  for (const controller of live.values()) controller.abort();
});

// The server decides when the host ends, by letting go of the channel. A Ctrl-C or a SIGTERM sent to the
// server's process group is the server's cue to finish the events in flight, whose hooks run here: dying
// on it would fail them.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
