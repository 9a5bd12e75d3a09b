// Where a Linux interface is missing, the server and its install say so in one line, never an exception
// and never silently: the inputs are faked (a /proc that is not there, another platform's name).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformProblem } from '../../src/serve/lifecycle.js';
import { ownerCheckProblem, sharedReader, socketOwner } from '../../src/serve/peer.js';
import { tmpProject } from '../helpers.js';

const client = { address: '127.0.0.1', port: 50000 };
const server = { address: '127.0.0.1', port: 41234 };

describe('the owner check without /proc/net (macOS, Windows)', () => {
  it('ownerCheckProblem: undefined where the table is readable; one line naming the file where it is not', () => {
    const proc = path.join(tmpProject(), 'net');
    mkdirSync(proc);
    writeFileSync(path.join(proc, 'tcp'), '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n');
    expect(ownerCheckProblem(proc)).toBeUndefined();
    const missing = path.join(tmpProject(), 'no-proc', 'net');
    const problem = ownerCheckProblem(missing);
    expect(problem).toMatch(/^owner check off: \S+\/no-proc\/net\/tcp cannot be read .* only the token keeps other local users out; the Unix socket is not affected \(see docs\/platforms\.md\)$/);
    expect(problem).not.toContain('\n');
  });

  it('socketOwner: a table that cannot be read gives "unknown", not an exception', async () => {
    const missing = path.join(tmpProject(), 'no-proc');
    const reader = sharedReader((file) => import('node:fs/promises').then((fs) => fs.readFile(path.join(missing, file), 'latin1')));
    await expect(socketOwner(client, server, reader)).resolves.toBe('unknown');
  });
});

describe('the server on Windows', () => {
  it('platformProblem: one line for win32 naming what to do instead; nothing on Linux or macOS', () => {
    expect(platformProblem('linux')).toBeUndefined();
    expect(platformProblem('darwin')).toBeUndefined();
    const problem = platformProblem('win32');
    expect(problem).toMatch(/^hooks serve runs on Linux and macOS only: .*install without --serve .*docs\/platforms\.md$/);
    expect(problem).not.toContain('\n');
  });
});
