// The judge's request against servers that misbehave at the HTTP level: a redirect is not followed, a
// huge body, a trickling body past the timeout and a TLS handshake with a plain-HTTP server are each a
// named failure, never an allow.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { runnerFor } from '../../src/engine.js';
import { bash, isolatedEnv, tmpProject } from '../helpers.js';

const KEY = 'sk-ant-test-2222-not-a-real-key';
let server: http.Server;
let sink: http.Server;
let base = '';
let sinkBase = '';
const sinkSeen: string[] = [];
const timers = new Set<NodeJS.Timeout>();

async function listen(s: http.Server): Promise<string> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  sink = http.createServer((req, res) => {
    sinkSeen.push(`${req.url} ${JSON.stringify(req.headers)}`);
    res.end('{}');
  });
  sinkBase = await listen(sink);
  server = http.createServer((req, res) => {
    const scenario = (req.url ?? '').split('/')[1];
    req.resume();
    if (scenario === 'redirect') {
      res.writeHead(307, { location: `${sinkBase}/stolen/v1/messages` });
      return res.end();
    }
    if (scenario === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"content":[{"type":"text","text":"{\\"ok\\": true}"}],"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    }
    if (scenario === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 100);
      timers.add(t);
      res.on('close', () => clearInterval(t));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  base = await listen(server);
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  sink.closeAllConnections();
  await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => sink.close(r))]);
});

async function run(endpoint: string, hook: Record<string, unknown> = {}) {
  const dir = tmpProject();
  const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok? $ARGUMENTS', ...hook }] }] } };
  const layer: ConfigLayer = { layer: 'user', file: path.join(dir, 'user.json'), dir, config: user, trust: 'implicit' };
  const config = await resolveConfig([layer], { cwd: dir });
  const env = isolatedEnv(dir);
  for (const name of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) delete env[name];
  return runnerFor(config, { ...env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: endpoint }).run(bash('git status'));
}

describe('askModel: failures at the HTTP level', () => {
  it('a 307 redirect is an error, not followed: the key never reaches the Location', async () => {
    const d = await run(`${base}/redirect`);
    expect(d.results[0]?.failure?.kind).toBe('error');
    expect(d.results[0]?.failure?.message).toMatch(/redirect, not followed/);
    expect(sinkSeen).toEqual([]);
  });

  it('a body over 1 MiB is an error, even when it would hold ok:true', async () => {
    const d = await run(`${base}/huge`);
    expect(d.results[0]?.failure?.kind).toBe('error');
    expect(d.results[0]?.failure?.message).toMatch(/over 1048576 bytes/);
  });

  it('a body that trickles past the hook timeout is a timeout (the runner does not wait for the end)', async () => {
    const d = await run(`${base}/trickle`, { timeout: 1 });
    expect(d.results[0]?.failure?.kind).toBe('timeout');
  });

  it('https to a server that speaks plain HTTP is an error naming the TLS failure', async () => {
    const d = await run(base.replace('http://', 'https://'));
    expect(d.results[0]?.failure?.kind).toBe('error');
    expect(d.results[0]?.failure?.message).not.toContain(KEY);
  });

  it('with onFailure: "block" each of these blocks', async () => {
    for (const scenario of ['redirect', 'huge']) {
      const d = await run(`${base}/${scenario}`, { onFailure: 'block' });
      expect(d.decision).toBe('block');
    }
  });
});
