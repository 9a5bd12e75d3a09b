// Another local user with the token: an HTTP hook sends the token to whatever listens on the port, so
// while the server is down another user can catch it. On Linux the server asks the kernel who owns the
// client's socket and refuses any user but its own, token or not.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { entryAddress, peerUid } from '../../src/serve/peer.js';
import { claudeBash, RUN, serversClosedAfterEach } from './kit.js';
import { tmpProject, trustProject } from '../helpers.js';

vi.setConfig({ testTimeout: 60_000 });

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

describe('the owner of a socket', () => {
  const table = (lines: string[]) => async () => ['  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode', ...lines].join('\n');

  it('is read from the line whose ends are the client and the server, not the server side of it', async () => {
    const read = table([
      '   0: 0100007F:B7FC 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 11 1 0 20 4 30 10 -1',
      '   1: 0100007F:C350 0100007F:B7FC 01 00000000:00000000 00:00000000 00000000 65534        0 12 1 0 20 4 30 10 -1',
    ]);
    expect(await peerUid({ address: '127.0.0.1', port: 0xc350 }, { address: '127.0.0.1', port: 47100 }, read)).toBe(65534);
  });

  it('a TIME_WAIT leftover with the same ends (uid 0) is not the live connection', async () => {
    const read = table([
      '   0: 0100007F:C350 0100007F:B7FC 06 00000000:00000000 03:00000908 00000000     0        0 0 3 0',
      '   1: 0100007F:C350 0100007F:B7FC 01 00000000:00000000 00:00000000 00000000 65534        0 12 1 0 20 4 30 10 -1',
    ]);
    expect(await peerUid({ address: '127.0.0.1', port: 0xc350 }, { address: '127.0.0.1', port: 47100 }, read)).toBe(65534);
  });

  it('no line, no table, or a line that is not a table row: no answer', async () => {
    expect(await peerUid({ address: '127.0.0.1', port: 1 }, { address: '127.0.0.1', port: 2 }, table([]))).toBeUndefined();
    expect(await peerUid({ address: '127.0.0.1', port: 1 }, { address: '127.0.0.1', port: 2 }, () => Promise.reject(new Error('ENOENT')))).toBeUndefined();
    expect(await peerUid({ address: '127.0.0.1', port: 1 }, { address: '127.0.0.1', port: 2 }, table(['   0: 0100007F:0001 0100007F:0002 01 x x x -5']))).toBeUndefined();
  });

  it.skipIf(process.platform !== 'linux')('a real loopback connection of this process is this process\'s user (Linux)', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    try {
      expect(await peerUid({ address: '127.0.0.1', port: client.localPort! }, { address: '127.0.0.1', port })).toBe(process.getuid!());
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
      const owners = await Promise.all(clients.map((c) => peerUid({ address: '127.0.0.1', port: c.localPort! }, { address: '127.0.0.1', port })));
      expect(owners).toEqual(clients.map(() => process.getuid!()));
    } finally {
      for (const c of clients) c.destroy();
      server.close();
    }
  });
});

// Another user needs root to become: setpriv (util-linux) drops to uid 65534 for one curl.
const asNobody =
  process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', 'curl', '--version']).status === 0;

describe.skipIf(!asNobody)('the server refuses another user holding the right token (real, as uid 65534)', () => {
  const started = serversClosedAfterEach();

  it('403 naming the uid, and the hook never runs; the same request from the server\'s user runs it', async () => {
    const s = await started();
    const marker = path.join(s.home, 'hook-ran');
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
    trustProject(dir, s.env);
    const port = s.server.port!;
    const curl = (asOther: boolean) =>
      new Promise<{ status: string; body: string }>((resolve, reject) => {
        const args = ['-s', '-o', '-', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${s.token}`, '-H', 'Content-Type: application/json', '--data-binary', claudeBash('ls', dir), `http://127.0.0.1:${port}${RUN}`];
        const [cmd, all] = asOther ? ['setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', 'curl', ...args]] : ['curl', args];
        execFile(cmd as string, all as string[], { encoding: 'utf8', timeout: 30_000 }, (error, stdout) => {
          if (error !== null && stdout === '') return reject(error);
          const cut = stdout.lastIndexOf('\n');
          resolve({ body: stdout.slice(0, cut), status: stdout.slice(cut + 1) });
        });
      });
    const other = await curl(true);
    expect(other.status).toBe('403');
    expect(other.body).toMatch(/another user's socket \(uid 65534\)/);
    expect(existsSync(marker)).toBe(false);
    expect(s.logs.join('\n')).toMatch(/uid 65534/);
    const mine = await curl(false);
    expect(mine.status).toBe('200');
    expect(existsSync(marker)).toBe(true);
  });
});
