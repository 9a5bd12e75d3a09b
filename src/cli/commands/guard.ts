// `hooks guard <id>`: one first-party guard as a standalone hook command, no config needed.
import { resolveCached } from '../../config/cache.js';
import { runnerFor } from '../../engine.js';
import { HooksError } from '../../errors.js';
import { GUARD_IDS, loadGuard } from '../../guards/index.js';
import { didYouMean } from '../../suggest.js';
import type { Command } from '../command.js';
import { readEvent } from '../read-event.js';
import { disabled } from './run.js';

export const command: Command = {
  help: `Usage: hooks guard <id> [options] < event.json

Runs one first-party guard on one event from stdin and answers like any hook, in the caller's
dialect: use it straight from an agent's settings, without any agent-hooks config. An event the
guard does not act on passes untouched.

Guards: command-safety, sensitive-paths, redact-secrets, secret-write, audit-log, sandbox, output-budget

Options:
  --dialect <name>          claude-code | codex | gemini | cursor | copilot | docker-mcp | native
                            (default: detected from the payload)
  --option <key=value>      a guard option; the value is read as JSON when it parses (repeatable)
  --options <json>          all options as one JSON object
  --audit                   report what the guard would have done, never block or rewrite

Examples:
  npx agent-hooks guard command-safety < event.json
  npx agent-hooks guard command-safety --option 'categories={"git-hook-bypass":false}' < event.json
  npx agent-hooks guard sensitive-paths --option 'allow=["~/.aws/config"]' < event.json

In Claude Code's .claude/settings.json:
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "npx agent-hooks guard command-safety"}]}]}}
`,
  args: {
    positional: ['id'],
    flags: { dialect: 'string', option: 'list', options: 'string', audit: 'boolean' },
  },
  async run(args, ctx) {
    const id = args.positional.id;
    if (id === undefined) throw new HooksError('USAGE', `which guard? hooks guard <id>; guards: ${GUARD_IDS.join(', ')}`);
    const guard = await loadGuard(id);
    if (guard === undefined) {
      throw new HooksError('USAGE', `unknown guard "${id}"${didYouMean(id, GUARD_IDS)}; guards: ${GUARD_IDS.join(', ')}`);
    }
    const options = { ...parseOptionsFlag(args.flags.options), ...parseOptionList(args.lists.option ?? []), ...(args.flags.audit === true ? { audit: true } : {}) };

    if (await disabled(ctx)) return 0;
    const { dialect, event } = await readEvent(ctx, { dialect: typeof args.flags.dialect === 'string' ? args.flags.dialect : undefined });
    const hooks = guard.events.includes(event.name) ? { [event.name]: [{ builtin: id, options }] } : {};
    // Cached like any config: checking the options loads zod, which would cost more than the guard.
    const config = await resolveCached([{ layer: 'cli', file: `hooks guard ${id}`, dir: ctx.cwd, config: { hooks } }], { cwd: ctx.cwd, env: ctx.env });
    const decision = await runnerFor(config, ctx.env).run(event, { signal: ctx.signal });
    const answer = dialect.answer(decision);
    ctx.stdout(answer.stdout);
    ctx.stderr(answer.stderr);
    return answer.exitCode;
  },
};

function parseOptionsFlag(text: string | boolean | undefined): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HooksError('USAGE', `--options: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HooksError('USAGE', '--options: expected a JSON object');
  return value as Record<string, unknown>;
}

/** `key=value` pairs; values are JSON when they parse (`true`, `5`, `["a"]`), else strings. */
function parseOptionList(pairs: string[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new HooksError('USAGE', `--option ${pair}: expected key=value`);
    const text = pair.slice(at + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // A plain string.
    }
    options[pair.slice(0, at)] = value;
  }
  return options;
}
