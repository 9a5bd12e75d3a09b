// The environment a client sends after its event (untrusted bytes off a socket): read exactly or
// refused whole, never half read; and what a server keeps of the session that started it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHooksError } from '../../src/errors.js';
import { serverEnv, sessionRequest } from '../../src/serve/session-env.js';

const params = { seed: 20261127, numRuns: 300, interruptAfterTimeLimit: 8_000 };
/** What `env -0` can print: a name without `=` or NUL, a value without NUL. */
const name = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !n.includes('=') && !n.includes('\0'));
const value = fc.string({ maxLength: 40 }).filter((v) => !v.includes('\0'));
const block = (env: Record<string, string>) => Object.entries(env).map(([k, v]) => `${k}=${v}\0`).join('');

describe('sessionRequest', () => {
  it('reads back any event (no NUL: no JSON text has one) and any non-empty environment env -0 can print, exactly', () => {
    fc.assert(
      fc.property(fc.dictionary(name, value, { minKeys: 1 }), fc.string().filter((e) => !e.includes('\0')), (env, event) => {
        const read = sessionRequest('nul', Buffer.from(`${event}\0${block(env)}`));
        expect(read.event.toString()).toBe(event);
        const expected = { ...env };
        delete expected.AGENT_HOOKS_TOKEN;
        delete expected.AGENT_HOOKS_SERVE_AUTOSTARTED;
        expect({ ...read.env }).toEqual(expected);
      }),
      params,
    );
  });

  it('any body: an environment and an event, or a one-line HooksError; never another exception', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '=', '\0', 'b', '\n', '_') , maxLength: 60 }), (body) => {
        try {
          const read = sessionRequest('nul', Buffer.from(body));
          expect(Buffer.isBuffer(read.event)).toBe(true);
        } catch (error) {
          expect(isHooksError(error)).toBe(true);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
      params,
    );
  });

  it('refuses no environment, an empty one (env -0 failed), one cut short, an entry that is not NAME=value, and another format; without the header the body is the event', () => {
    expect(() => sessionRequest('nul', Buffer.from('{"x":1}'))).toThrow(/no environment after the event/);
    expect(() => sessionRequest('nul', Buffer.from('{}\0'))).toThrow(/empty environment .*env -0 failed/);
    expect(() => sessionRequest('nul', Buffer.from('{}\0A=1\0B=2'))).toThrow(/cut short/);
    expect(() => sessionRequest('nul', Buffer.from('{}\0=x\0'))).toThrow(/not NAME=value/);
    expect(() => sessionRequest('nul', Buffer.from('{}\0A=1\0\0'))).toThrow(/not NAME=value/);
    expect(() => sessionRequest('json', Buffer.from('{}\0A=1\0'))).toThrow(/expected "nul"/);
    expect(sessionRequest(undefined, Buffer.from('{}\0A=1\0'))).toEqual({ event: Buffer.from('{}\0A=1\0') });
    // A name like __proto__ is a name like any other, and the token never reaches a hook.
    const read = sessionRequest('nul', Buffer.from(`{}\0__proto__=x\0AGENT_HOOKS_TOKEN=${'f'.repeat(64)}\0PATH=/a\0`));
    expect(Object.entries(read.env!)).toEqual([['__proto__', 'x'], ['PATH', '/a']]);
  });
});

describe('serverEnv', () => {
  const session = { HOME: '/h', USER: 'u', PATH: '/project/bin:/usr/bin', SECRET: 's', XDG_STATE_HOME: '/h/s', AGENT_HOOKS_MANAGED_CONFIG: '/m', AGENT_HOOKS_TOKEN: 't', CLAUDE_PROJECT_DIR: '/p', LC_ALL: 'C' };

  it('a server started by hand keeps its environment, but never the token or a session\'s project folder', () => {
    expect(serverEnv(session)).toEqual({ HOME: '/h', USER: 'u', PATH: '/project/bin:/usr/bin', SECRET: 's', XDG_STATE_HOME: '/h/s', AGENT_HOOKS_MANAGED_CONFIG: '/m', LC_ALL: 'C' });
  });

  it('a server the client started keeps only where the user\'s files are (not a per-run switch); PATH is the system\'s', () => {
    expect(serverEnv({ ...session, HOOKS_SKIP: 'command-safety', AGENT_HOOKS_SERVE_AUTOSTARTED: '1' })).toEqual({ HOME: '/h', USER: 'u', PATH: '/usr/local/bin:/usr/bin:/bin', XDG_STATE_HOME: '/h/s', AGENT_HOOKS_MANAGED_CONFIG: '/m', LC_ALL: 'C' });
  });
});
