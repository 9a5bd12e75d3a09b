// `type: "http"` hooks against a real server on 127.0.0.1: the event is POSTed, the answer read as Claude Code
// reads it; a status code, a refused connection or a timeout never blocks unless onFailure says so.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpolateHeader } from '../../src/run/http.js';
import { bash, runnerWith } from '../helpers.js';

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let base = '';

/** Routes: the path says what the server answers. */
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      const route = req.url ?? '';
      if (route === '/deny') res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'server says no' } }));
      else if (route === '/empty') res.end('');
      else if (route === '/text') res.end('not json');
      else if (route === '/500') {
        res.statusCode = 500;
        res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'ignored' } }));
      } else if (route === '/redirect') {
        res.statusCode = 302;
        res.setHeader('Location', '/deny');
        res.end();
      } else if (route === '/slow') setTimeout(() => res.end('{}'), 60_000).unref();
      else res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const httpHook = (route: string, extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: `${base}${route}`, ...extra }] }] } });

describe('http hooks', () => {
  it('POSTs the event JSON and a 2xx JSON deny blocks', async () => {
    seen.length = 0;
    const runner = await runnerWith(httpHook('/deny') as never);
    const decision = await runner.run(bash('rm -rf /tmp/x'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toContain('server says no');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/x' } });
  });

  it('a 2xx with an empty body is an empty reply', async () => {
    const decision = await (await runnerWith(httpHook('/empty') as never)).run(bash('ls'));
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).not.toMatch(/failed/);
  });

  it.each([
    ['/text', /must answer JSON/],
    ['/500', /HTTP 500/],
    ['/redirect', /HTTP 302/],
  ])('%s is a failure that does not block (and is reported)', async (route, message) => {
    const decision = await (await runnerWith(httpHook(route) as never)).run(bash('ls'));
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(message);
  });

  it('with onFailure block, a non-2xx blocks', async () => {
    const decision = await (await runnerWith(httpHook('/500', { onFailure: 'block' }) as never)).run(bash('ls'));
    expect(decision.decision).toBe('block');
  });

  it('a refused connection is reported and does not block', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const runner = await runnerWith({ hooks: { preToolUse: [{ type: 'http', url: `http://127.0.0.1:${port}/x` }] } } as never);
    const decision = await runner.run(bash('ls'));
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(/connection refused/);
  });

  it('a timeout is reported and does not block', async () => {
    const started = performance.now();
    const decision = await (await runnerWith(httpHook('/slow', { timeout: 1 }) as never)).run(bash('ls'));
    // The server answers after 60 s: returning at all, after the 1 s, is the timeout; the ceiling only tells a hang from a busy machine.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000 - 50);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(decision.decision).toBe('continue');
    expect(decision.warnings.join('\n')).toMatch(/timed out/);
  });

  it('headers take only the environment variables allowedEnvVars names', async () => {
    seen.length = 0;
    const runner = await runnerWith(httpHook('/ok', { headers: { Authorization: 'Bearer $TOKEN', 'X-Other': '${SECRET}x', 'X-Fixed': 'v' }, allowedEnvVars: ['TOKEN'] }) as never, {
      env: { TOKEN: 'tok123', SECRET: 'leak' },
    });
    await runner.run(bash('ls'));
    expect(seen[0]!.headers.authorization).toBe('Bearer tok123');
    expect(seen[0]!.headers['x-other']).toBe('x');
    expect(seen[0]!.headers['x-fixed']).toBe('v');
  });

  it('property: an interpolated header never holds CR, LF or NUL, nor a variable that is not allowed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 20 }), (template, value) => {
        const out = interpolateHeader(template, new Set(['OK']), { OK: value, NO: 'SECRET-VALUE' });
        expect(out).not.toMatch(/[\r\n\0]/);
        if (!template.includes('SECRET-VALUE') && !value.includes('SECRET-VALUE')) expect(out).not.toContain('SECRET-VALUE');
      }),
      { seed: 9, numRuns: 300, interruptAfterTimeLimit: 3000 },
    );
  });
});
