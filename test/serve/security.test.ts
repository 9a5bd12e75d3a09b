// Who may drive the server: every refusal has a test. Another local user (no token), a web page
// (Origin / Sec-Fetch, DNS rebinding through Host), oversized events and slow clients.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { servePaths } from '../../src/serve/paths.js';
import { claudeBash, rawSocket, RUN, serversClosedAfterEach, type Served } from './kit.js';
import { tmpProject, trustProject } from '../helpers.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const started = serversClosedAfterEach();
/** A project whose hook leaves a marker: a refused request must never reach it. */
function markerProject(s: Served): { dir: string; marker: string } {
  const marker = path.join(s.home, 'hook-ran');
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
  trustProject(dir, s.env);
  return { dir, marker };
}

describe('refused before anything is read or run', () => {
  const refusals: [string, (s: Served) => Record<string, string | undefined>, number, RegExp][] = [
    ['no token', () => ({ authorization: undefined }), 401, /no token/],
    ['an empty bearer', () => ({ authorization: 'Bearer ' }), 401, /no token/],
    // The last character changed (to 0, or to 1 when it was 0: the same token would not be wrong).
    ['a wrong token', (s) => ({ authorization: `Bearer ${s.token.slice(0, -1)}${s.token.endsWith('0') ? '1' : '0'}` }), 401, /wrong token/],
    ['the token as Basic auth', (s) => ({ authorization: `Basic ${s.token}` }), 401, /no token/],
    ['a longer token with the right prefix', (s) => ({ authorization: `Bearer ${s.token}00` }), 401, /wrong token/],
    ['an Origin header (a web page), even with the token', () => ({ origin: 'https://evil.example' }), 403, /Origin/],
    ['Origin: null (a sandboxed frame)', () => ({ origin: 'null' }), 403, /Origin/],
    ['Sec-Fetch-Site (a browser)', () => ({ 'sec-fetch-site': 'cross-site' }), 403, /browser/],
    ['a rebinding Host (evil.example resolving to 127.0.0.1)', (s) => ({ host: `evil.example:${s.server.port}` }), 403, /Host/],
    ['the right address on another port', (s) => ({ host: `127.0.0.1:${s.server.port! + 1}` }), 403, /Host/],
    ['localhost without the port', () => ({ host: 'localhost' }), 403, /Host/],
  ];
  it.each(refusals)('%s', async (_name, headers, status, why) => {
    const s = await started();
    const { dir, marker } = markerProject(s);
    const r = await s.tcp(RUN, claudeBash('ls', dir), headers(s));
    expect(r.status).toBe(status);
    expect(r.body).toMatch(why);
    expect(existsSync(marker)).toBe(false);
    // The control: the same request with the token and a good Host runs the hook.
    expect((await s.tcp(RUN, claudeBash('ls', dir))).status).toBe(200);
    expect(existsSync(marker)).toBe(true);
  });

  it('an address asked for with --host answers to its own name, and still to no other', async () => {
    const s = await started({ host: '127.0.0.2' });
    expect((await s.tcp('/v1/status', '', {}, 'GET')).status).toBe(200);
    expect((await s.tcp('/v1/status', '', { host: `evil.example:${s.server.port}` }, 'GET')).status).toBe(403);
  });

  it('the Unix socket wants the token too, and its status page as well', async () => {
    const s = await started();
    const { dir, marker } = markerProject(s);
    expect((await s.unix(RUN, claudeBash('ls', dir), { authorization: undefined })).status).toBe(401);
    expect((await s.unix('/v1/status', '', { authorization: undefined }, 'GET')).status).toBe(401);
    expect(existsSync(marker)).toBe(false);
    expect(JSON.parse((await s.unix('/v1/status', '', {}, 'GET')).body).refused).toBe(2);
  });

  it('the wrong method or path is refused, and nothing runs', async () => {
    const s = await started();
    const { dir, marker } = markerProject(s);
    expect((await s.tcp(RUN, '', {}, 'GET')).status).toBe(405);
    expect((await s.tcp('/v1/other', claudeBash('ls', dir))).status).toBe(404);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the secret path /i/<token>/... (clients that cannot send a header: the Docker MCP gateway)', () => {
  const wrong = (token: string) => `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;

  it('the right path runs the event with no Authorization header, over TCP and the socket', async () => {
    const s = await started();
    const { dir, marker } = markerProject(s);
    const r = await s.tcp(`/i/${s.token}${RUN}`, claudeBash('ls', dir), { authorization: undefined });
    expect(r.status).toBe(200);
    expect(existsSync(marker)).toBe(true);
    expect((await s.unix(`/i/${s.token}/v1/status`, '', { authorization: undefined }, 'GET')).status).toBe(200);
  });

  it("the gateway's http interceptor: a tools/call POSTed to the path is answered in the gateway's contract", async () => {
    const s = await started();
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'no-search', command: 'echo "no searching" >&2; exit 2' }] } }) });
    trustProject(dir, s.env);
    const call = JSON.stringify({ method: 'tools/call', params: { name: 'search', arguments: { query: 'x' } } });
    // No header at all: the project comes as ?cwd=, as the interceptor line writes it.
    const r = await s.tcp(`/i/${s.token}/v1/run?dialect=docker-mcp&event=before&cwd=${encodeURIComponent(dir)}`, call, { authorization: undefined });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ content: [{ type: 'text', text: 'no searching' }], isError: true });
  });

  it('a wrong, empty, longer or missing path token is 401, the same answer for each wrong one; nothing runs; the token is never echoed or logged', async () => {
    const s = await started();
    const { dir, marker } = markerProject(s);
    const bad = [wrong(s.token), `${s.token}0`, 'x', s.token.slice(0, 32), `${'f'.repeat(63)}0`];
    const answers = await Promise.all(bad.map((t) => s.tcp(`/i/${t}${RUN}`, claudeBash('ls', dir), { authorization: undefined })));
    for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: 401, body: 'a wrong token' });
    // The path's token is the request's only token: a good header beside a wrong path does not let it in.
    expect((await s.tcp(`/i/${wrong(s.token)}${RUN}`, claudeBash('ls', dir))).status).toBe(401);
    const empty = await s.tcp(`/i/${RUN}`, claudeBash('ls', dir), { authorization: undefined });
    expect(empty.status).toBe(401);
    expect(empty.body).toMatch(/^no token/);
    expect(existsSync(marker)).toBe(false);
    const notFound = await s.tcp(`/i/${s.token}/v1/nope`, '', { authorization: undefined });
    expect(notFound.status).toBe(404);
    const said = [...s.logs, notFound.body, empty.body, ...answers.map((a) => a.body)].join('\n');
    for (const t of [s.token, ...bad]) expect(said).not.toContain(t);
  });

  it('property: no path but the exact token gets past the check (seeded)', async () => {
    const s = await started();
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9a-f]{0,70}$/), fc.constantFrom('/v1/status', '', '/', '/v1/status?x=1'), async (token, rest) => {
        fc.pre(token !== s.token);
        const r = await s.tcp(`/i/${token}${rest}`, '', { authorization: `Bearer ${s.token}` }, 'GET');
        expect(r.status).toBe(401);
        expect(r.body).not.toContain(s.token);
      }),
      { seed: 2326, numRuns: 40, interruptAfterTimeLimit: 20_000 },
    );
  });
});

describe('size limits and slow clients', () => {
  it('an event larger than the limit is refused by its Content-Length before it is read', async () => {
    const s = await started({ limits: { maxEventBytes: 1_000 } });
    const { dir, marker } = markerProject(s);
    const r = await s.tcp(RUN, claudeBash(`echo ${'x'.repeat(2_000)}`, dir));
    expect(r.status).toBe(413);
    expect(existsSync(marker)).toBe(false);
  });

  it('a chunked body that grows past the limit is cut off', async () => {
    const s = await started({ limits: { maxEventBytes: 1_000 } });
    const { dir, marker } = markerProject(s);
    const body = claudeBash(`echo ${'x'.repeat(5_000)}`, dir);
    const r = await rawSocket(
      s.server.port!,
      `POST ${RUN} HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\nAuthorization: Bearer ${s.token}\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(r.data).toMatch(/^HTTP\/1\.1 413/);
    expect(existsSync(marker)).toBe(false);
  });

  it('headers sent too slowly (slowloris) get the connection closed', async () => {
    const s = await started({ limits: { headersTimeoutMs: 1_000 } });
    const r = await rawSocket(s.server.port!, `POST ${RUN} HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\n`);
    // Closed by the server, not by the test: within a few of its check intervals.
    expect(r.closedAfterMs).toBeGreaterThan(900);
    expect(r.closedAfterMs).toBeLessThan(10_000);
  });

  it('a body that never finishes is cut off at the request timeout', async () => {
    const s = await started({ limits: { requestTimeoutMs: 1_500, headersTimeoutMs: 1_000 } });
    const r = await rawSocket(s.server.port!, `POST ${RUN} HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\nAuthorization: Bearer ${s.token}\r\nContent-Length: 100\r\n\r\n{"a":`);
    expect(r.closedAfterMs).toBeGreaterThan(1_000);
    expect(r.closedAfterMs).toBeLessThan(10_000);
  });

  it('garbage requests of any shape get an HTTP answer or a closed connection, and the server goes on', async () => {
    const s = await started({ limits: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 } });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          path: fc.string({ maxLength: 40 }),
          body: fc.string({ maxLength: 200 }),
          dialect: fc.constantFrom('claude-code', 'codex', 'gemini', 'cursor', 'copilot', 'native', 'x'),
          event: fc.string({ maxLength: 20 }),
          withToken: fc.boolean(),
        }),
        async ({ path: p, body, dialect, event, withToken }) => {
          const url = `/v1/run?event=${encodeURIComponent(event)}&dialect=${dialect}&client=1&x=${encodeURIComponent(p)}`;
          const r = await s.tcp(url, body, withToken ? {} : { authorization: undefined });
          expect([200, 401]).toContain(r.status);
          if (r.status === 200) expect(r.body.split('\u001e')).toHaveLength(3);
        },
      ),
      { numRuns: 60, seed: 14, interruptAfterTimeLimit: 10_000 },
    );
    expect((await s.unix('/v1/status', '', {}, 'GET')).status).toBe(200);
  }, 60_000);
});

describe('a path that is not a URL path', () => {
  it('with the token: a 400, not a request left without an answer', async () => {
    const s = await started();
    const r = await rawSocket(s.server.port!, `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\nAuthorization: Bearer ${s.token}\r\n\r\n`);
    expect(r.data).toMatch(/^HTTP\/1\.1 400 /);
    expect((await s.tcp('/v1/status', '', {}, 'GET')).status).toBe(200);
  });
});

describe('files', () => {
  it('the socket is 0600 and its folder 0700; the token and the client config are 0600', async () => {
    const s = await started();
    const paths = servePaths(s.env);
    expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(paths.socket)).mode & 0o777).toBe(0o700);
    expect(statSync(paths.token).mode & 0o777).toBe(0o600);
    expect(statSync(paths.curlConfig).mode & 0o777).toBe(0o600);
  });
});
