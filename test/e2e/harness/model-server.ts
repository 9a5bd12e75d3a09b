// Starts fake-model-server.mjs as its own process and reads what it recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { track, untrack, waitFor } from './process.js';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-model-server.mjs');

export type WireApi = 'anthropic' | 'responses' | 'gemini' | 'chat';

/** One scripted answer to a request that offers tools: a tool call, or text. */
export type Step = { tool: { name: string; input: Record<string, unknown> } } | { text: string };

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  /** "turn": offered tools and got the next step of the script; "judge": a prompt hook's judge request (--judge-deny); "side": anything else. */
  kind: 'turn' | 'side' | 'judge' | 'verify';
  step: Step | null;
  body: Record<string, unknown>;
}

export interface ModelServer {
  url: string;
  port: number;
  pid: number;
  /** Everything recorded so far, in order. */
  requests(): RecordedRequest[];
  /** The requests that offered tools (the agent's real model turns). */
  turns(): RecordedRequest[];
  stop(): void;
}

export async function startModelServer(api: WireApi, script: Step[], dir: string, options: { judgeDeny?: string; agentDeny?: string; agentRead?: string } = {}): Promise<ModelServer> {
  const scriptFile = path.join(dir, `model-script-${api}.json`);
  const log = path.join(dir, `model-requests-${api}.jsonl`);
  writeFileSync(scriptFile, JSON.stringify(script));
  writeFileSync(log, '');
  const judge = [
    ...(options.judgeDeny === undefined ? [] : ['--judge-deny', options.judgeDeny]),
    ...(options.agentDeny === undefined ? [] : ['--agent-deny', options.agentDeny, '--agent-read', options.agentRead ?? '']),
  ];
  const child: ChildProcess = spawn(process.execPath, [SERVER, '--api', api, '--script', scriptFile, '--log', log, ...judge], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error('the fake model server did not start');
  const pid = child.pid;
  track(pid);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const port = await waitFor(
    () => {
      const line = out.split('\n')[0];
      if (line === undefined || !out.includes('\n')) return undefined;
      return (JSON.parse(line) as { port: number }).port;
    },
    { timeoutMs: 10_000, what: `the fake ${api} server to listen (stderr: ${err})` },
  );
  const requests = (): RecordedRequest[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as RecordedRequest)
      : [];
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    requests,
    turns: () => requests().filter((r) => r.kind === 'turn'),
    stop() {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
      untrack(pid);
    },
  };
}
