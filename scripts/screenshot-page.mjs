#!/usr/bin/env node
// Takes docs/images/live-page.png: the live page of a server in this process, fed fake events, in
// Debian's headless Chromium (over a DevTools pipe). `npm run build`, then
// `node scripts/screenshot-page.mjs [out.png]`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? path.join(root, 'docs', 'images', 'live-page.png');
const { startServer } = await import(path.join(root, 'dist/serve/server.js'));
const { createPage } = await import(path.join(root, 'dist/serve/page/page.js'));
const { openStore } = await import(path.join(root, 'dist/serve/page/store.js'));
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (chromium === undefined) {
  console.error('scripts/screenshot-page: no chromium (apt-get install -y chromium)');
  process.exit(1);
}

// Fake events: three projects, two agents, a few guards; some blocks and asks.
// SQLite on a Node that has it (run this with Node 22.13+ for the picture in the docs), else in memory.
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-shot-db-'));
const store = openStore(path.join(storeDir, 'page.db'));
const page = createPage(store, () => undefined);
const now = Date.parse('2026-11-27T17:00:00Z');
const projects = ['/home/ada/src/webshop', '/home/ada/src/infra', '/home/ada/src/notes'];
const commands = [
  ['exec', 'continue', undefined],
  ['write', 'continue', undefined],
  ['exec', 'block', ['command-safety', 'command-safety: remote-code: output of curl piped into sh']],
  ['read', 'block', ['sensitive-paths', 'sensitive-paths: .env holds secrets']],
  ['exec', 'ask', ['no-force-push', 'git push --force: ask the user first']],
  ['edit', 'modify', undefined],
];
const events = [];
for (let i = 0; i < 60; i++) {
  const [tool, decision, by] = commands[(i * 7) % commands.length];
  const hooks = [
    { id: 'command-safety', layer: 'user', outcome: by?.[0] === 'command-safety' ? 'block' : 'continue', ms: 1 + ((i * 3) % 4) },
    { id: 'sensitive-paths', layer: 'user', outcome: by?.[0] === 'sensitive-paths' ? 'block' : 'continue', ms: 1 + (i % 2) },
    ...(i % 3 === 0 ? [{ id: 'no-force-push', layer: 'project', outcome: by?.[0] === 'no-force-push' ? 'ask' : 'continue', ms: 18 + ((i * 13) % 30) }] : []),
    ...(i % 4 === 0 ? [{ id: 'lint-on-write', layer: 'project', outcome: decision === 'modify' ? 'modify' : 'continue', ms: 140 + ((i * 37) % 260) }] : []),
  ];
  events.push({
    id: 0,
    ts: now - (60 - i) * 41_000,
    event: 'preToolUse',
    agent: i % 5 === 0 ? 'codex' : 'claude-code',
    project: projects[i % 3],
    session: `${(i % 4).toString(16)}f3c9a1e-7b2d-4c55-9e0a-${(1000 + (i % 4)).toString()}`,
    tool,
    decision,
    ...(by === undefined ? {} : { decidedBy: by[0], reason: by[1] }),
    ms: hooks.reduce((a, h) => a + h.ms, 0),
    hooks,
  });
}
store.add(events);

const server = await startServer({ env: process.env, token: randomBytes(32).toString('hex'), tcp: { host: '127.0.0.1', port: 0 }, idleMs: 0, log: () => undefined, page });
const url = `http://127.0.0.1:${server.port}/page/#code=${page.code().code}`;

const profile = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-shot-'));
const args = ['--headless=new', '--remote-debugging-pipe', `--user-data-dir=${profile}`, '--no-first-run', '--disable-gpu', '--disable-extensions', '--hide-scrollbars', '--force-color-profile=srgb', 'about:blank'];
if (process.getuid?.() === 0) args.unshift('--no-sandbox');
const child = spawn(chromium, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const exited = new Promise((resolve) => child.on('exit', resolve));
const pending = new Map();
let next = 1;
let buffer = Buffer.alloc(0);
child.stdio[4].on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  let at;
  while ((at = buffer.indexOf(0)) >= 0) {
    const m = JSON.parse(buffer.subarray(0, at).toString());
    buffer = buffer.subarray(at + 1);
    const w = pending.get(m.id);
    if (!w) continue;
    pending.delete(m.id);
    if (m.error) w.reject(new Error(m.error.message));
    else w.resolve(m.result);
  }
});
const send = (method, params = {}, sessionId) =>
  new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    child.stdio[3].write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
  });
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false }, sessionId);
  await send('Page.enable', {}, sessionId);
  await send('Page.navigate', { url }, sessionId);
  const ready = "document.body.dataset.live === 'yes' && document.querySelectorAll('#events tr').length > 0 && document.querySelector('#latency rect') !== null";
  for (let i = 0; ; i++) {
    const r = await send('Runtime.evaluate', { expression: ready, returnByValue: true }, sessionId);
    if (r.result.value === true) break;
    if (i > 200) throw new Error('the page did not load its events');
    await new Promise((res) => setTimeout(res, 50));
  }
  const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, Buffer.from(data, 'base64'));
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await send('Browser.close').catch(() => undefined);
  const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(kill);
  await server.close(1_000);
  page.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(storeDir, { recursive: true, force: true });
}
