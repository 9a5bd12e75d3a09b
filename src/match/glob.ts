// Globs, compiled once each: the only module that uses picomatch.
import picomatch from 'picomatch';

/**
 * How a glob reads its text. Every kind sets the `s` flag: picomatch's `**` is built on `.`, which does not
 * cross a newline, so a path holding one (a folder named "a\nb", made by the agent) would escape every `**`
 * rule and skip the hook that guards it.
 */
const KINDS = {
  // Tool and agent names, in any case.
  tool: { nocase: true, flags: 'is' },
  // `*` crosses `/` in commands and prompts: `rm *` must see `rm -rf /tmp/x`.
  text: { bash: true, dot: true, flags: 's' },
  // Patterns without a slash match the basename: `*.env` matches `/home/me/app/.env`. (picomatch's
  // `basename` option also changes patterns that have a slash, so it is set only for those without.)
  basename: { dot: true, basename: true, flags: 's' },
  path: { dot: true, flags: 's' },
} satisfies Record<string, picomatch.PicomatchOptions>;

export type GlobKind = keyof typeof KINDS;

const cache = new Map<string, picomatch.Matcher>();

/** The matcher of a glob of this kind (the same function for the same pattern and kind). */
export function glob(pattern: string, kind: GlobKind): picomatch.Matcher {
  const key = `${kind}:${pattern}`;
  let matcher = cache.get(key);
  if (matcher === undefined) {
    matcher = picomatch(pattern, KINDS[kind]);
    cache.set(key, matcher);
  }
  return matcher;
}

/** A path glob: against the basename when it has no slash, else against the whole path. */
export function pathGlob(pattern: string): picomatch.Matcher {
  return glob(pattern, pattern.includes('/') ? 'path' : 'basename');
}
