// The live page's access rules, as the three adversaries would try them: another local user (no
// code, no session key; the server's token is no page key), a web page in the user's browser (CSRF,
// DNS rebinding, cross-origin reads, framing) and the agent (it holds the token: it can get a code,
// which is what the docs say). In-process, over loopback TCP and the Unix socket.
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPage, CSP, type Page } from '../../src/serve/page/page.js';
import { MemoryStore } from '../../src/serve/page/store.js';
import { ensureToken, servePaths } from '../../src/serve/paths.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { isolatedEnv, tmpProject } from '../helpers.js';
import { claudeBash, request, RUN, type Reply } from './kit.js';

vi.setConfig({ testTimeout: 60_000 });

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close(1_000)));
});

async function served(options: { page?: boolean } = {}) {
  const home = tmpProject();
  const env = isolatedEnv(home, {}, { trust: true });
  delete env.XDG_RUNTIME_DIR;
  const paths = servePaths(env);
  const token = ensureToken(paths);
  const page: Page | undefined = options.page === false ? undefined : createPage(new MemoryStore('in memory (test)'), () => undefined);
  const server = await startServer({ env, token, tcp: { host: '127.0.0.1', port: 0 }, socket: paths.socket, idleMs: 0, log: () => undefined, ...(page === undefined ? {} : { page }) });
  running.push(server);
  const host = `127.0.0.1:${server.port}`;
  const get = (p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> => request({ port: server.port!, host: '127.0.0.1', path: p, method, headers: { host, ...headers } });
  const api = (p: string, body = '', headers: Record<string, string> = {}) =>
    request({ socketPath: paths.socket, path: p, method: 'POST', headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers } }, body);
  const code = async () => {
    const r = await api('/v1/page-code');
    expect(r.status, r.body).toBe(200);
    return (JSON.parse(r.body) as { code: string }).code;
  };
  const session = async () => {
    const r = await get('/page/api/session', { 'x-page-code': await code(), 'sec-fetch-site': 'same-origin' });
    expect(r.status, r.body).toBe(200);
    return (JSON.parse(r.body) as { session: string }).session;
  };
  return { server, token, host, get, api, code, session, page, home };
}

describe('the page itself (no data in it)', () => {
  it('is served with a strict CSP, no CORS, no framing, and holds no inline script or style', async () => {
    const s = await served();
    for (const p of ['/page', '/page/', '/page/app.js', '/page/app.css']) {
      const r = await s.get(p, { 'sec-fetch-site': 'none' });
      expect(r.status, p).toBe(200);
      expect(r.headers['content-security-policy']).toBe(CSP);
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cache-control']).toBe('no-store');
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).not.toContain('unsafe');
    const html = (await s.get('/page/')).body;
    // Every script has a src (the CSP would refuse an inline one anyway), no style element or attribute, no event handler attribute.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/page/app.js" defer>']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    // The script draws its charts itself: no URL but its own API and the SVG namespace.
    const js = (await s.get('/page/app.js')).body;
    expect(js.match(/https?:\/\/[^'"]+/g)).toEqual(['http://www.w3.org/2000/svg']);
    expect(js).not.toMatch(/innerHTML|eval\(|new Function/);
  });

  it('refuses another Host (DNS rebinding), another origin, and a request another site started', async () => {
    const s = await served();
    expect((await s.get('/page/', { host: 'attacker.example' })).status).toBe(403);
    expect((await s.get('/page/', { host: `attacker.example:${s.server.port}` })).status).toBe(403);
    expect((await s.get('/page/', { host: '127.0.0.1:1' })).status).toBe(403);
    expect((await s.get('/page/', { origin: 'http://attacker.example' })).status).toBe(403);
    expect((await s.get('/page/', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await s.get('/page/', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await s.get('/page/', { origin: `http://${s.host}` })).status).toBe(200);
    expect((await s.get('/page/', { host: `localhost:${s.server.port}` })).status).toBe(200);
    // Only reads: no method that could change anything.
    expect((await s.get('/page/api/events', {}, 'POST')).status).toBe(405);
  });
});

describe('its data', () => {
  it('needs a session key: none, a guessed one, or the server token are all 401', async () => {
    const s = await served();
    for (const p of ['/page/api/events', '/page/api/stats', '/page/api/info', '/page/api/facets', '/page/api/stream']) {
      expect((await s.get(p)).status, p).toBe(401);
      expect((await s.get(p, { authorization: `Bearer ${'0'.repeat(64)}` })).status, p).toBe(401);
      expect((await s.get(p, { authorization: `Bearer ${s.token}` })).status, p).toBe(401);
    }
  });

  it('a one-time code: only for the token holder, never for a browser, good once, and not after 2 minutes', async () => {
    const s = await served();
    expect((await s.api('/v1/page-code', '', { authorization: 'Bearer nope' })).status).toBe(401);
    // A web page cannot fetch a code even with the token in hand: the API refuses browsers.
    expect((await s.api('/v1/page-code', '', { origin: `http://${s.host}` })).status).toBe(403);
    const code = await s.code();
    expect(code).toMatch(/^[0-9a-f]{64}$/);
    const first = await s.get('/page/api/session', { 'x-page-code': code });
    expect(first.status).toBe(200);
    expect((await s.get('/page/api/session', { 'x-page-code': code })).status).toBe(401);
    expect((await s.get('/page/api/session', { 'x-page-code': 'f'.repeat(64) })).status).toBe(401);
    // Another site's page cannot spend a code for itself (it could not read the answer anyway: no CORS).
    const stolen = await s.code();
    expect((await s.get('/page/api/session', { 'x-page-code': stolen, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const late = await s.code();
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 121_000);
    try {
      expect((await s.get('/page/api/session', { 'x-page-code': late })).status).toBe(401);
    } finally {
      clock.mockRestore();
    }
  });

  it('with a session: events, filters refused with one line, and only for a same-origin fetch', async () => {
    const s = await served();
    const key = await s.session();
    const auth = { authorization: `Bearer ${key}` };
    const info = await s.get('/page/api/info', auth);
    expect(JSON.parse(info.body)).toEqual({ store: 'memory', note: 'in memory (test)', events: 0 });
    expect((await s.get('/page/api/events?decision=maybe', auth)).body).toBe('the parameter "decision" must be one of continue, allow, ask, block, modify, halt');
    expect((await s.get('/page/api/events', { ...auth, 'sec-fetch-site': 'none' })).status).toBe(403);
    expect((await s.get('/page/api/events', { ...auth, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('records each answered event and streams it live to an open page', async () => {
    const s = await served();
    const key = await s.session();
    const auth = { authorization: `Bearer ${key}` };
    const frames: string[] = [];
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request({ port: s.server.port!, host: '127.0.0.1', path: '/page/api/stream?decision=block', headers: { host: s.host, ...auth } }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    stream.on('data', (c: Buffer) => frames.push(c.toString()));
    const project = tmpProject();
    const allowed = await s.api(`${RUN}`, claudeBash('ls', project));
    expect(allowed.status).toBe(200);
    const blocked = await s.api(`${RUN}`, claudeBash('rm -rf /', project));
    expect(JSON.parse(blocked.body).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    await vi.waitFor(() => expect(frames.join('')).toContain('event: answered'), { timeout: 10_000 });
    stream.destroy();
    const live = frames.join('').split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as { decision: string; project: string; agent: string });
    // The stream's own filter: only the block came.
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ decision: 'block', agent: 'claude-code', project: path.resolve(project) });
    const history = JSON.parse((await s.get('/page/api/events', auth)).body) as { decision: string; session: string }[];
    expect(history.map((e) => e.decision)).toEqual(['block', 'continue']);
    expect(history[0]!.session).toBe('s-1');
  });

  it('over the Unix socket the page answers too (curl can read it), and with the page off /page is the API 401', async () => {
    const s = await served();
    const key = await s.session();
    const viaSocket = await request({ socketPath: servePaths(isolatedEnv(s.home, {}, { trust: true })).socket, path: '/page/api/info', method: 'GET', headers: { host: 'localhost', authorization: `Bearer ${key}` } });
    expect(viaSocket.status).toBe(200);
    const off = await served({ page: false });
    expect((await off.get('/page/')).status).toBe(401);
    expect((await off.api('/v1/page-code')).status).toBe(404);
  });
});
