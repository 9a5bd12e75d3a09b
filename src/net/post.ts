// One POST over node:http(s), for the hooks that answer over HTTP (`type: "http"`) and the judge models of
// `type: "prompt"`. node:http rather than fetch: a process's first fetch loads undici, which cost 75-190 ms
// against 13-37 ms for node:http, measured interleaved in one run (docs/model-judged.md), on every event.
// Redirects are never followed; every way a request can end is a value, never an exception.
import http from 'node:http';
import https from 'node:https';

export type PostEnd =
  /** `tooLarge`: the body passed `limit` bytes; reading stopped there and `body` is what came before. */
  | { kind: 'answered'; status: number; body: string; tooLarge: boolean }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

export interface PostOptions {
  /** Whole milliseconds, at least 1. */
  timeoutMs: number;
  /** Bytes of the response body read at most. */
  limit: number;
  signal?: AbortSignal;
}

/** POSTs `body` to `url` with `headers` and a Content-Length of the body's own. */
export function post(url: string, headers: Readonly<Record<string, string>>, body: Uint8Array, options: PostOptions): Promise<PostEnd> {
  const { signal } = options;
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: 'cancelled' });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ kind: 'error', message: 'not a URL' });
    }
    let settled = false;
    const finish = (end: PostEnd) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(end);
    };
    let req: http.ClientRequest;
    try {
      req = (target.protocol === 'https:' ? https : http).request(target, { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) }, agent: false });
    } catch (error) {
      return resolve({ kind: 'error', message: (error as Error).message });
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ kind: 'cancelled' });
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', message: error.code === 'ECONNREFUSED' ? 'connection refused' : error.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const answered = (tooLarge: boolean) => finish({ kind: 'answered', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), tooLarge });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (kept + chunk.length > options.limit) {
          // Past the limit the answer cannot be read: stop there, rather than read on until the timeout.
          answered(true);
          res.destroy();
        } else {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () => answered(false));
      res.on('error', (error) => finish({ kind: 'error', message: error.message }));
    });
    req.end(body);
  });
}
