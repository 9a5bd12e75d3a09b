// Vitest's globalSetup for the unit suite: the whole run writes its temporary files in one folder of its own,
// removed when the run ends. The tests make a few thousand throwaway projects, homes and sockets through
// os.tmpdir(); left behind, one unit run kept about a gigabyte, and CI, which runs the suite on four Node
// lines and then the agents, filled its disk (ENOSPC in the e2e phase). Workers, and every hook they spawn,
// inherit TMPDIR from here, since the pool starts after globalSetup. The e2e suite removes each workspace
// itself (test/e2e/harness/workspace.ts) and keeps /tmp: its serve sockets, one folder deeper, would pass the
// 103 bytes a socket path may take.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function runTmp(): () => void {
  // A short name: a serve socket lives a few folders below a test's home, and sockaddr_un holds 108 bytes.
  const root = mkdtempSync(path.join(os.tmpdir(), 'ahv-'));
  // Open to enter, not to write: tests that run a step as another uid reach the folders they open to it, and
  // no other user can plant a name in it for the removal below (run as root) to follow.
  chmodSync(root, 0o755);
  const outer = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    // Removing a run's tens of thousands of files takes about 8 s (measured: rm -rf is not much faster than
    // rmSync; it is the file system), which `npm test` would wait for: a detached rm does it after vitest has
    // exited. Where there is no rm (Windows), the run waits.
    if (process.platform === 'win32') rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    else spawn('rm', ['-rf', '--', root], { detached: true, stdio: 'ignore' }).unref();
  };
}
