// A real headless Chromium (Debian's package), driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: NUL-terminated JSON on descriptors 3 and 4): no WebSocket, no library,
// and nothing downloaded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export interface Browser {
  /** Opens a tab at `url`; evaluate runs an expression in it (awaited, returned by value). */
  open(url: string): Promise<Tab>;
  close(): Promise<void>;
}

export interface Tab {
  evaluate<T>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy; its value, or an error naming it after `timeoutMs`. */
  waitFor<T>(expression: string, timeoutMs?: number): Promise<T>;
  screenshot(): Promise<Buffer>;
  setViewport(width: number, height: number): Promise<void>;
}

export async function launch(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error('no chromium (apt-get install chromium)');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-chromium-'));
  const args = ['--headless=new', '--remote-debugging-pipe', `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', '--disable-gpu', '--disable-extensions', '--disable-background-networking', '--disable-sync', '--metrics-recording-only', '--mute-audio', 'about:blank'];
  // Root (a container) cannot use Chromium's sandbox.
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  const child: ChildProcess = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let buffer = Buffer.alloc(0);
  output.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    let at: number;
    while ((at = buffer.indexOf(0)) >= 0) {
      const message = JSON.parse(buffer.subarray(0, at).toString('utf8')) as { id?: number; result?: unknown; error?: { message: string } };
      buffer = buffer.subarray(at + 1);
      if (message.id === undefined) continue;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => {
    for (const w of pending.values()) w.reject(new Error(`chromium exited: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    pending.clear();
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  await send('Browser.getVersion');
  return {
    async open(url) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      await send('Page.enable', {}, sessionId);
      await send('Runtime.enable', {}, sessionId);
      await send('Page.navigate', { url }, sessionId);
      const evaluate = async <T>(expression: string): Promise<T> => {
        const r = await send<{ result: { value?: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId);
        if (r.exceptionDetails !== undefined) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result.value as T;
      };
      return {
        evaluate,
        async waitFor<T>(expression: string, timeoutMs = 10_000): Promise<T> {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const value = await evaluate<T>(expression).catch(() => undefined);
            if (value) return value;
            if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${expression}`);
            await new Promise((r) => setTimeout(r, 25));
          }
        },
        async screenshot() {
          const { data } = await send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
          return Buffer.from(data, 'base64');
        },
        async setViewport(width, height) {
          await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
        },
      };
    },
    async close() {
      await send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
