// `type: "http"` hooks: the event JSON POSTed to a URL, the answer read as Claude Code 2.1.328 reads it
// (checked in its binary): `Content-Type: application/json`, no redirects followed; a 2xx with an empty
// body is an empty reply; a 2xx body that is a JSON object is read like a command hook's stdout on
// exit 0; any other 2xx body, a non-2xx status, a refused connection or a timeout is a failure (which
// blocks only under `onFailure: "block"`). A status code never blocks by itself.
import type { EventSpec } from '../events/catalog.js';
import { post, type PostEnd } from '../net/post.js';
import { readProcessEnd, type Reading } from '../reply/interpret.js';
import { wholeMs } from './duration.js';

export interface HttpSpec {
  url: string;
  headers: Readonly<Record<string, string>>;
  allowedEnvVars: readonly string[];
  /** The event JSON, as the command hooks get it on stdin. */
  body: string | Uint8Array;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** Bytes of a response body kept; past that the reply cannot be read (as a command hook's stdout). */
export const HTTP_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * A header value with `$VAR` / `${VAR}` replaced from the environment, only for names in
 * `allowedEnvVars` (others become empty, as in Claude Code); CR, LF and NUL are removed afterwards so
 * no variable can add a header of its own.
 */
export function interpolateHeader(value: string, allowed: ReadonlySet<string>, env: NodeJS.ProcessEnv): string {
  const out = value.replace(/\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)/g, (_m, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return allowed.has(name) ? (env[name] ?? '') : '';
  });
  return out.replace(/[\r\n\0]/g, '');
}

/** POSTs the event and reads the answer; every way it can end is a value, never an exception. */
export async function runHttp(spec: HttpSpec, event: EventSpec): Promise<Reading> {
  const end = await request(spec);
  if (end.kind === 'timeout') return readProcessEnd({ kind: 'timeout', timeoutMs: wholeMs(spec.timeoutMs) }, event);
  if (end.kind === 'cancelled') return readProcessEnd({ kind: 'cancelled' }, event);
  if (end.kind === 'error') return { ok: false, failure: { kind: 'error', message: `POST ${spec.url}: ${end.message}` } };
  if (end.status < 200 || end.status > 299) {
    return { ok: false, failure: { kind: 'error', message: `POST ${spec.url}: HTTP ${end.status}${end.body.trim() === '' ? '' : `: ${oneLine(end.body)}`}` } };
  }
  if (end.tooLarge) return readProcessEnd({ kind: 'too-large', stream: 'stdout', limit: HTTP_BODY_LIMIT }, event);
  const body = end.body.trim();
  if (body !== '' && !body.startsWith('{')) {
    return { ok: false, failure: { kind: 'invalid-json', message: `POST ${spec.url}: an http hook must answer JSON, got: ${oneLine(body)}` } };
  }
  return readProcessEnd({ kind: 'exited', exitCode: 0, stdout: body, stderr: '' }, event);
}

// --- internal ---

/** The request as Claude Code sends it: the hook's headers (interpolated), then its own JSON content type. */
function request(spec: HttpSpec): Promise<PostEnd> {
  const allowed = new Set(spec.allowedEnvVars);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers)) {
    // The length comes from the body, as in Claude Code; a header cannot change it.
    if (/^(content-length|transfer-encoding|host)$/i.test(name.trim())) continue;
    headers[name.trim()] = interpolateHeader(value, allowed, spec.env);
  }
  headers['Content-Type'] = 'application/json';
  const body = typeof spec.body === 'string' ? Buffer.from(spec.body) : spec.body;
  return post(spec.url, headers, body, { timeoutMs: wholeMs(spec.timeoutMs), limit: HTTP_BODY_LIMIT, ...(spec.signal === undefined ? {} : { signal: spec.signal }) });
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
