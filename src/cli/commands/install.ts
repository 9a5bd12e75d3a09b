// `hooks install <agent>`: write the agent's hook settings so every event it has calls `agent-hooks run`.
import { DEFAULT_TIMEOUT_SECONDS } from '../../config/resolve.js';
import { HooksError } from '../../errors.js';
import { AGENT_NAMES, DEFAULT_ENTRY_TIMEOUT, install } from '../../install/index.js';
import { describe } from '../../install/report.js';
import { FAIL_CLOSED_EVENTS } from '../../install/target.js';
import type { EventName } from '../../types.js';
import type { Command } from '../command.js';
import type { CliContext } from '../context.js';
import { scopeOf, whereOf } from '../../install/options.js';

export const command: Command = {
  help: `Usage: hooks install <agent> [options]

Writes the agent's own hook settings so that every event the agent has runs
"agent-hooks run <event> --dialect <agent>". For claude-code --project, only the events the config
uses are registered (the default guards' events when there is no config), each with Claude Code's
"matcher" when the config's match names exact tools, so tools no hook guards start nothing; run it
again after adding an event to the config. Entries the user wrote stay as they are, where they
are; ours end in the shell comment "# agent-hooks", which is how uninstall finds them. Running it
again changes nothing.

What the entries run (never this machine's absolute path in a project file teams commit):
  --project  the project's own dependency, relative to the project folder as the agent names it,
             e.g. "$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks (npm i -D agent-hooks first);
             in a project without it, the agent-hooks on PATH (a global install on every machine)
  --user     a global install's absolute path; refused from a project's copy or npx's cache, since
             a user-level install serves every project

The settings file is written safely: never through a symlink planted in the repository, never to a
path that resolves outside the project (home folder for --user) unless --allow-outside, never over
a read-only file. The state before the change is kept in $XDG_STATE_HOME/agent-hooks/install/,
and "uninstall" right after gives the file back byte for byte. A file that is not valid JSON is an
error and is never overwritten.

Agents (${AGENT_NAMES.join(', ')}) and the file written with --project / --user:
  claude-code  .claude/settings.json           ~/.claude/settings.json ($CLAUDE_CONFIG_DIR)
  codex        .codex/hooks.json               ~/.codex/hooks.json ($CODEX_HOME)
  gemini       .gemini/settings.json           ~/.gemini/settings.json
  cursor       .cursor/hooks.json              ~/.cursor/hooks.json
  copilot      .github/hooks/agent-hooks.json  ~/.copilot/hooks/agent-hooks.json ($COPILOT_HOME)
  opencode     .opencode/plugin/agent-hooks.js ~/.config/opencode/plugin/agent-hooks.js ($XDG_CONFIG_HOME)
  qwen-code    .qwen/settings.json             ~/.qwen/settings.json
  factory      .factory/settings.json          ~/.factory/settings.json
  augment      .augment/settings.json          ~/.augment/settings.json
  tabnine      .tabnine/agent/settings.json    ~/.tabnine/agent/settings.json
  windsurf     .windsurf/hooks.json            ~/.codeium/windsurf/hooks.json
  kiro         .kiro/hooks/agent-hooks.json    ~/.kiro/hooks/agent-hooks.json
  cline        .cline/plugins/agent-hooks.js   ~/.cline/plugins/agent-hooks.js
  pi           .pi/extensions/agent-hooks.ts   ~/.pi/agent/extensions/agent-hooks.ts
  omp          .omp/extensions/agent-hooks.ts  ~/.omp/agent/extensions/agent-hooks.ts

Options:
  --project            the workspace's file, in the current folder (default)
  --user               the agent's file in your home folder: every project
  --fail-closed        a runner error, or a missing runner where the agent can say so, blocks
                       preToolUse and userPromptSubmit instead of letting them through
                       (Claude Code: onFailure "block"; Cursor: failClosed; all: --on-error block)
  --dry-run            print a unified diff of the change and write nothing
  --json               print the outcome as JSON ({"agent", "scope", "file", "action", "dryRun",
                       "entries", "backup", "diff", "notes"}); the notes are then not on stderr
  --allow-outside      write the settings file even where it resolves outside the project
  --serve              entries that hand each event to "agent-hooks serve" (docs/serve.md) through
                       agent-hooks-client (curl over its Unix socket, which it checks is yours)
  --http               with --serve, claude-code --user only: type "http" handlers on the loopback
                       port instead (token from $AGENT_HOOKS_TOKEN). ONLY for a machine where no
                       other user can bind loopback ports: an http hook cannot check who answers
  --when-down <what>   with --serve, while the server is down: run (the client runs the event
                       in-process and starts a server; the default), block (preToolUse and
                       userPromptSubmit are blocked; the default with --http), continue (every
                       event goes on, with a notice)
  --port <n>           with --http: the server's loopback port (default: hooks serve's, kept in
                       its state folder)
  --managed            a locked setup (docs/locked.md), as root: copies this package to a prefix
                       only root can write, writes the agent's managed (system) hook settings to run
                       it with an absolute node, fail-closed and alone (claude-code:
                       allowManagedHooksOnly), and /etc/agent-hooks/managed.json when absent (the
                       first-party guards). Agents: claude-code, cursor; codex with --print only
  --print              with --managed: print the commands and files, as a shell script for an
                       administrator or an MDM, and change nothing (no root needed)
  --mcp <name>         put the MCP server <name> of the project's MCP file behind the gateway
                       (claude-code's .mcp.json; gemini, qwen-code, cursor, kiro): its command becomes
                       agent-hooks mcp --name <name> -- <command...> (docs/mcp-gateway.md);
                       uninstall --mcp <name> puts it back
  --code-cache         with --managed, as root: only (re)make the runner's code cache at the prefix
                       (the install makes it; again after upgrading node: it is made for one node)
  --prefix <dir>       with --managed: where the runner goes (default /opt/agent-hooks)
  --node <path>        with --managed: the interpreter the entries name (default: the running node
                       if only root can change it, else /usr/bin/node)
  --timeout <seconds>  how long the agent waits for one run. Default for claude-code --project: per
                       event, the chain's worst case (the sum of its hooks' timeouts, the longest of
                       parallel ones) plus 10 s, at least ${DEFAULT_ENTRY_TIMEOUT}; elsewhere ${DEFAULT_ENTRY_TIMEOUT} (twice the ${DEFAULT_TIMEOUT_SECONDS} s of a
                       builtin guard), so the runner's own timeout fires first and is reported

Examples:
  npx agent-hooks install claude-code
  npx agent-hooks install claude-code --fail-closed
  npx agent-hooks install claude-code --mcp github
  agent-hooks install codex --user --dry-run
  sudo agent-hooks install claude-code --managed
`,
  args: {
    positional: ['agent'],
    flags: { json: 'boolean', project: 'boolean', user: 'boolean', 'dry-run': 'boolean', timeout: 'string', 'fail-closed': 'boolean', 'allow-outside': 'boolean', serve: 'boolean', 'when-down': 'string', port: 'string', http: 'boolean', managed: 'boolean', print: 'boolean', prefix: 'string', node: 'string', 'code-cache': 'boolean', mcp: 'string' },
  },
  async run(args, ctx) {
    if (args.flags.managed === true) {
      if (args.flags.json === true) throw new HooksError('USAGE', '--json does not go with --managed (its --print is the script to read)');
      return installManaged(args.positional.agent, args.flags, ctx);
    }
    if (typeof args.flags.mcp === 'string') return installMcp(args.positional.agent, args.flags.mcp, args.flags, ctx);
    if (args.flags.print !== undefined || args.flags.prefix !== undefined || args.flags.node !== undefined || args.flags['code-cache'] !== undefined) throw new HooksError('USAGE', '--print, --code-cache, --prefix and --node go with --managed');
    const where = whereOf(ctx);
    const dryRun = args.flags['dry-run'] === true;
    const scope = scopeOf(args.flags);
    const explicitTimeout = typeof args.flags.timeout === 'string';
    const plan = args.positional.agent === 'claude-code' && scope === 'project' ? await planOf(ctx, explicitTimeout ? timeoutOf(args.flags.timeout) : undefined) : undefined;
    const serve = await serveOf(args.flags, args.positional.agent, scope, ctx.env);
    if (plan !== undefined) {
      const always = (event: EventName) => {
        if (!plan.has(event)) plan.set(event, { timeoutSeconds: timeoutOf(args.flags.timeout) });
      };
      // A fail-closed install promises that a missing or broken runner (or a server that is down)
      // blocks the gated events: they are registered even when no hook of the config acts on them.
      if (args.flags['fail-closed'] === true || serve.serve?.whenDown === 'block') for (const event of FAIL_CLOSED_EVENTS) always(event);
      // With --serve, SessionStart runs the client: that is how a session starts a server that is down.
      if (serve.serve !== undefined) always('sessionStart');
    }
    const outcome = install({
      ...(plan === undefined ? {} : { plan }),
      agent: args.positional.agent,
      scope,
      where,
      dryRun,
      timeoutSeconds: timeoutOf(args.flags.timeout),
      failClosed: args.flags['fail-closed'] === true,
      allowOutside: args.flags['allow-outside'] === true,
      ...serve,
    });
    if (args.flags.json === true) {
      // For scripts: the same facts, the notes included (they are not also on stderr).
      const { file, action, entries, diff, backup, why, notes } = outcome;
      ctx.stdout(`${JSON.stringify({ agent: args.positional.agent, scope, file, action, dryRun, ...(entries === undefined ? {} : { entries }), ...(backup === undefined ? {} : { backup }), ...(why === undefined ? {} : { why }), diff, notes }, null, 2)}\n`);
      return 0;
    }
    ctx.stdout(describe(outcome, where, dryRun));
    // What the entries run, when teammates need to know (every time); an agent's own step (after a change).
    for (const note of outcome.notes) ctx.stderr(`agent-hooks: note: ${note}\n`);
    return 0;
  },
};

/** `--mcp <name>`: an MCP server entry put behind `hooks mcp` (src/install/mcp-wrap.ts). */
async function installMcp(agent: string | undefined, name: string, flags: Record<string, string | boolean | undefined>, ctx: CliContext): Promise<number> {
  const others = ['serve', 'fail-closed', 'timeout', 'when-down', 'port', 'http', 'json'].filter((f) => flags[f] !== undefined);
  if (others.length > 0) throw new HooksError('USAGE', `--mcp: --${others[0]} does not go with it`);
  const { wrapMcp } = await import('../../install/mcp-wrap.js');
  const { chooseLauncher } = await import('../../install/launcher.js');
  const where = whereOf(ctx);
  const scope = scopeOf(flags);
  const dryRun = flags['dry-run'] === true;
  const choice = chooseLauncher(scope, where.cwd);
  const outcome = wrapMcp({ agent, name, scope, where, dryRun, allowOutside: flags['allow-outside'] === true, launcher: choice.launcher });
  ctx.stdout(describe(outcome, where, dryRun).replace(/agent-hooks (entry|entries)/, `wrapped MCP server "${name}"`));
  for (const note of [...(choice.note === undefined ? [] : [choice.note]), ...outcome.notes]) ctx.stderr(`agent-hooks: note: ${note}\n`);
  return 0;
}

/** `--managed`: a locked setup (src/install/managed.ts), printed or carried out. */
async function installManaged(agent: string | undefined, flags: Record<string, string | boolean | undefined>, ctx: { stdout: (text: string) => void; stderr: (text: string) => void }): Promise<number> {
  const others = ['project', 'user', 'serve', 'fail-closed', 'dry-run', 'timeout', 'allow-outside', 'when-down', 'port', 'http'].filter((f) => flags[f] !== undefined);
  if (others.length > 0) throw new HooksError('USAGE', `--managed: --${others[0]} does not go with it (a managed install is machine-wide, fail-closed, and runs the runner directly); --print shows what it would do`);
  const { applyManaged, makeCodeCache, planManaged, printManaged } = await import('../../install/managed.js');
  const plan = planManaged({
    agent,
    ...(typeof flags.prefix === 'string' ? { prefix: flags.prefix } : {}),
    ...(typeof flags.node === 'string' ? { node: flags.node } : {}),
  });
  if (flags['code-cache'] === true) {
    if (flags.print === true) throw new HooksError('USAGE', '--code-cache: --print already prints the command that makes it');
    if (typeof process.geteuid === 'function' && process.geteuid() !== 0) throw new HooksError('USAGE', '--code-cache: run it as root (the cache is root\'s, beside the runner only root can write)');
    const line = makeCodeCache(plan.command);
    ctx.stdout(`${line}\n`);
    return line.startsWith('code cache not made') ? 1 : 0;
  }
  if (flags.print === true) {
    ctx.stdout(printManaged(plan));
    return 0;
  }
  for (const line of applyManaged(plan)) ctx.stdout(`${line}\n`);
  for (const note of plan.notes) ctx.stderr(`agent-hooks: note: ${note}\n`);
  ctx.stdout('Then, as each user: agent-hooks doctor (it says "locked: yes", or every reason it is not)\n');
  return 0;
}

/** --serve, --http, --when-down, --port: the server the entries call (its token is created now, so it can be exported). */
async function serveOf(flags: Record<string, string | boolean | undefined>, agent: string | undefined, scope: string, env: NodeJS.ProcessEnv) {
  if (flags.serve !== true) {
    if (flags['when-down'] !== undefined || flags.port !== undefined || flags.http !== undefined) throw new HooksError('USAGE', '--when-down, --http and --port go with --serve');
    return {};
  }
  const { platformProblem } = await import('../../serve/lifecycle.js');
  const unsupported = platformProblem(process.platform);
  if (unsupported !== undefined) throw new HooksError('USAGE', `install --serve: ${unsupported}`);
  const http = flags.http === true;
  if (http && agent !== 'claude-code') throw new HooksError('USAGE', `--http: only Claude Code has http hooks; install ${agent ?? '<agent>'} --serve without it (the client, over the Unix socket)`);
  if (!http && flags.port !== undefined) throw new HooksError('USAGE', '--port goes with --http (the client finds the server by its Unix socket, not a port)');
  const { serveRefusal, whenDownOf } = await import('../../install/serve.js');
  const { ensureToken, servePaths, servePort } = await import('../../serve/paths.js');
  const whenDown = whenDownOf(flags['when-down'], http);
  // Refused before anything is written (a port file, a token) for a file this install will not write.
  const refused = serveRefusal(http ? { whenDown, http: { port: 0 } } : { whenDown }, scope);
  if (refused !== undefined) throw new HooksError('USAGE', `install ${agent ?? ''}: ${refused}`);
  const paths = servePaths(env);
  let port: number | undefined;
  if (http) {
    port = flags.port === undefined ? await servePort(paths, env) : Number(flags.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HooksError('USAGE', `--port: expected a port number, got "${String(flags.port)}"`);
  }
  ensureToken(paths);
  return { serve: { whenDown, ...(port === undefined ? {} : { http: { port } }), tokenFile: paths.token } };
}

/**
 * The events this project's config uses (the defaults' when it has none), each with Claude Code's
 * matcher and a timeout that fits its chain; an explicit --timeout replaces every timeout.
 */
async function planOf(ctx: { cwd: string; env: NodeJS.ProcessEnv; stderr: (text: string) => void }, timeout: number | undefined) {
  const { loadConfigLayers } = await import('../../config/load.js');
  const { resolveConfig } = await import('../../config/resolve.js');
  const { planEvents } = await import('../../install/plan.js');
  let plan: Map<EventName, { matcher?: string; timeoutSeconds: number }>;
  try {
    const loaded = await loadConfigLayers({ cwd: ctx.cwd, env: ctx.env });
    const config = await resolveConfig(loaded.layers, { cwd: ctx.cwd, env: ctx.env });
    plan = planEvents(config, loaded.layers, DEFAULT_ENTRY_TIMEOUT);
  } catch (error) {
    // A config that cannot be read must not stop the install: every event is registered, so the
    // runner reports the config's error on each of them (and blocks, with --fail-closed).
    ctx.stderr(`agent-hooks: note: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; registering every event\n`);
    return undefined;
  }
  if (timeout !== undefined) for (const [event, p] of plan) plan.set(event, { ...p, timeoutSeconds: timeout });
  return plan;
}

function timeoutOf(flag: string | boolean | undefined): number {
  if (typeof flag !== 'string') return DEFAULT_ENTRY_TIMEOUT;
  const seconds = Number(flag);
  if (!Number.isInteger(seconds) || seconds < 1) throw new HooksError('USAGE', `--timeout: expected a whole number of seconds, got "${flag}"`);
  return seconds;
}
