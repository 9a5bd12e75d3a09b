#!/usr/bin/env node
// hooks serve against its baselines, all measured in the same run on the same machine:
//   1. one builtins-only event over loopback HTTP (new connection each, and keep-alive): p50/p99,
//      against a bare Node HTTP server's round trip;
//   2. throughput with 16 concurrent keep-alive clients, and the server's RSS over --events events;
//   3. the command-only client (agent-hooks-client: sh + curl over the Unix socket) + server per
//      event, against a cold `hooks run` of the same event (interleaved), with the alternatives a
//      client could be: python3 over the socket, bash /dev/tcp over loopback, node itself;
//   4. a command hook through the server against running that hook directly, in exec and in shell form,
//      and against the floor (a bare server that spawns it) and the same server without spares
//      (AGENT_HOOKS_SERVE_SPARES=0: each hook spawned as its event comes);
//   5. one huge PostToolUse (--huge-keys keys in its tool_response, 18 MB at 1M) beside another session's
//      small PreToolUse events, one after the other: their p50/p99 while it is in flight against the same
//      events just before (the server judges no event so large itself: it goes to a `hooks run` of its own).
// Usage: node bench/serve.mjs [--runs 30] [--latency 2000] [--events 100000] [--huge-keys 1000000]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin, quantile as q, root } from './kit.mjs';

const runs = Number(flag('--runs', 30));
const latencyN = Number(flag('--latency', 2000));
const events = Number(flag('--events', 100000));
const hugeKeys = Number(flag('--huge-keys', 1_000_000));
const concurrency = 16;
const client = path.join(root, 'bin', 'agent-hooks-client');

const tmp = (p) => mkdtempSync(path.join(os.tmpdir(), `agent-hooks-bench-${p}-`));
const home = tmp('home');
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, 'config'),
  XDG_STATE_HOME: path.join(home, 'state'),
  XDG_CACHE_HOME: path.join(home, 'cache'),
  AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'),
  AGENT_HOOKS_SERVE_AUTOSTART: '0',
};
delete env.XDG_RUNTIME_DIR;
for (const k of ['HOOKS_SKIP', 'HOOKS_DISABLE', 'HOOKS_ON_ERROR', 'HOOKS_NO_CACHE', 'CLAUDE_PROJECT_DIR']) delete env[k];

function trust(dir, e) {
  const r = spawnSync(process.execPath, [hooksBin, 'trust', '--yes'], { cwd: dir, env: e, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`trust: ${r.stderr}`);
}

function project(config) {
  const dir = tmp('project');
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
  trust(dir, env);
  return dir;
}

const hookScript = path.join(home, 'hook.sh');
writeFileSync(hookScript, '#!/bin/sh\ncat >/dev/null\nexit 0\n', { mode: 0o755 });
const builtins = project({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths' }] } });
const withCommand = project({ hooks: { preToolUse: [{ id: 'sh-hook', command: hookScript, args: [] }] } });
const withShellCommand = project({ hooks: { preToolUse: [{ id: 'sh-hook', command: hookScript }] } });
// A typical guard: python3 reading the event as JSON. The interpreter itself, not a version manager's shim
// in front of it (pyenv's is a bash script that costs more than python), so the hook's cost is python's.
const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout?.trim() || undefined;
const pyHook = path.join(home, 'hook.py');
writeFileSync(pyHook, 'import json, sys\nevent = json.load(sys.stdin)\nsys.exit(0)\n');
const withPython = python === undefined ? undefined : project({ hooks: { preToolUse: [{ id: 'py-hook', command: python, args: ['-S', pyHook] }] } });
const payload = (cwd) => JSON.stringify({ session_id: 'bench', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench' });

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

// --- the server, as its own process (its memory is what is measured) ---
const port = await freePort();
env.AGENT_HOOKS_SERVE_PORT = String(port);
const server = spawn(process.execPath, [hooksBin, 'serve'], { env, stdio: 'ignore', cwd: '/' });
// A failed run must not leave its servers behind (they would skew every later measurement).
const children = [server];
process.on('exit', () => children.forEach((c) => c.kill('SIGTERM')));
/** The server's token, once the server under `stateHome` answers on `portTo`. */
async function serverToken(stateHome, portTo) {
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      const t = readFileSync(path.join(stateHome, 'agent-hooks', 'serve', 'token'), 'utf8').trim();
      const ok = await post(`/v1/status`, '', { method: 'GET', token: t, portTo }).then((r) => r.status === 200, () => false);
      if (ok) return t;
    } catch {}
  }
  throw new Error(`hooks serve on port ${portTo} did not come up`);
}
const token = await serverToken(env.XDG_STATE_HOME, port);
// The same server without spares (AGENT_HOOKS_SERVE_SPARES=0: each command hook spawned as its event comes), for
// part 4: what spares buy. Its own state folder (one server per user, and its own trust store), the same config.
const noSparesPort = await freePort();
const noSparesEnv = { ...env, XDG_STATE_HOME: path.join(home, 'state-no-spares'), AGENT_HOOKS_SERVE_PORT: String(noSparesPort), AGENT_HOOKS_SERVE_SPARES: '0' };
for (const dir of [builtins, withCommand]) trust(dir, noSparesEnv);
children.push(spawn(process.execPath, [hooksBin, 'serve'], { env: noSparesEnv, stdio: 'ignore', cwd: '/' }));
const noSparesToken = await serverToken(noSparesEnv.XDG_STATE_HOME, noSparesPort);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

function post(p, body, { agent = false, method = 'POST', token: t = token, portTo = port } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: portTo, path: p, method, agent, headers: { host: `127.0.0.1:${portTo}`, authorization: `Bearer ${t}`, 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A bare Node HTTP server (in its own process) answering 200 with an empty body: the loopback floor. On
// /spawn it does the least a server running a command hook can do (part 4's floor): spawns the hook with
// the body on stdin and answers its stdout.
const barePort = await freePort();
const bareCode = `const cp=require('child_process');require('http').createServer((q,s)=>{const b=[];q.on('data',c=>b.push(c));q.on('end',()=>{
if(q.url!=='/spawn')return s.end();
const c=cp.spawn(${JSON.stringify(hookScript)},[],{stdio:'pipe',detached:true});const o=[];c.stdout.on('data',d=>o.push(d));c.stderr.resume();
c.on('close',()=>s.end(Buffer.concat(o)));c.stdin.on('error',()=>{});c.stdin.end(Buffer.concat(b))})}).listen(${barePort},'127.0.0.1')`;
const bare = spawn(process.execPath, ['-e', bareCode], { stdio: 'ignore' });
children.push(bare);
await new Promise((r) => setTimeout(r, 500));

const URL_RUN = '/v1/run?event=pre-tool-use&dialect=claude-code';
const builtinEvent = payload(builtins);
// Both servers run the hooks (a project their trust store does not know would run none, and measure nothing).
const dangerous = JSON.stringify({ ...JSON.parse(builtinEvent), tool_input: { command: 'rm -rf /' } });
for (const [name, options] of [['serve', {}], ['serve (AGENT_HOOKS_SERVE_SPARES=0)', { token: noSparesToken, portTo: noSparesPort }]]) {
  const check = await post(URL_RUN, dangerous, options);
  if (check.status !== 200 || !check.body.includes('"deny"')) throw new Error(`${name} did not block rm -rf /: ${check.status} ${check.body}`);
}

async function timed(fn, n) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return samples;
}

// 1. Latency.
const keep = new http.Agent({ keepAlive: true, maxSockets: 1 });
const bareKeep = new http.Agent({ keepAlive: true, maxSockets: 1 });
await timed(() => post(URL_RUN, builtinEvent), 200); // warm up
const lat = {
  'serve, builtins-only event, new connection': await timed(() => post(URL_RUN, builtinEvent), latencyN),
  'bare node http server, new connection': await timed(() => post('/', builtinEvent, { portTo: barePort }), latencyN),
  'serve, builtins-only event, keep-alive': await timed(() => post(URL_RUN, builtinEvent, { agent: keep }), latencyN),
  'bare node http server, keep-alive': await timed(() => post('/', builtinEvent, { portTo: barePort, agent: bareKeep }), latencyN),
};

// 2. Throughput and memory.
const agents = Array.from({ length: concurrency }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
const rssAt = [];
let sent = 0;
const startedAt = process.hrtime.bigint();
await Promise.all(
  agents.map(async (agent) => {
    while (sent < events) {
      const n = ++sent;
      const r = await post(URL_RUN, builtinEvent, { agent });
      if (r.status !== 200) throw new Error(`throughput: ${r.status}`);
      if (n % Math.max(1, Math.floor(events / 10)) === 0) rssAt.push([n, rss()]);
    }
  }),
);
const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
const perSecond = events / seconds;
// The same load on the bare server, for the ratio (a tenth of the events: it is the rate that counts).
const bareAgents = Array.from({ length: concurrency }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
const bareEvents = Math.max(1000, Math.floor(events / 10));
let bareSent = 0;
const bareStarted = process.hrtime.bigint();
await Promise.all(bareAgents.map(async (agent) => {
  while (bareSent < bareEvents) {
    bareSent++;
    await post('/', builtinEvent, { agent, portTo: barePort });
  }
}));
const barePerSecond = bareEvents / (Number(process.hrtime.bigint() - bareStarted) / 1e9);

// 3. Client + server per event vs cold hooks run, and the alternatives, interleaved.
const launcher = path.join(home, 'agent-hooks');
writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(hooksBin)} "$@"\n`, { mode: 0o755 });
const curlrc = path.join(env.XDG_STATE_HOME, 'agent-hooks', 'serve', 'client.curlrc');
const socket = path.join(env.XDG_STATE_HOME, 'agent-hooks', 'serve', 'serve.sock');
const pyClient = `import socket,sys
b=sys.stdin.buffer.read();s=socket.socket(socket.AF_UNIX);s.connect(${JSON.stringify(socket)})
s.sendall(b"POST ${URL_RUN}&client=1 HTTP/1.0\\r\\nHost: localhost\\r\\nAuthorization: Bearer ${token}\\r\\nContent-Length: %d\\r\\n\\r\\n"%len(b)+b)
r=b""
while True:
  c=s.recv(65536)
  if not c: break
  r+=c
o,e,x=r.split(b"\\r\\n\\r\\n",1)[1].split(b"\\x1e");sys.stdout.buffer.write(o);sys.stderr.buffer.write(e);sys.exit(int(x))`;
const bashTcp = `exec 3<>/dev/tcp/127.0.0.1/${port}; body=$(cat); LC_ALL=C; printf 'POST ${URL_RUN}&client=1 HTTP/1.0\\r\\nHost: 127.0.0.1:${port}\\r\\nAuthorization: Bearer ${token}\\r\\nContent-Length: %d\\r\\n\\r\\n%s' "\${#body}" "$body" >&3; r=$(cat <&3); r=\${r#*$'\\r\\n\\r\\n'}; printf '%s' "\${r%%$'\\x1e'*}"; c=\${r##*$'\\x1e'}; exit "$c"`;
const coldCases = [
  { name: "node -e ''", cmd: process.execPath, args: ['-e', ''], input: '' },
  { name: 'hooks run (cold), builtins', cmd: process.execPath, args: [hooksBin, 'run', 'pre-tool-use', '--dialect', 'claude-code'], input: builtinEvent, cwd: builtins },
  { name: 'agent-hooks-client (sh + curl, socket) + serve', cmd: client, args: [launcher, 'run', 'pre-tool-use', '--dialect', 'claude-code'], input: builtinEvent },
  { name: 'curl alone (-q --version): its start-up', cmd: 'curl', args: ['-q', '--version'], input: '' },
  { name: 'alternative: python3 over the socket + serve', cmd: python ?? 'python3', args: ['-S', '-c', pyClient], input: builtinEvent },
  { name: 'alternative: bash /dev/tcp (loopback) + serve', cmd: 'bash', args: ['-c', bashTcp], input: builtinEvent },
];
const cold = coldCases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  coldCases.forEach((c, k) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(c.cmd, c.args, { input: c.input, env, cwd: c.cwd ?? home, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0 && r.status !== 2) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) cold[k].push(ms);
  });
}

// 4. A command hook through the server vs the hook run directly (both from this process).
const commandEvent = payload(withCommand);
// A fresh agent: part 3's spawnSync blocked this process for longer than the server's keep-alive,
// so the old agent's socket may be closed with the close not yet seen (a "socket hang up").
const hookKeep = new http.Agent({ keepAlive: true, maxSockets: 1 });
const bareHookKeep = new http.Agent({ keepAlive: true, maxSockets: 1 });
await timed(() => post(URL_RUN, commandEvent, { agent: hookKeep }), 20);
await timed(() => post('/spawn', commandEvent, { portTo: barePort, agent: bareHookKeep }), 20);
// The server without spares gets a share of part 2's load first: a spawn's cost grows with the
// spawning process's heap, which those events grew in the other one.
const noSparesKeep = new http.Agent({ keepAlive: true, maxSockets: 1 });
const noSparesLoad = Array.from({ length: concurrency }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
let noSparesSent = 0;
await Promise.all(noSparesLoad.map(async (agent) => {
  while (noSparesSent++ < Math.max(1000, Math.floor(events / 5))) await post(URL_RUN, builtinEvent, { agent, token: noSparesToken, portTo: noSparesPort });
}));
await timed(() => post(URL_RUN, commandEvent, { agent: noSparesKeep, token: noSparesToken, portTo: noSparesPort }), 20);
// Like for like: the same command in the same form, run by this process as an agent would (stdin
// written, stdout and stderr read, waited for until closed), and through the server with that command
// in its config. Exec form is a program with arguments; shell form is `sh -c`, as Claude Code runs its
// command hooks (and as a config's command without `args` runs).
const shellEvent = payload(withShellCommand);
await timed(() => post(URL_RUN, shellEvent, { agent: hookKeep }), 20);
if (withPython !== undefined) await timed(() => post(URL_RUN, payload(withPython), { agent: hookKeep }), 5);
const direct = (cmd, args) => () =>
  new Promise((resolve) => {
    const c = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    c.stdout.resume();
    c.stderr.resume();
    c.on('close', resolve);
    c.stdin.end(commandEvent);
  });
const hookCases = [
  ['exec form, run directly', direct(hookScript, [])],
  ['exec form, through the server (keep-alive HTTP)', () => post(URL_RUN, commandEvent, { agent: hookKeep })],
  ['shell form (sh -c), run directly', direct('/bin/sh', ['-c', hookScript])],
  ['shell form (sh -c), through the server', () => post(URL_RUN, shellEvent, { agent: hookKeep })],
  ['floor: a bare Node server that only spawns it (exec)', () => post('/spawn', commandEvent, { portTo: barePort, agent: bareHookKeep })],
  ['exec form, the server without spares', () => post(URL_RUN, commandEvent, { agent: noSparesKeep, token: noSparesToken, portTo: noSparesPort })],
  ...(withPython === undefined
    ? []
    : [
        ['python3 hook (json.load of stdin), run directly', direct(python, ['-S', pyHook])],
        ['python3 hook, through the server', () => post(URL_RUN, payload(withPython), { agent: hookKeep })],
      ]),
];
const hookSamples = hookCases.map(() => []);
// A pause before each sample, for every case alike: an agent's tool calls are a model turn apart, and what a
// case leaves running after its answer (the server starting a spare, a GC) must not land on the next case's clock.
const GAP_MS = 20;
for (let i = 0; i < runs * 5; i++) {
  for (const [k, [, fn]] of hookCases.entries()) {
    await new Promise((r) => setTimeout(r, GAP_MS));
    hookSamples[k].push(...(await timed(fn, 1)));
  }
}

// 5. One huge event beside a stream of small ones from another session. The small ones are sampled while the
// huge one is in flight (at most 30 s; it is then given up, which ends its run), against the same stream
// just before.
const hugeResponse = {};
for (let i = 0; i < hugeKeys; i++) hugeResponse[`k${i}`] = `v${i}`;
// A folder with no config: the default guards (redact-secrets on PostToolUse) judge it.
const plain = tmp('plain');
const hugeEvent = JSON.stringify({ session_id: 'huge', cwd: plain, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat big.json' }, tool_response: hugeResponse, tool_use_id: 'toolu_huge' });
const smallKeep = new http.Agent({ keepAlive: true, maxSockets: 1 });
const small = () => post(URL_RUN, builtinEvent, { agent: smallKeep });
await timed(small, 50);
const smallAlone = await timed(small, latencyN);
let hugeDone;
const hugeStarted = process.hrtime.bigint();
const hugeReq = http.request({ host: '127.0.0.1', port, path: '/v1/run?event=post-tool-use&dialect=claude-code', method: 'POST', agent: false, headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
  res.resume();
  res.on('end', () => (hugeDone = { status: res.statusCode, ms: Number(process.hrtime.bigint() - hugeStarted) / 1e6 }));
});
hugeReq.on('error', () => (hugeDone ??= { status: 'given up', ms: Number(process.hrtime.bigint() - hugeStarted) / 1e6 }));
hugeReq.end(hugeEvent);
const smallBeside = [];
const besideUntil = Date.now() + 30_000;
while (hugeDone === undefined && Date.now() < besideUntil) smallBeside.push(...(await timed(small, 1)));
if (hugeDone === undefined) {
  hugeReq.destroy();
  while (hugeDone === undefined) await new Promise((r) => setTimeout(r, 50));
}

server.kill('SIGTERM');
bare.kill('SIGTERM');

// --- report ---
const f = (x) => x.toFixed(2).padStart(8);
console.log(`hooks serve, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`\n1. latency, ${latencyN} sequential requests each (ms)`);
console.log(`${'case'.padEnd(46)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}`);
for (const [name, s] of Object.entries(lat)) console.log(`${name.padEnd(46)} ${f(q(s, 0.5))} ${f(q(s, 0.99))}`);
const l = Object.values(lat);
console.log(`serve / bare round trip, p50: ${(q(l[0], 0.5) / q(l[1], 0.5)).toFixed(2)}× (new connection), ${(q(l[2], 0.5) / q(l[3], 0.5)).toFixed(2)}× (keep-alive)`);
console.log(`\n2. throughput: ${events} events, ${concurrency} concurrent keep-alive clients: ${Math.round(perSecond)} events/s (${seconds.toFixed(1)} s); the bare server: ${Math.round(barePerSecond)}/s (serve at ${(perSecond / barePerSecond).toFixed(2)}× its rate)`);
console.log(`   server RSS (MiB) after n events: ${rssAt.map(([n, m]) => `${n}: ${m.toFixed(1)}`).join(', ')}`);
if (rssAt.length >= 2) console.log(`   last / first sample: ${(rssAt.at(-1)[1] / rssAt[0][1]).toFixed(2)}×`);
console.log(`\n3. one event per process, ${runs} runs each, interleaved (ms)`);
const coldBase = q(cold[1], 0.5);
console.log(`${'case'.padEnd(46)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× cold run'.padStart(10)}`);
coldCases.forEach((c, k) => console.log(`${c.name.padEnd(46)} ${f(q(cold[k], 0.5))} ${f(q(cold[k], 0.9))} ${(q(cold[k], 0.5) / coldBase).toFixed(2).padStart(10)}`));
console.log(`\n4. command hooks (the cheapest: a sh script that reads stdin; a typical one: python3), ${runs * 5} runs each, interleaved, ${GAP_MS} ms apart (ms)`);
hookCases.forEach(([name], k) => console.log(`${name.padEnd(52)} ${f(q(hookSamples[k], 0.5))} ${f(q(hookSamples[k], 0.9))}`));
const hookRatio = (k) => (q(hookSamples[k + 1], 0.5) / q(hookSamples[k], 0.5)).toFixed(2);
console.log(`through the server / run directly, median: ${hookRatio(0)}× (exec form), ${hookRatio(2)}× (shell form)`);
const med4 = hookSamples.map((s) => q(s, 0.5));
console.log(`the floor / run directly: ${(med4[4] / med4[0]).toFixed(2)}× (exec form); the runner's own share per hook: ${(med4[1] - med4[4]).toFixed(2)} ms (exec), the floor's: ${(med4[4] - med4[0]).toFixed(2)} ms`);
console.log(`the server without spares (AGENT_HOOKS_SERVE_SPARES=0) / run directly: ${(med4[5] / med4[0]).toFixed(2)}× (exec form); spares save ${(med4[5] - med4[1]).toFixed(2)} ms per hook`);
if (med4.length > 6) console.log(`a python3 hook through the server / run directly: ${(med4[7] / med4[6]).toFixed(2)}×`);
else console.log('(no python3: the typical-hook case was not measured)');
console.log(`\n5. a huge PostToolUse (${hugeKeys} keys, ${(Buffer.byteLength(hugeEvent) / 1e6).toFixed(1)} MB) beside another session's small PreToolUse events (ms)`);
console.log(`${'small events'.padEnd(46)} ${'n'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`);
for (const [name, x] of [['alone, just before', smallAlone], ['while the huge one is in flight', smallBeside]]) console.log(`${name.padEnd(46)} ${String(x.length).padStart(6)} ${f(q(x, 0.5))} ${f(q(x, 0.99))} ${f(Math.max(...x))}`);
console.log(`in flight / alone: p50 ${(q(smallBeside, 0.5) / q(smallAlone, 0.5)).toFixed(2)}×, p99 ${(q(smallBeside, 0.99) / q(smallAlone, 0.99)).toFixed(2)}×; the huge one: ${hugeDone.status} after ${(hugeDone.ms / 1000).toFixed(1)} s`);
process.exit(0);
