// Guard `secret-write`: stops a hard-coded credential from being written into a file (Write, Edit,
// MultiEdit, NotebookEdit, apply_patch, and shell writers such as `echo … > f`, `cat <<EOF > f`, `tee`).
import { posix } from 'node:path';
import type { Guard, HandlerFn, ReplyObject } from '../types.js';
import { createRedactor, type Redactor } from './redact-secrets/engine.js';
import { writtenBy, type Written } from './secret-write/content.js';
import type { SecretWriteOptions, SecretWriteOptionsInput } from './secret-write/options.js';

export type { SecretWriteOptions, SecretWriteOptionsInput } from './secret-write/options.js';

// Paths where credentials are expected to be fake: test trees, fixtures, and test files by name.
const TEST_PATH =
  /(?:^|[/\\])(?:tests?|__tests__|__mocks__|__fixtures__|fixtures?|testdata|test-data|spec|specs|mocks?)[/\\]|(?:^|[/\\])[^/\\]*(?:\.(?:test|spec)\.[A-Za-z0-9]+|_test\.go|_spec\.rb)$|(?:^|[/\\])test_[^/\\]*\.py$/;

export interface SecretWriteVerdict {
  verdict: 'allow' | 'block' | 'ask';
  reason?: string;
}

/**
 * The path relative to the project root (`cwd`), `..` resolved, or undefined when it lies outside
 * the project or cannot be told (`~`, `$VAR`, an absolute path with no cwd to compare with). The
 * exemptions are judged on this alone: on the path as written, `test/../src/x.ts` and every file of a
 * project checked out under `~/test/` would pass.
 */
export function projectRelative(path: string, cwd: string | undefined): string | undefined {
  if (/^~|[$`]/.test(path)) return undefined;
  const slashed = (p: string): string => p.replace(/\\/g, '/').replace(/^[A-Za-z]:(?=\/)/, (d) => `/${d[0]!.toLowerCase()}`);
  const file = slashed(path);
  const root = cwd !== undefined && cwd !== '' ? slashed(cwd) : undefined;
  let rel: string;
  if (posix.isAbsolute(file)) {
    if (root === undefined || !posix.isAbsolute(root)) return undefined;
    rel = posix.relative(posix.normalize(root), posix.normalize(file));
  } else rel = posix.normalize(file);
  if (rel === '' || rel === '.' || rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel)) return undefined;
  return rel.replace(/^\.\//, '');
}

/** `allowPaths` entries match whole folders or names of the project-relative path: `docs/examples/` at its start or after a `/`. */
function allowedBy(rel: string, allowPaths: readonly string[]): boolean {
  return allowPaths.some((entry) => {
    const want = entry.replace(/\\/g, '/').replace(/^\.?\//, '');
    if (want === '') return false;
    for (let at = rel.indexOf(want); at !== -1; at = rel.indexOf(want, at + 1)) if (at === 0 || rel[at - 1] === '/') return true;
    return false;
  });
}

/**
 * The verdict on one tool call (canonical tool name); exported for tests and the docs' examples.
 * `cwd` is the payload's working directory (the project root the exemptions are judged against).
 */
export function judgeWrite(tool: string, toolInput: unknown, options: SecretWriteOptionsInput = {}, redactor: Redactor = createRedactor({ rules: options.rules ?? {} }), cwd?: string): SecretWriteVerdict {
  const decision = options.decision ?? 'block';
  let written: Written[];
  let shellError: string | undefined;
  try {
    ({ written, shellError } = writtenBy(tool, toolInput));
  } catch (error) {
    // A bug in reading the input must not let a credential through unseen: ask, and say why.
    return { verdict: 'ask', reason: `secret-write: the tool input could not be read (${errorName(error)})` };
  }
  try {
    return judgeWritten(written, shellError, decision, options, redactor, cwd);
  } catch (error) {
    // The same for the scan itself. Only the error's type goes into the reason: an engine's message can
    // quote the text it was given, which is the credential.
    return { verdict: 'ask', reason: `secret-write: the written text could not be scanned (${errorName(error)})` };
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name} in the guard` : 'an error in the guard';
}

function judgeWritten(written: Written[], shellError: string | undefined, decision: 'block' | 'ask', options: SecretWriteOptionsInput, redactor: Redactor, cwd: string | undefined): SecretWriteVerdict {
  const allowTests = options.allowTestPaths ?? true;
  const allowPaths = options.allowPaths ?? [];
  const hits = new Map<string, Set<string>>();
  for (const { path, text } of written) {
    const rel = path === undefined ? undefined : projectRelative(path, cwd);
    if (rel !== undefined && ((allowTests && TEST_PATH.test(rel)) || allowedBy(rel, allowPaths))) continue;
    const { findings } = redactor.text(text);
    if (findings.length === 0) continue;
    // The path goes into the reason, so it is shown only as far as it holds no secret itself.
    const where = path === undefined ? 'a file' : redactor.text(path).text;
    const rules = hits.get(where) ?? new Set<string>();
    for (const f of findings) rules.add(f.rule);
    hits.set(where, rules);
  }
  if (hits.size === 0) return { verdict: 'allow' };
  const list = [...hits].map(([where, rules]) => `${where} (${[...rules].join(', ')})`).join('; ');
  // The parser's message can quote the command, so it is shown redacted.
  const parse = shellError === undefined ? '' : ` (the command could not be parsed: ${redactor.text(shellError).text}; judged as a whole)`;
  return {
    verdict: decision,
    reason: `secret-write: a hard-coded credential would be written to ${list}${parse}. Read it from an environment variable or a secret store instead; test fixtures (test/, fixtures/, *.test.*) and placeholders such as <your-key> or \${TOKEN} are allowed.`,
  };
}

export const secretWrite: Guard<SecretWriteOptions> = {
  id: 'secret-write',
  summary: 'Blocks (or asks about) hard-coded credentials written into files by Write/Edit/apply_patch or shell writers; test fixtures and placeholders pass.',
  events: ['preToolUse'],
  match: ['write', 'edit', 'apply_patch', 'exec'],
  options: async () => (await import('./secret-write/options.js')).secretWriteOptions,
  create(options) {
    const redactor = createRedactor({ rules: options.rules });
    const handler: HandlerFn = (input, context): ReplyObject | undefined => {
      const tool = context.tool ?? (typeof input.tool_name === 'string' ? input.tool_name : '');
      const verdict = judgeWrite(tool, input.tool_input, options, redactor, typeof input.cwd === 'string' ? input.cwd : undefined);
      return verdict.verdict === 'allow' ? undefined : { decision: verdict.verdict, reason: verdict.reason ?? 'secret-write' };
    };
    return handler;
  },
};
