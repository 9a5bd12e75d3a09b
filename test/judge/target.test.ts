// The judge's target: what a hook inherits from the user's defaults, and how an endpoint is shown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeSettings, shownUrl } from '../../src/judge/target.js';
import { settings } from '../fuzz/settings.js';

describe('judgeSettings', () => {
  const user = { provider: 'openai' as const, endpoint: 'http://127.0.0.1:1/v1', apiKeyEnv: 'MY_KEY', apiKeyFile: '~/k', model: 'llama3.1', budget: 5 };

  it('a hook of the same provider (or naming none) gets the user defaults', () => {
    expect(judgeSettings(user, {})).toEqual({ provider: 'openai', endpoint: 'http://127.0.0.1:1/v1', apiKeyEnv: 'MY_KEY', apiKeyFile: '~/k', model: 'llama3.1' });
    expect(judgeSettings(user, { provider: 'openai', model: 'x' })).toMatchObject({ endpoint: 'http://127.0.0.1:1/v1', apiKeyFile: '~/k', model: 'x' });
  });

  it('a hook naming the other provider gets none of the endpoint, key source or model', () => {
    expect(judgeSettings(user, { provider: 'anthropic' })).toEqual({ provider: 'anthropic' });
    expect(judgeSettings({ apiKeyFile: '~/k' }, { provider: 'openai', model: 'm' })).toEqual({ provider: 'openai', model: 'm' });
  });
});

describe('shownUrl', () => {
  it('replaces user:password and keeps the rest', () => {
    expect(shownUrl('http://u:p@127.0.0.1:8/v1/messages')).toBe('http://[credentials]@127.0.0.1:8/v1/messages');
    expect(shownUrl('https://127.0.0.1/a@b')).toBe('https://127.0.0.1/a@b');
  });

  it('property: no part of the userinfo is left, whatever it holds, and the host and path are kept', () => {
    const userinfo = fc.stringMatching(/^[A-Za-z0-9:@%._~-]{1,40}$/);
    fc.assert(
      fc.property(userinfo, fc.stringMatching(/^[a-z0-9/]{0,20}$/), (info, tail) => {
        const shown = shownUrl(`http://${info}@127.0.0.1:9/${tail}`);
        expect(shown).toBe(`http://[credentials]@127.0.0.1:9/${tail}`);
      }),
      settings(300),
    );
  });
});
