// `hooks serve page`'s one request: a one-time code for the live page, asked over the Unix socket with
// the token (the caller has checked the socket is this user's server's, as the client does).
import http from 'node:http';
import { HooksError } from '../../errors.js';

export function pageCode(socket: string, token: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, path: '/v1/page-code', method: 'POST', headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-length': 0 }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new HooksError('USAGE', `hooks serve page: the server answered ${res.statusCode}: ${body.trim().split('\n')[0]}`));
        try {
          const code = (JSON.parse(body) as { code?: unknown }).code;
          if (typeof code === 'string' && /^[0-9a-f]{64}$/.test(code)) return resolve(code);
        } catch {
          // below
        }
        reject(new HooksError('USAGE', 'hooks serve page: the server did not answer with a code (an older server? "hooks serve stop", then start)'));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (error) => reject(new HooksError('USAGE', `hooks serve page: ${error.message}`)));
    req.end();
  });
}
