// Descriptors the server was started with that are not its own. A starter (a shell with `exec 251>file`,
// an agent, a service manager) may leave descriptors open without close-on-exec; every hook and spare
// the server starts would inherit them (a hook could then write to whatever its starter had open). Node
// opens its own with O_CLOEXEC, so at the start every descriptor above stderr that lacks it is one the
// starter left, and is closed. Linux only (/proc/self/fdinfo names each descriptor's flags).
import { closeSync, readFileSync, readdirSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** Closes every inherited descriptor above 2 without close-on-exec; returns the ones closed. */
export function closeInheritedFds(proc = '/proc/self', env: NodeJS.ProcessEnv = process.env): number[] {
  // Node's own IPC channel with a parent that forked it, should there be one.
  const channel = Number(env.NODE_CHANNEL_FD ?? -1);
  let fds: number[];
  try {
    fds = readdirSync(`${proc}/fdinfo`).map(Number).filter((fd) => Number.isInteger(fd) && fd > 2 && fd !== channel);
  } catch {
    return [];
  }
  const closed: number[] = [];
  for (const fd of fds) {
    let flags: number | undefined;
    try {
      const match = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`${proc}/fdinfo/${fd}`, 'latin1'));
      flags = match === null ? undefined : parseInt(match[1]!, 8);
    } catch {
      // Gone meanwhile (the listing's own descriptor): nothing to close.
      continue;
    }
    if (flags === undefined || (flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // Closed meanwhile.
    }
  }
  return closed;
}
