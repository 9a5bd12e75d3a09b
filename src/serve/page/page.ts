// The live page of `hooks serve`: GET /page (HTML, script and style, no data), and its data under
// /page/api/ (history, per-hook figures, a live stream of server-sent events). Same rules as the API:
// loopback only, this server's Host, over TCP the kernel-checked owner; and its own key, never a
// cookie. A browser cannot send the server's token (it is in a file), so `hooks serve page` asks the
// server (over the token-checked API) for a one-time code, valid 2 minutes, and prints a URL with it
// in the fragment (never sent to the server, not in logs). The page trades the code once for a
// session key it keeps in sessionStorage (this origin only, this tab only) and sends as
// `Authorization: Bearer` on each request: nothing a cross-site page can make the browser send, so no
// CSRF; no CORS header, so no other origin reads an answer.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { PAGE_CSS, PAGE_HTML, PAGE_JS } from './assets.js';
import { parseFilters } from './filters.js';
import { matches, type Store } from './store.js';
import type { PageEvent } from './record.js';

export const PAGE_PREFIX = '/page';
const CODE_MS = 120_000;
const MAX_CODES = 16;
const MAX_SESSIONS = 32;
const MAX_STREAMS = 16;
const MAX_BUFFERED = 1024 * 1024;

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface Page {
  /** A fresh one-time code (for `hooks serve page`, through the token-checked API). */
  code(): { code: string; expiresInMs: number };
  /** Answers a request under /page that passed the Host and owner checks. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void;
  /** An answered event: stored, then sent to the live pages. */
  record(event: PageEvent): void;
  readonly store: Store;
  close(): void;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export function createPage(store: Store, log: (line: string) => void): Page {
  // Kept as digests: compared in constant time, and a heap dump does not hand out a usable key.
  const codes = new Map<string, number>();
  const sessions: Buffer[] = [];
  const streams = new Set<{ res: http.ServerResponse; filters: ReturnType<typeof parseFilters> }>();
  let queue: PageEvent[] = [];
  let flushing = false;
  const heartbeat = setInterval(() => {
    for (const s of streams) s.res.write(': keep-alive\n\n');
  }, 15_000);
  heartbeat.unref();

  const flush = () => {
    flushing = false;
    const batch = queue;
    queue = [];
    try {
      store.add(batch);
    } catch (error) {
      log(`page history: could not store ${batch.length} events: ${(error as Error).message}`);
      return;
    }
    for (const s of streams) {
      // A page that does not read (a frozen tab) is let go rather than buffered without end; it reconnects.
      if (s.res.writableLength > MAX_BUFFERED) {
        log('page: a live page stopped reading; its stream was closed');
        s.res.destroy();
        streams.delete(s);
        continue;
      }
      for (const e of batch) {
        if ('problem' in s.filters || matches(e, s.filters)) s.res.write(`id: ${e.id}\nevent: answered\ndata: ${JSON.stringify(e)}\n\n`);
      }
    }
  };

  const validSession = (req: http.IncomingMessage): boolean => {
    const auth = req.headers.authorization;
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return false;
    const given = digest(auth.slice(7).trim());
    let ok = false;
    for (const s of sessions) ok = timingSafeEqual(s, given) || ok;
    return ok;
  };

  const takeCode = (given: string): boolean => {
    const now = Date.now();
    const d = digest(given);
    let found: string | undefined;
    for (const [key, expires] of codes) {
      if (expires < now) codes.delete(key);
      else if (timingSafeEqual(Buffer.from(key, 'hex'), d)) found = key;
    }
    if (found === undefined) return false;
    codes.delete(found);
    return true;
  };

  return {
    store,
    code() {
      const code = randomBytes(32).toString('hex');
      codes.set(digest(code).toString('hex'), Date.now() + CODE_MS);
      while (codes.size > MAX_CODES) codes.delete(codes.keys().next().value!);
      return { code, expiresInMs: CODE_MS };
    },
    record(event) {
      queue.push(event);
      if (!flushing) {
        flushing = true;
        // After the answer is written: the store never sits on an event's clock.
        setImmediate(flush);
      }
    },
    handle(req, res, url) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed: the page only reads', 'text/plain; charset=utf-8');
      const path = url.pathname;
      if (path === PAGE_PREFIX || path === `${PAGE_PREFIX}/`) return send(res, 200, PAGE_HTML, 'text/html; charset=utf-8');
      if (path === `${PAGE_PREFIX}/app.js`) return send(res, 200, PAGE_JS, 'text/javascript; charset=utf-8');
      if (path === `${PAGE_PREFIX}/app.css`) return send(res, 200, PAGE_CSS, 'text/css; charset=utf-8');
      if (!path.startsWith(`${PAGE_PREFIX}/api/`)) return send(res, 404, 'not found', 'text/plain; charset=utf-8');
      // Data only to the page's own script: a same-origin fetch (or a client that is no browser).
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') return send(res, 403, `a ${oneLine(String(site))} request for the page's data`, 'text/plain; charset=utf-8');
      if (path === `${PAGE_PREFIX}/api/session`) {
        const code = req.headers['x-page-code'];
        if (typeof code !== 'string' || !takeCode(code)) return send(res, 401, 'no valid one-time code: run "hooks serve page" for a new link', 'text/plain; charset=utf-8');
        const key = randomBytes(32).toString('hex');
        sessions.push(digest(key));
        if (sessions.length > MAX_SESSIONS) sessions.shift();
        return send(res, 200, JSON.stringify({ session: key }), 'application/json');
      }
      if (!validSession(req)) return send(res, 401, 'no page session: run "hooks serve page" for a new link', 'text/plain; charset=utf-8');
      const filters = parseFilters(withoutKeys(url.searchParams));
      if ('problem' in filters) return send(res, 400, filters.problem, 'text/plain; charset=utf-8');
      try {
        switch (path) {
          case `${PAGE_PREFIX}/api/info`:
            return send(res, 200, JSON.stringify({ store: store.kind, note: store.note ?? null, events: store.count() }), 'application/json');
          case `${PAGE_PREFIX}/api/events`:
            return send(res, 200, JSON.stringify(store.query(filters)), 'application/json');
          case `${PAGE_PREFIX}/api/stats`:
            return send(res, 200, JSON.stringify(store.stats(filters)), 'application/json');
          case `${PAGE_PREFIX}/api/facets`:
            return send(res, 200, JSON.stringify(store.facets()), 'application/json');
          case `${PAGE_PREFIX}/api/stream`: {
            if (streams.size >= MAX_STREAMS) return send(res, 503, `${MAX_STREAMS} live pages are open already`, 'text/plain; charset=utf-8');
            res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8' });
            res.write(': live\n\n');
            const stream = { res, filters };
            streams.add(stream);
            res.on('close', () => streams.delete(stream));
            return;
          }
          default:
            return send(res, 404, 'not found', 'text/plain; charset=utf-8');
        }
      } catch (error) {
        log(`page: ${path}: ${(error as Error).message}`);
        return send(res, 500, 'the page history could not be read (see the server log)', 'text/plain; charset=utf-8');
      }
    },
    close() {
      clearInterval(heartbeat);
      if (queue.length > 0) flush();
      for (const s of streams) s.res.end();
      streams.clear();
      store.close();
    },
  };
}

/** `?k=` is nobody's business but the page's own cache buster; everything else is a filter. */
function withoutKeys(query: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(query);
  copy.delete('_');
  return copy;
}

const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

function send(res: http.ServerResponse, status: number, body: string, type: string): void {
  if (res.headersSent || res.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

function oneLine(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
}
