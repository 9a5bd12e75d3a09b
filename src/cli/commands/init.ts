// `hooks init`: a starter config (with $schema) and an example guard, never overwriting without --force.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { packageRoot } from '../../install/bin.js';
import type { Command } from '../command.js';

const GUARD_FILE = path.join('.hooks', 'no-force-push.mjs');
const CASES_FILE = path.join('hooks-tests', 'starter.json');

// The starter test cases: `npx agent-hooks test` passes at once in the new project, and shows what a
// case looks like. The config is named, as an explicit --config is: the cases test this file.
const CASES = {
  config: '../.hooksrc.json',
  cases: [
    {
      name: 'no-force-push blocks git push --force',
      event: { sample: 'pre-tool-use', tool: 'exec', input: { command: 'git push --force origin main' } },
      expect: { decision: 'block', reason: 'Force push blocked' },
    },
    {
      name: 'git push --force-with-lease goes through',
      event: { sample: 'pre-tool-use', tool: 'exec', input: { command: 'git push --force-with-lease origin main' } },
      expect: { decision: 'continue' },
    },
    {
      name: 'command-safety blocks rm -rf /',
      event: { sample: 'pre-tool-use', tool: 'exec', input: { command: 'rm -rf /' } },
      expect: { decision: 'block', reason: 'command-safety' },
    },
  ],
};

const GUARD = `#!/usr/bin/env node
// Example guard written by \`agent-hooks init\`: blocks \`git push --force\` (and -f), allows --force-with-lease.
// It gets the event as JSON on stdin; exit 2 blocks with stderr as the reason; exit 0 lets it through.
// Config: { "id": "no-force-push", "command": "node ${GUARD_FILE}", "match": "exec", "if": { "command": "*git*push*" } }
import { readFileSync } from 'node:fs';

const event = JSON.parse(readFileSync(0, 'utf8'));
const words = String(event.tool_input?.command ?? '').split(/\\s+/);
const push = words.indexOf('push');
const forced = push > 0 && words[push - 1] === 'git' && words.slice(push + 1).some((w) => w === '--force' || w === '-f' || /^-[a-z]*f[a-z]*$/.test(w));
if (forced) {
  console.error('Force push blocked: it can destroy commits others pushed. Use git push --force-with-lease.');
  process.exit(2);
}
`;

export const command: Command = {
  help: `Usage: hooks init [options]

Writes a starter .hooksrc.json in the current folder (with "$schema" for editor completion), an
example guard, .hooks/no-force-push.mjs, and starter test cases, hooks-tests/starter.json, so that
"npx agent-hooks test" passes at once. Commit all three. Never overwrites an existing file without
--force.

Options:
  --force   overwrite existing files
`,
  args: { positional: [], flags: { force: 'boolean' } },
  async run(args, ctx) {
    const configFile = path.join(ctx.cwd, '.hooksrc.json');
    const guardFile = path.join(ctx.cwd, GUARD_FILE);
    const casesFile = path.join(ctx.cwd, CASES_FILE);
    const force = args.flags.force === true;
    const { resolveTarget, writeSafely } = await import('../../fs/write-safely.js');
    // A repository can plant symlinks at these names (or at .hooks/, hooks-tests/) pointing out of the
    // project, e.g. at the user's own config: every target must resolve inside the project, checked
    // for all three before anything is written.
    const inProject = { root: ctx.cwd };
    for (const file of [configFile, guardFile, casesFile]) {
      if (existsSync(file) && !force) {
        throw new HooksError('USAGE', `${file} already exists; nothing written (use --force to overwrite)`);
      }
      resolveTarget(file, inProject);
    }
    const config = {
      $schema: schemaReference(ctx.cwd),
      defaults: { timeout: 10 },
      hooks: {
        preToolUse: [
          // Priority 10: the project's own guard answers first, with its own message (command-safety
          // would block a force push too, as its git-push-force rule).
          { id: 'no-force-push', command: `node ${GUARD_FILE}`, match: 'exec', if: { command: '*git*push*' }, onFailure: 'block', priority: 10 },
          { builtin: 'command-safety' },
          { builtin: 'sensitive-paths' },
        ],
        postToolUse: [{ builtin: 'redact-secrets' }],
        userPromptSubmit: [{ builtin: 'redact-secrets' }],
      },
    };
    const text = `${JSON.stringify(config, null, 2)}\n`;
    writeSafely(configFile, text, inProject);
    writeSafely(guardFile, GUARD, { ...inProject, mode: 0o755 });
    writeSafely(casesFile, `${JSON.stringify(CASES, null, 2)}\n`, inProject);
    // The user just wrote these bytes by running init: they are trusted (any later edit is not), with the
    // guard script it runs, written just before.
    const { trustRecord } = await import('../../trust/coverage.js');
    const { updateTrustStore } = await import('../../trust/store.js');
    updateTrustStore(ctx.env, { trust: [trustRecord(path.resolve(configFile), text, config)] });
    // Typed as shown in a project where agent-hooks is a devDependency: "npx hooks" is another package.
    ctx.stdout(`wrote ${path.relative(ctx.cwd, configFile)}
wrote ${GUARD_FILE}
wrote ${CASES_FILE}

Try it:
  npx agent-hooks sample pre-tool-use --tool exec --input command='git push --force' | npx agent-hooks run --config .hooksrc.json --verbose
  npx agent-hooks test
  npx agent-hooks doctor
After each edit of .hooksrc.json, review and trust it again (an edited file does not run until then):
  npx agent-hooks trust
Then let your agent call it:
  npx agent-hooks install claude-code
`);
    return 0;
  },
};

/** `$schema`: the installed package's copy when there is one, else this package's own file. */
function schemaReference(cwd: string): string {
  const installed = path.join('node_modules', 'agent-hooks', 'schema', 'hooks.schema.json');
  if (existsSync(path.join(cwd, installed))) return `./${installed}`;
  const own = path.join(packageRoot(), 'schema', 'hooks.schema.json');
  return path.relative(cwd, own) || own;
}

