// Who is on the other end of a loopback TCP connection. The token keeps other local users out only
// while it stays secret, and over TCP it cannot always: an HTTP hook sends it to whatever listens on
// the port, and while the server is down another user may be the one listening. On Linux the kernel
// says who owns each socket (/proc/net/tcp and tcp6, in the server's own network namespace): a
// connection from another user's socket is refused whatever it carries. Where that cannot be read
// (not Linux, /proc not mounted, the socket already gone) the answer is undefined and the token is
// the only check, as before.
import { readFile } from 'node:fs/promises';
import net from 'node:net';

/**
 * The uid owning the client's end of a loopback connection, from the kernel's socket table. Read off
 * the event loop: the kernel walks its whole connection hash table to print it, a few milliseconds on
 * a machine with memory, however few sockets there are.
 */
export async function peerUid(client: { address: string; port: number }, server: { address: string; port: number }, read: (file: string) => Promise<string> = procNet): Promise<number | undefined> {
  const ipv6 = net.isIPv6(client.address);
  const local = entryAddress(client.address, client.port);
  const remote = entryAddress(server.address, server.port);
  if (local === undefined || remote === undefined) return undefined;
  let table: string;
  try {
    table = await read(ipv6 ? '/proc/net/tcp6' : '/proc/net/tcp');
  } catch {
    return undefined;
  }
  // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/);
    // A TIME_WAIT entry (06) is a closed connection's leftover, listed as uid 0: a new connection may
    // reuse its four-tuple, and only the live one says who is there.
    if (fields[1] === local && fields[2] === remote && fields[3] !== '06') {
      const uid = Number(fields[7]);
      return Number.isInteger(uid) && uid >= 0 ? uid : undefined;
    }
  }
  return undefined;
}

/** Reads about to start, per file: connections taken in the same turn of the event loop share one. */
const pending = new Map<string, Promise<string>>();

/** The table as it is after every connection taken so far: a read that starts after the caller asked. */
function procNet(file: string): Promise<string> {
  let read = pending.get(file);
  if (read === undefined) {
    read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pending.delete(file);
      return readFile(file, 'latin1');
    });
    pending.set(file, read);
  }
  return read;
}

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
