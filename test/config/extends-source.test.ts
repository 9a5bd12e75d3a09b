// The `extends` entry parser reads strings a repository writes: whatever it is given, it answers a value
// (never throws), a git source is accepted only when pinned by a full commit, and what it accepts round-trips.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExtends } from '../../src/config/extends/source.js';

const SETTINGS = { seed: 2626, numRuns: 150, interruptAfterTimeLimit: 4_000 };
const hex40 = fc.stringMatching(/^[0-9a-f]{40}$/);
const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,10}$/);
const host = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,15}$/);

describe('parseExtends', () => {
  it('never throws, and a refusal is one line naming the entry', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('git+', 'git+https://', '#', '~', '@', '@a/', '../', 'git+file://')).map((s) => s), (spec) => {
        const r = parseExtends(spec);
        if (!r.ok) {
          expect(r.message.startsWith('extends "')).toBe(true);
          expect(r.message).not.toMatch(/[\n\r]/);
        }
      }),
      SETTINGS,
    );
  });

  it('accepts a git URL pinned by a full commit, with or without a file, and gives back its parts', () => {
    fc.assert(
      fc.property(fc.constantFrom('https', 'ssh'), host, fc.array(segment, { minLength: 1, maxLength: 3 }), hex40, fc.option(fc.array(segment, { minLength: 1, maxLength: 2 }).map((p) => `${p.join('/')}.json`), { nil: undefined }), (scheme, h, repo, commit, file) => {
        const spec = `git+${scheme}://${h}/${repo.join('/')}#${commit}${file === undefined ? '' : `:${file}`}`;
        const r = parseExtends(spec);
        expect(r).toEqual({ ok: true, source: { kind: 'git', url: `${scheme}://${h}/${repo.join('/')}`, commit, ...(file === undefined ? {} : { path: file }) } });
      }),
      SETTINGS,
    );
  });

  it('refuses a git URL pinned by anything but a full lower-case commit hash', () => {
    const notCommit = fc.oneof(
      fc.constant(''),
      fc.stringMatching(/^[0-9a-f]{1,39}$/),
      fc.stringMatching(/^[0-9a-f]{41,45}$/),
      hex40.map((h) => h.toUpperCase()).filter((h) => /[A-F]/.test(h)),
      fc.constantFrom('main', 'v1.2.3', 'HEAD', 'refs/heads/main'),
    );
    fc.assert(
      fc.property(fc.constantFrom('https', 'ssh', 'file'), notCommit, fc.boolean(), (scheme, pin, withHash) => {
        const spec = `git+${scheme}://${scheme === 'file' ? '/srv/repo.git' : 'example.com/team/policy.git'}${withHash ? `#${pin}` : ''}`;
        const r = parseExtends(spec);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.message).toMatch(/commit hash/);
      }),
      SETTINGS,
    );
  });

  it('refuses what could redraw or hide the URL `hooks trust` shows before it asks: C1 controls, bidirectional overrides, separators, zero-width characters', () => {
    const commit = 'a'.repeat(40);
    for (const c of ['\u0085', '\u009b', '\u061c', '\u200b', '\u200e', '\u2028', '\u202e', '\u2066', '\ufeff', '\u001b', '\u007f']) {
      const r = parseExtends(`git+https://evil.example/r${c}nothing to do.git#${commit}`);
      expect(r.ok, JSON.stringify(c)).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/holds a control or invisible character$/);
    }
    expect(parseExtends(`git+https://example.com/équipe/politique.git#${commit}`).ok).toBe(true);
  });

  it('never lets a part of a git URL start with "-" (git would read it as an option)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-[a-z=-]{1,12}$/), hex40, (opt, commit) => {
        expect(parseExtends(`git+ssh://${opt}/x#${commit}`).ok).toBe(false);
        expect(parseExtends(`git+file:///srv/${opt}#${commit}`).ok).toBe(false);
        // The user and the port are parts too: ssh://git@-oProxyCommand=…/x, ssh://host:-p…/x.
        expect(parseExtends(`git+ssh://git@${opt}/x#${commit}`).ok).toBe(false);
        expect(parseExtends(`git+ssh://host:${opt}/x#${commit}`).ok).toBe(false);
        expect(parseExtends(`git+https://u:${opt}@host/x#${commit}`).ok).toBe(false);
      }),
      SETTINGS,
    );
  });

  it('refuses a URL whose part before the host would read as another host, or carry a secret (hooks trust shows the URL before it asks)', () => {
    const commit = '0123456789abcdef0123456789abcdef01234567';
    const refused = [
      // git fetches from evil.example; a reader sees github.com.
      'git+https://github.com:443@evil.example/team/policy.git',
      'git+https://github.com@evil.example/team/policy.git',
      'git+ssh://github.com:22@evil.example/team/policy.git',
      'git+ssh://github.com@evil.example/team/policy.git',
      // A token committed in the URL.
      'git+https://x-access-token:ghp_FAKEFAKEFAKE@github.com/team/policy.git',
      'git+https://user@github.com/team/policy.git',
      // Not a host name: git and curl would each read these their own way.
      'git+https://github.com%2f@evil.example/x.git',
      'git+https://evil.example\\@github.com/x.git',
      'git+https://github.com:notaport/x.git',
      'git+https://a@b@evil.example/x.git',
      // git decodes %-escapes and finds "@[" in an ssh URL's path: ssh is handed the host evil.example.
      'git+ssh://git@github.com/team/x@[evil.example]/repo.git',
      'git+ssh://git@github.com/team/x%40%5Bevil.example%5D/repo.git',
      'git+https://github.com/team/x@[evil.example]/repo.git',
      'git+https://github.com/team/repo.git?x=1',
    ];
    for (const url of refused) expect(parseExtends(`${url}#${commit}`).ok, url).toBe(false);
    expect(parseExtends(`git+https://user@bitbucket.org/team/policy.git#${commit}`)).toMatchObject({ ok: false, message: expect.stringContaining('drop "user@"') });
    expect(parseExtends(`git+ssh://git@github.com:team/policy.git#${commit}`)).toMatchObject({ ok: false, message: expect.stringContaining('with a / after the host') });
    for (const url of ['git+ssh://git@github.com/team/policy.git', 'git+ssh://git@host.example/~dev/policy.git', 'git+https://dev.azure.com/org/project/_git/policy', 'git+ssh://git@git.example.com:2222/team/policy.git', 'git+https://git.example.com:8443/team/policy.git', 'git+https://[::1]:8443/x.git']) {
      expect(parseExtends(`${url}#${commit}`).ok, url).toBe(true);
    }
    fc.assert(
      fc.property(host, host, fc.stringMatching(/^[a-z]{1,8}$/), (shown, real, user) => {
        expect(parseExtends(`git+https://${shown}@${real}/r.git#${commit}`).ok).toBe(false);
        expect(parseExtends(`git+https://${user}:${shown}@${real}/r.git#${commit}`).ok).toBe(false);
        expect(parseExtends(`git+ssh://${shown}:1@${real}/r.git#${commit}`).ok).toBe(false);
      }),
      SETTINGS,
    );
  });

  it.each([
    ['./base.json', { kind: 'path', path: './base.json' }],
    ['~/policies/team.yaml', { kind: 'path', path: '~/policies/team.yaml' }],
    ['@team/hooks-policy', { kind: 'package', name: '@team/hooks-policy' }],
    ['pkg/sub.json', { kind: 'package', name: 'pkg', subpath: 'sub.json' }],
    ['git+file:///tmp/r.git#0123456789abcdef0123456789abcdef01234567:a/b.yml', { kind: 'git', url: 'file:///tmp/r.git', commit: '0123456789abcdef0123456789abcdef01234567', path: 'a/b.yml' }],
  ])('%s', (spec, source) => {
    expect(parseExtends(spec)).toEqual({ ok: true, source });
  });

  it.each([
    ['./policy.mjs', /JSON or YAML/],
    ['pkg/index.js', /JSON or YAML/],
    ['pkg/../../x.json', /plain relative path/],
    ['https://example.com/policy.json', /pinned by a full 40-character commit hash/],
    ['git+https://example.com/team/policy.git', /must be pinned/],
    ['git@github.com:team/policy.git', /git\+https/],
    ['~root/x.json', /~user/],
    ['Not A Package', /not a path/],
  ])('refuses %s', (spec, why) => {
    const r = parseExtends(spec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });
});
