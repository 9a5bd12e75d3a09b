// Who is on the other end of a loopback TCP connection. The token keeps other local users out only
// while it stays secret, and over TCP it cannot always: an HTTP hook sends it to whatever listens on
// the port, and while the server is down another user may be the one listening. On Linux the kernel
// says who owns each socket (/proc/net/tcp and tcp6, in the server's own network namespace), so the
// server can refuse a connection from another user's socket whatever it carries.
//
// The kernel walks its whole connection table to print it (milliseconds, more with many sockets), so
// a read is shared: at most one runs per file, and every connection that asked while it ran shares
// the next one. Memory and work stay bounded whatever another user does with sockets of their own.
import { accessSync, constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface End {
  address: string;
  port: number;
}

/**
 * The owner of the client's socket: its uid; `gone` when the table was read and the socket is not in
 * it (closed, or only a leftover: a client that is not there to be answered); `unknown` when no table
 * could be read (not Linux, no /proc).
 */
export type Owner = { uid: number } | 'gone' | 'unknown';

/**
 * Why the owner check cannot run here, in one line, or undefined when it can: the kernel's tables are
 * Linux's (macOS and Windows have no /proc). Without them a TCP connection's owner is `unknown` and is
 * let through on its token alone, so the server says so once, as it starts, rather than nowhere.
 */
export function ownerCheckProblem(procNet = '/proc/net'): string | undefined {
  for (const name of ['tcp', 'tcp6']) {
    try {
      accessSync(path.join(procNet, name), constants.R_OK);
      return undefined;
    } catch {
      // not here
    }
  }
  return `owner check off: ${path.join(procNet, 'tcp')} cannot be read (Linux has it; this is ${process.platform}), so over HTTP only the token keeps other local users out; the Unix socket is not affected (see docs/platforms.md)`;
}

/** Live sockets by their two ends (`local remote` as the kernel prints them), to the owning uid. */
export type Table = ReadonlyMap<string, number>;

export async function socketOwner(client: End, server: End, table: (file: string) => Promise<Table> = sharedTable): Promise<Owner> {
  let read = false;
  for (const { file, key } of listings(client, server)) {
    const rows = await table(file).catch(() => undefined);
    if (rows === undefined) continue;
    read = true;
    const uid = rows.get(key);
    if (uid !== undefined) return { uid };
  }
  return read ? 'gone' : 'unknown';
}

/**
 * Where the client's socket would be listed. An IPv4 client of a dual-stack listener arrives as
 * `::ffff:a.b.c.d`, but its own socket is an IPv4 one, listed in tcp with plain addresses; a client
 * that connected to the mapped address itself is in tcp6.
 */
function listings(client: End, server: End): { file: string; key: string }[] {
  const places: { file: string; key: string }[] = [];
  const v4 = (address: string) => (net.isIPv4(address) ? address : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]);
  const [client4, server4] = [v4(client.address), v4(server.address)];
  const key = (a: string, b: string) => {
    const local = entryAddress(a, client.port);
    const remote = entryAddress(b, server.port);
    return local === undefined || remote === undefined ? undefined : `${local} ${remote}`;
  };
  if (client4 !== undefined && server4 !== undefined) {
    const k = key(client4, server4);
    if (k !== undefined) places.push({ file: '/proc/net/tcp', key: k });
  }
  if (net.isIPv6(client.address) && net.isIPv6(server.address)) {
    const k = key(client.address, server.address);
    if (k !== undefined) places.push({ file: '/proc/net/tcp6', key: k });
  }
  return places;
}

/**
 * The live sockets of a table: "sl local_address rem_address st tx_queue:rx_queue tr:tm->when
 * retrnsmt uid timeout inode ...". TIME_WAIT leftovers (st 06) and sockets no process holds any more
 * (inode 0, listed as uid 0) say nothing about who is there.
 */
export function parseTable(text: string): Table {
  const rows = new Map<string, number>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] === '06' || fields[9] === '0') continue;
    const uid = Number(fields[7]);
    if (Number.isInteger(uid) && uid >= 0) rows.set(`${fields[1]} ${fields[2]}`, uid);
  }
  return rows;
}

/**
 * Reads of the tables, shared: per file at most one runs, and everyone who asks while it runs shares
 * the one queued behind it, which starts after they asked (a read already running may predate their
 * connection). Another user opening sockets by the thousand makes each read slower, never more of them.
 */
export function sharedReader(readText: (file: string) => Promise<string> = (file) => readFile(file, 'latin1')): (file: string) => Promise<Table> {
  const reads = new Map<string, { running?: Promise<Table>; queued?: Promise<Table> }>();
  return (file) => {
    let s = reads.get(file);
    if (s === undefined) reads.set(file, (s = {}));
    const state = s;
    if (state.queued !== undefined) return state.queued;
    const start = (): Promise<Table> => {
      const running = readText(file).then(parseTable);
      state.running = running;
      state.queued = undefined;
      void running.catch(() => {}).finally(() => {
        if (state.running === running) state.running = undefined;
      });
      return running;
    };
    // Connections taken in the same turn of the event loop ask together.
    const after = (state.running ?? Promise.resolve()).catch(() => {}).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    state.queued = after.then(start);
    return state.queued;
  };
}

const sharedTable = sharedReader();

/**
 * An address and port as the kernel prints them: each 32-bit word of the address in the machine's
 * byte order (little-endian on every platform Node's Linux builds run on), the port big-endian.
 */
export function entryAddress(address: string, port: number): string | undefined {
  const bytes = addressBytes(address);
  if (bytes === undefined || !Number.isInteger(port) || port < 0 || port > 0xffff) return undefined;
  let hex = '';
  for (let word = 0; word < bytes.length; word += 4) {
    for (let i = 3; i >= 0; i--) hex += bytes[word + i]!.toString(16).padStart(2, '0');
  }
  return `${hex.toUpperCase()}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

function addressBytes(address: string): number[] | undefined {
  if (net.isIPv4(address)) return address.split('.').map(Number);
  if (!net.isIPv6(address)) return undefined;
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two groups first.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let text = address;
  if (dotted !== null) {
    const [a, b, c, d] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
