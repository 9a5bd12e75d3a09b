// Another local user with the token: an HTTP hook sends the token to whatever listens on the port, so
// while the server is down another user can catch it. On Linux the server asks the kernel who owns the
// client's socket and refuses any user but its own, token or not.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { entryAddress, parseTable, sharedReader, socketOwner, type Table } from '../../src/serve/peer.js';
import { claudeBash, RUN, serversClosedAfterEach } from './kit.js';
import { nodeForOtherUsers, tmpProject, trustProject } from '../helpers.js';

vi.setConfig({ testTimeout: 120_000 });

describe('addresses as the kernel prints them', () => {
  it('IPv4, IPv6 loopback and an IPv4-mapped address', () => {
    expect(entryAddress('127.0.0.1', 47100)).toBe('0100007F:B7FC');
    expect(entryAddress('::1', 80)).toBe('00000000000000000000000001000000:0050');
    expect(entryAddress('::ffff:127.0.0.1', 1)).toBe('0000000000000000FFFF00000100007F:0001');
  });

  it('anything that is not an address and a port is no answer, never a wrong one', () => {
    for (const [address, port] of [['localhost', 80], ['127.0.0.1', -1], ['127.0.0.1', 70000], ['', 80], ['1:2:3', 80]] as const) {
      expect(entryAddress(address, port)).toBeUndefined();
    }
  });

  it('every IPv4 address and port: the bytes of each word reversed, the port big-endian (seeded)', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 0xffff }), (address, port) => {
        const word = Buffer.from(address.split('.').map(Number));
        const expected = `${word.readUInt32LE(0).toString(16).toUpperCase().padStart(8, '0')}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
        expect(entryAddress(address, port)).toBe(expected);
      }),
      { seed: 14, numRuns: 2000 },
    );
  });

  it('every IPv6 address, against python3\'s ipaddress (seeded)', () => {
    const addresses = fc.sample(fc.ipV6(), { seed: 14, numRuns: 1000 });
    const packed = spawnSync('python3', ['-c', 'import ipaddress, sys\nfor line in sys.stdin: print(ipaddress.IPv6Address(line.strip()).packed.hex())'], { input: addresses.join('\n'), encoding: 'utf8' });
    expect(packed.status).toBe(0);
    const expected = packed.stdout.trim().split('\n');
    addresses.forEach((address, i) => {
      const got = entryAddress(address, 1);
      expect(got, address).toMatch(/^[0-9A-F]{32}:0001$/);
      // Each 32-bit word back in network order.
      const words = got!.slice(0, 32).match(/.{8}/g)!.map((w) => Buffer.from(w, 'hex').reverse());
      expect(Buffer.concat(words).toString('hex'), address).toBe(expected[i]);
    });
  });
});

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
/** A table as the kernel prints it, from rows of [local, remote, state, uid, inode]. */
const tableText = (rows: [string, string, string, number, number][]) =>
  [HEADER, ...rows.map(([l, r, st, uid, inode], i) => `   ${i}: ${l} ${r} ${st} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 ${inode} 1 0 20 4 30 10 -1`)].join('\n');
const tables = (byFile: Record<string, string>) => async (file: string): Promise<Table> => {
  if (byFile[file] === undefined) throw new Error(`ENOENT ${file}`);
  return parseTable(byFile[file]!);
};
const CLIENT = { address: '127.0.0.1', port: 0xc350 };
const SERVER = { address: '127.0.0.1', port: 47100 };

describe('the owner of a socket', () => {
  it('is read from the line whose ends are the client and the server, not the server side of it', async () => {
    const read = tables({ '/proc/net/tcp': tableText([['0100007F:B7FC', '0100007F:C350', '01', 1000, 11], ['0100007F:C350', '0100007F:B7FC', '01', 65534, 12]]) });
    expect(await socketOwner(CLIENT, SERVER, read)).toEqual({ uid: 65534 });
  });

  it('a TIME_WAIT leftover or a socket no process holds (inode 0, uid 0) is not the live connection', async () => {
    for (const leftover of [['0100007F:C350', '0100007F:B7FC', '06', 0, 0], ['0100007F:C350', '0100007F:B7FC', '05', 0, 0]] as [string, string, string, number, number][]) {
      expect(await socketOwner(CLIENT, SERVER, tables({ '/proc/net/tcp': tableText([leftover]) }))).toBe('gone');
      const live: [string, string, string, number, number] = ['0100007F:C350', '0100007F:B7FC', '01', 65534, 12];
      expect(await socketOwner(CLIENT, SERVER, tables({ '/proc/net/tcp': tableText([leftover, live]) }))).toEqual({ uid: 65534 });
    }
  });

  it('a table read without the socket in it is "gone"; no table at all is "unknown" (the token is then the only check)', async () => {
    expect(await socketOwner(CLIENT, SERVER, tables({ '/proc/net/tcp': tableText([]) }))).toBe('gone');
    expect(await socketOwner(CLIENT, SERVER, tables({}))).toBe('unknown');
    expect(await socketOwner(CLIENT, SERVER, tables({ '/proc/net/tcp': `${HEADER}\n   0: 0100007F:C350 0100007F:B7FC 01 x x x -5 0 7` }))).toBe('gone');
  });

  it('an IPv4 client of a dual-stack listener (::ffff:127.0.0.1) is looked for in tcp, where its own socket is, and in tcp6', async () => {
    const mapped = { address: '::ffff:127.0.0.1', port: 0xc350 };
    const server = { address: '::ffff:127.0.0.1', port: 47100 };
    expect(await socketOwner(mapped, server, tables({ '/proc/net/tcp': tableText([['0100007F:C350', '0100007F:B7FC', '01', 65534, 12]]), '/proc/net/tcp6': tableText([]) }))).toEqual({ uid: 65534 });
    const in6 = tableText([['0000000000000000FFFF00000100007F:C350', '0000000000000000FFFF00000100007F:B7FC', '01', 65534, 12]]);
    expect(await socketOwner(mapped, server, tables({ '/proc/net/tcp': tableText([]), '/proc/net/tcp6': in6 }))).toEqual({ uid: 65534 });
  });

  it('reads are shared: one runs at a time, and everyone asking meanwhile shares the next (bounded work, whatever the load)', async () => {
    let reads = 0;
    let release: () => void = () => {};
    const read = sharedReader(async () => {
      reads++;
      await new Promise<void>((r) => (release = r));
      return tableText([['0100007F:C350', '0100007F:B7FC', '01', 7, 1]]);
    });
    const first = Array.from({ length: 50 }, () => read('/proc/net/tcp'));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    // The first read is running; 200 more callers queue behind it.
    const second = Array.from({ length: 200 }, () => read('/proc/net/tcp'));
    expect(reads).toBe(1);
    release();
    await Promise.all(first);
    await new Promise((r) => setTimeout(r, 20));
    expect(reads).toBe(2);
    release();
    for (const t of await Promise.all(second)) expect(t.get('0100007F:C350 0100007F:B7FC')).toBe(7);
    expect(reads).toBe(2);
  });

  it.skipIf(process.platform !== 'linux')("a real loopback connection of this process is this process's user (Linux)", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    try {
      expect(await socketOwner({ address: '127.0.0.1', port: client.localPort! }, { address: '127.0.0.1', port })).toEqual({ uid: process.getuid!() });
    } finally {
      client.destroy();
      server.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('connections taken together (Linux)', () => {
  it('twenty at once are each found, from reads shared between them', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const clients = await Promise.all(Array.from({ length: 20 }, () => new Promise<net.Socket>((resolve) => { const c = net.connect(port, '127.0.0.1', () => resolve(c)); })));
    try {
      const owners = await Promise.all(clients.map((c) => socketOwner({ address: '127.0.0.1', port: c.localPort! }, { address: '127.0.0.1', port })));
      expect(owners).toEqual(clients.map(() => ({ uid: process.getuid!() })));
    } finally {
      for (const c of clients) c.destroy();
      server.close();
    }
  });
});

describe('a client that leaves before its owner is known', () => {
  const started = serversClosedAfterEach();

  it('is not an event in flight forever: the server goes on answering, and closes', async () => {
    const s = await started();
    const dir = tmpProject();
    trustProject(dir, s.env);
    const body = claudeBash('ls', dir);
    const request = `POST ${RUN} HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    // Whole requests, and requests cut off half-way, each followed at once by the client's close.
    for (const text of [request, request.slice(0, request.length - 10), request, request.slice(0, 40)]) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(s.server.port!, '127.0.0.1', () => {
          socket.write(text);
          socket.destroy();
        });
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
    }
    // The whole ones may still be running (a first event loads the config); none may stay in flight.
    for (let waited = 0; s.server.stats().inFlight > 0 && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(s.server.stats().inFlight).toBe(0);
    expect((await s.tcp(RUN, body)).status).toBe(200);
    const closed = await Promise.race([s.server.close(1_000).then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(closed).toBe('closed');
  });
});

// Another user needs root to become: setpriv (util-linux) drops to uid 65534 for one curl.
const asNobody =
  process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', 'curl', '--version']).status === 0;

/** A server whose one hook leaves a marker, and curl to it as the server's user or as uid 65534. */
async function markedServer(started: ReturnType<typeof serversClosedAfterEach>, host?: string) {
  const s = await started(host === undefined ? {} : { host });
  const marker = path.join(s.home, 'hook-ran');
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
  trustProject(dir, s.env);
  const port = s.server.port!;
  const curl = (asOther: boolean, url = `http://127.0.0.1:${port}${RUN}`) =>
    new Promise<{ status: string; body: string }>((resolve, reject) => {
      const args = ['-s', '-o', '-', '-w', '\n%{http_code}', '-H', `Host: 127.0.0.1:${port}`, '-H', `Authorization: Bearer ${s.token}`, '-H', 'Content-Type: application/json', '--data-binary', claudeBash('ls', dir), url];
      const [cmd, all] = asOther ? ['setpriv', [...NOBODY, 'curl', ...args]] : ['curl', args];
      execFile(cmd as string, all as string[], { encoding: 'utf8', timeout: 30_000 }, (error, stdout) => {
        if (error !== null && stdout === '') return reject(error);
        const cut = stdout.lastIndexOf('\n');
        resolve({ body: stdout.slice(0, cut), status: stdout.slice(cut + 1) });
      });
    });
  return { s, marker, dir, port, curl };
}

const NOBODY = ['--reuid', '65534', '--regid', '65534', '--clear-groups'];

describe.skipIf(!asNobody)('the server refuses another user holding the right token (real, as uid 65534)', () => {
  const started = serversClosedAfterEach();

  it("403 naming the uid, and the hook never runs; the same request from the server's user runs it", async () => {
    const { s, marker, curl } = await markedServer(started);
    const other = await curl(true);
    expect(other.status).toBe('403');
    expect(other.body).toMatch(/another user's socket \(uid 65534\)/);
    expect(existsSync(marker)).toBe(false);
    expect(s.logs.join('\n')).toMatch(/uid 65534/);
    const mine = await curl(false);
    expect(mine.status).toBe('200');
    expect(existsSync(marker)).toBe(true);
  });

  it('the secret path (/i/<token>/..., read off a command line in ps) is refused to another user the same way', async () => {
    const { s, marker, dir, port } = await markedServer(started);
    const curl = (asOther: boolean) => {
      const args = ['-s', '-o', '-', '-w', '\n%{http_code}', '-H', 'Content-Type: application/json', '--data-binary', claudeBash('ls', dir), `http://127.0.0.1:${port}/i/${s.token}${RUN}`];
      const [cmd, all] = asOther ? ['setpriv', [...NOBODY, 'curl', ...args]] : ['curl', args];
      return new Promise<string>((resolve) => execFile(cmd as string, all as string[], { encoding: 'utf8', timeout: 30_000 }, (_error, stdout) => resolve(stdout)));
    };
    expect(await curl(true)).toMatch(/another user's socket \(uid 65534\)[^]*\n403$/);
    expect(existsSync(marker)).toBe(false);
    expect(await curl(false)).toMatch(/\n200$/);
    expect(existsSync(marker)).toBe(true);
    expect(s.logs.join('\n')).not.toContain(s.token);
  });

  it('on a dual-stack listener (--host ::) too: an IPv4 client is found where its socket is listed', async () => {
    const { marker, curl } = await markedServer(started, '::');
    expect((await curl(true)).status).toBe('403');
    expect(existsSync(marker)).toBe(false);
    expect((await curl(false)).status).toBe('200');
    expect(existsSync(marker)).toBe(true);
  });

  it('a request sent whole and the connection closed at once (before the owner is known) never runs the hook', async () => {
    const { s, marker, dir, port } = await markedServer(started);
    const body = claudeBash('ls', dir);
    const request = `POST ${RUN} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    // As uid 65534: 30 requests, each closed right after it is written (half of them with a reset).
    const script = `const net=require('net');const req=${JSON.stringify(request)};(async()=>{for(let i=0;i<30;i++){await new Promise(r=>{const c=net.connect(${port},'127.0.0.1',()=>{c.write(req);if(i%2)c.resetAndDestroy();else c.end();});c.on('close',r);c.on('error',()=>{});});}})();`;
    // Not spawnSync: the server runs in this process, and must answer meanwhile.
    const code = await new Promise<number | null>((resolve) => execFile('setpriv', [...NOBODY, nodeForOtherUsers(), '-e', script], { timeout: 60_000 }, (error) => resolve(error === null ? 0 : ((error as { code?: number }).code ?? null))));
    expect(code).toBe(0);
    for (let waited = 0; s.server.stats().inFlight > 0 && waited < 15_000; waited += 50) await new Promise((res) => setTimeout(res, 50));
    expect(s.server.stats().inFlight).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
