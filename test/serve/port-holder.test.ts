// Naming who holds a port: the kernel's listing read right (LISTEN rows only, the port in hex, IPv4 and
// IPv6), and the words a user reads.
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHolder, listenerIn, portHolder } from '../../src/serve/port-holder.js';
import { tmpProject } from '../helpers.js';

const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:4E20 0100007F:B7E2 01 00000000:00000000 00:00000000 00000000  1000        0 5551 1 0000000000000000 20 4 30 10 -1
   1: 0100007F:4E21 00000000:0000 0A 00000000:00000000 00:00000000 00000000 65534        0 7777 1 0000000000000000 100 0 0 10 0
   2: 00000000:4E20 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 8888 1 0000000000000000 100 0 0 10 0
`;

describe('listenerIn', () => {
  it('the LISTEN row on the port, whatever the local address; an established connection on it is not a listener', () => {
    expect(listenerIn(TABLE, 0x4e20)).toEqual({ uid: 1001, inode: '8888' });
    expect(listenerIn(TABLE, 0x4e21)).toEqual({ uid: 65534, inode: '7777' });
    expect(listenerIn(TABLE, 0x4e22)).toBeUndefined();
    expect(listenerIn('garbage\n\n', 80)).toBeUndefined();
  });
});

describe('describeHolder', () => {
  it('names uid, pid and command; says when the pid is not visible', () => {
    const me = process.getuid?.() ?? 0;
    expect(describeHolder({ uid: 65534, pid: 42, comm: 'nc\u001b' })).toBe('held by uid 65534 (pid 42, nc?)');
    expect(describeHolder({ uid: me === 65534 ? 1 : 65534 })).toMatch(/^held by another user's process \(uid \d+; its pid is not visible to you\)$/);
    expect(describeHolder({ uid: me, pid: 7, comm: 'node' })).toBe(`held by you (uid ${me}) (pid 7, node)`);
  });
});

describe('portHolder in a /proc of files', () => {
  /** A /proc with one listener on 0x4E21 (inode 7777) held by pid 42, whose comm and cmdline are these. */
  function proc(comm: string, cmdline: string): string {
    const root = tmpProject({ 'net/tcp': TABLE, '42/comm': `${comm}\n`, '42/cmdline': cmdline });
    mkdirSync(path.join(root, '42', 'fd'));
    symlinkSync('socket:[7777]', path.join(root, '42', 'fd', '3'));
    writeFileSync(path.join(root, '42', 'fd', 'x'), '');
    return root;
  }

  it("Node 24 and later name their main thread (comm MainThread, node-MainThread): the holder is named by argv[0]", () => {
    expect(portHolder(0x4e21, proc('MainThread', '/opt/node/bin/node\0-e\0listen\0'))).toEqual({ uid: 65534, pid: 42, comm: 'node' });
    expect(portHolder(0x4e21, proc('node-MainThread', 'node\0server.js\0'))).toEqual({ uid: 65534, pid: 42, comm: 'node' });
    // Any other name is the kernel's, as it is.
    expect(portHolder(0x4e21, proc('nc', '/usr/bin/ncat\0-l\0'))).toEqual({ uid: 65534, pid: 42, comm: 'nc' });
    expect(portHolder(0x4e21, proc('MainThread', ''))).toEqual({ uid: 65534, pid: 42, comm: 'MainThread' });
  });
});

describe.skipIf(process.platform !== 'linux')('portHolder', () => {
  it('finds a real listener of ours by its inode: our uid, its pid and command', async () => {
    const child = spawn(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
      expect(portHolder(port)).toEqual({ uid: process.getuid!(), pid: child.pid, comm: 'node' });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
