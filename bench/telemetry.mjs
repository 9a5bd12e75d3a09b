#!/usr/bin/env node
// What OpenTelemetry export costs `hooks run`: the same event with one command hook, without telemetry
// and with OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP receiver on 127.0.0.1 (one event exported:
// the SDK loaded, a span per event and per hook, the metrics, sent and answered before the exit).
// Interleaved and measured in the same run against bare `node -e ''`: wall time, and on Linux the
// children's CPU time (user + system, from /proc/self/stat once each is reaped), which a loaded machine
// disturbs far less. Usage: node bench/telemetry.mjs [--runs 20]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as bin, quantile as q } from './kit.mjs';

const runs = Number(flag('--runs', 20));
let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${server.address().port}`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ command: 'true', args: [] }] } }));
const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };
for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
const trusted = spawnSync(process.execPath, [bin, 'trust', '--yes'], { cwd: dir, env, encoding: 'utf8' });
if (trusted.status !== 0) throw new Error(`trust: ${trusted.stderr}`);
const event = JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench' });

const cases = [
  { name: "node -e ''", args: ['-e', ''], input: '' },
  { name: 'hooks run, 1 command, telemetry off', args: [bin, 'run', 'pre-tool-use'], input: event },
  { name: 'hooks run, 1 command, OTLP to 127.0.0.1', args: [bin, 'run', 'pre-tool-use'], input: event, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } },
];

/** CPU ms of this process's reaped children so far (cutime + cstime, clock ticks of 10 ms), or NaN off Linux. */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Spawned without blocking this process: the receiver answers from it. */
function run(c) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const cpu = childrenCpuMs();
    const child = spawn(process.execPath, c.args, { cwd: dir, env: { ...env, ...c.env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || stderr.includes('telemetry')) reject(new Error(`${c.name}: exit ${code}: ${stderr}`));
      else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, cpu: childrenCpuMs() - cpu });
    });
    child.stdin.end(c.input);
  });
}

const samples = cases.map(() => []);
const cpus = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  for (const [k, c] of cases.entries()) {
    const { ms, cpu } = await run(c);
    if (i >= 2) {
      samples[k].push(ms);
      cpus[k].push(cpu);
    }
  }
}
server.close();
if (received < runs * 2) throw new Error(`the receiver got ${received} requests for ${runs + 2} exporting runs (traces and metrics each)`);

const base = q(samples[0], 0.5);
const off = q(samples[1], 0.5);
const cpuMean = (k) => cpus[k].reduce((a, b) => a + b, 0) / cpus[k].length;
console.log(`agent-hooks telemetry cost, ${runs} runs each, Node ${process.version}, ${os.cpus().length} cores`);
console.log(`${'case'.padEnd(44)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× node'.padStart(8)} ${'× off'.padStart(8)} ${'cpu ms'.padStart(8)} ${'cpu × off'.padStart(10)}`);
cases.forEach((c, k) => {
  const med = q(samples[k], 0.5);
  console.log(`${c.name.padEnd(44)} ${med.toFixed(1).padStart(8)} ${q(samples[k], 0.9).toFixed(1).padStart(8)} ${(med / base).toFixed(2).padStart(8)} ${(med / off).toFixed(2).padStart(8)} ${cpuMean(k).toFixed(0).padStart(8)} ${(cpuMean(k) / cpuMean(1)).toFixed(2).padStart(10)}`);
});
