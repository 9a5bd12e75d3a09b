// Who holds a loopback port this user's server wants: a start that fails, or a doctor that finds the
// port taken, names the listener instead of saying "in use". On Linux the kernel lists every listening
// socket with its owner and inode (/proc/net/tcp, tcp6), and a process's descriptors name the sockets it
// holds (/proc/<pid>/fd/N -> socket:[inode]); another user's descriptors are not readable, so their pid
// may stay unknown while their uid does not.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { euid } from '../fs/private.js';

export interface PortHolder {
  uid: number;
  /** The process holding the listening socket, when its descriptors could be read. */
  pid?: number;
  comm?: string;
}

/** The listener on `port` (any local address, IPv4 or IPv6); undefined when none is listed or there is no /proc. */
export function portHolder(port: number, proc = '/proc'): PortHolder | undefined {
  for (const file of ['net/tcp', 'net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(`${proc}/${file}`, 'latin1');
    } catch {
      continue;
    }
    const listener = listenerIn(text, port);
    if (listener === undefined) continue;
    return { uid: listener.uid, ...processHolding(listener.inode, proc) };
  }
  return undefined;
}

/** "sl local_address rem_address st ... uid timeout inode": the first LISTEN (st 0A) row on `port`. */
export function listenerIn(table: string, port: number): { uid: number; inode: string } | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] !== '0A' || !fields[1]!.endsWith(`:${hex}`)) continue;
    const uid = Number(fields[7]);
    if (Number.isInteger(uid) && uid >= 0 && /^\d+$/.test(fields[9]!)) return { uid, inode: fields[9]! };
  }
  return undefined;
}

function processHolding(inode: string, proc: string): { pid?: number; comm?: string } {
  const target = `socket:[${inode}]`;
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return {};
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${proc}/${pid}/fd`);
    } catch {
      // Another user's process (or one that just ended): its descriptors are not ours to read.
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`${proc}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (link !== target) continue;
      let comm: string | undefined;
      try {
        comm = readFileSync(`${proc}/${pid}/comm`, 'utf8').trim();
        // Node 24 and later name their main thread, and comm is that name ("MainThread",
        // "node-MainThread"): the program's own name is its argv[0].
        if (/^(?:.*-)?MainThread$/.test(comm)) comm = path.basename(readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '') || comm;
      } catch {
        // Ended meanwhile: its pid is still worth naming.
      }
      return { pid: Number(pid), ...(comm === undefined ? {} : { comm }) };
    }
  }
  return {};
}

/** "held by uid N (pid P, comm)", or "held by another user's process (uid N)" when its pid could not be seen. */
export function describeHolder(holder: PortHolder | undefined): string {
  if (holder === undefined) return 'in use by a listener this system does not list (not Linux, or another network namespace)';
  const me = euid();
  const who = me !== undefined && holder.uid === me ? `you (uid ${holder.uid})` : `uid ${holder.uid}`;
  if (holder.pid !== undefined) return `held by ${who} (pid ${holder.pid}${holder.comm === undefined ? '' : `, ${clean(holder.comm)}`})`;
  return me !== undefined && holder.uid !== me ? `held by another user's process (uid ${holder.uid}; its pid is not visible to you)` : `held by ${who} (pid not visible)`;
}

function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 32);
}
