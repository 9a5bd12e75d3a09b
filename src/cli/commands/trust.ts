// `hooks trust`: shows what a project's config files will run, and records their exact bytes as trusted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isJsFile, loadConfigLayers, readForTrust } from '../../config/load.js';
import { HooksError } from '../../errors.js';
import { findEvent } from '../../events/catalog.js';
import { digest, readTrustStore, updateTrustStore } from '../../trust/store.js';
import type { Command } from '../command.js';
import { expandClaudeShape } from '../../config/claude-shape.js';
import { wantsColour, type CliContext } from '../context.js';
import { createStyle } from '../style.js';

export const command: Command = {
  help: `Usage: hooks trust [path] [--yes] | hooks trust --list

A project's config files (.hooksrc*, hooks.config.*, package.json#hooks, .hooksrc.local.json) run
only once you trust them. This shows every command they would run, per event, then asks (y/N) and
records the sha256 of each file's bytes with its absolute path in your state folder
($XDG_STATE_HOME/agent-hooks/trust.json). Any change to a file's bytes makes it untrusted again.

path is the project folder (default: the working directory) or one config file. A JavaScript config
is shown as source: trusting it trusts these bytes only, not the modules it imports.

Options:
  --yes    trust without asking (for scripts; read what it prints)
  --list   show every trusted file and whether it still matches
`,
  args: { positional: ['path'], flags: { yes: 'boolean', list: 'boolean' } },
  async run(args, ctx) {
    const s = createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env));
    if (args.flags.list === true) return list(ctx, s);
    const files = await projectFiles(args.positional.path, ctx);
    if (files.length === 0) {
      throw new HooksError('USAGE', `no project config found from ${path.resolve(ctx.cwd, args.positional.path ?? '.')} (the search stops at the repository root or your home folder)`);
    }
    const store = readTrustStore(ctx.env);
    const reads = await Promise.all(files.map(async (file) => ({ file, ...(await readForTrust(file)) })));
    const lines: string[] = [];
    for (const r of reads) {
      const already = store.entries[r.file]?.sha256 === r.sha256;
      lines.push(`${s.bold(r.file)} ${s.dim(`sha256 ${r.sha256.slice(0, 12)}`)}${already ? s.green(' (already trusted)') : ''}`);
      lines.push(...describeFile(r, s).map((l) => `  ${l}`));
    }
    ctx.stdout(`${lines.join('\n')}\n`);
    const pending = reads.filter((r) => store.entries[r.file]?.sha256 !== r.sha256);
    if (pending.length === 0) {
      ctx.stdout('nothing to do: every file is trusted as it is\n');
      return 0;
    }
    if (args.flags.yes !== true) {
      if (ctx.stdinIsTTY !== true || ctx.prompt === undefined) {
        throw new HooksError('USAGE', 'not a terminal, so cannot ask: review the list above, then run "npx agent-hooks trust --yes"');
      }
      const answer = (await ctx.prompt(`Trust ${pending.length === 1 ? 'this file' : `these ${pending.length} files`} and let ${pending.length === 1 ? 'it' : 'them'} run? [y/N] `)).trim().toLowerCase();
      if (answer !== 'y' && answer !== 'yes') {
        ctx.stdout('not trusted; nothing changed\n');
        return 1;
      }
    }
    const written = updateTrustStore(ctx.env, { trust: pending.map((r) => ({ file: r.file, sha256: r.sha256 })) });
    for (const r of pending) ctx.stdout(`${s.green('trusted')} ${r.file}\n`);
    ctx.stdout(s.dim(`recorded in ${written.file}; any change to a file makes it untrusted again\n`));
    return 0;
  },
};

/** The project and local config files the search finds from `where` (a folder or one file). */
export async function projectFiles(where: string | undefined, ctx: CliContext): Promise<string[]> {
  const target = path.resolve(ctx.cwd, where ?? '.');
  if (where !== undefined && existsSync(target) && statSync(target).isFile()) return [target];
  if (!existsSync(target)) throw new HooksError('USAGE', `${target}: no such file or folder`);
  const loaded = await loadConfigLayers({ cwd: target, env: ctx.env, projectOnly: true });
  for (const notice of loaded.notices) ctx.stderr(`agent-hooks: ${notice}\n`);
  return loaded.layers.filter((l) => l.layer === 'project' || l.layer === 'local').map((l) => l.file);
}

function describeFile(r: { file: string; bytes: Buffer; config?: unknown; problem?: string; isJs: boolean }, s: ReturnType<typeof createStyle>): string[] {
  if (r.isJs || isJsFile(r.file)) {
    return [
      s.yellow('JavaScript: what it runs is decided by its code, which runs when it is loaded. Its source:'),
      ...r.bytes.toString('utf8').split('\n').map((l) => s.dim(`| ${l}`)),
      s.yellow('Trust covers these bytes only, not the files it imports.'),
    ];
  }
  if (r.problem !== undefined) return [s.yellow(`cannot be read (${r.problem.split('\n')[0]}); trusting it runs nothing until it is fixed`)];
  const config = r.config as { hooks?: Record<string, unknown>; defaults?: unknown } | undefined;
  // Claude Code's matcher groups are shown handler by handler, as they will run.
  const expanded = expandClaudeShape(config, r.file).config as typeof config;
  const hooks = typeof expanded?.hooks === 'object' && expanded.hooks !== null ? expanded.hooks : {};
  const out: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    out.push(s.bold(findEvent(event)?.name ?? event));
    for (const entry of Array.isArray(entries) ? entries : [entries]) out.push(`  ${describeEntry(entry)}`);
  }
  if (out.length === 0) out.push(s.dim('no hooks'));
  // Every other key in full: `defaults.env` can change what every command runs (PATH, LD_PRELOAD,
  // NODE_OPTIONS, BASH_ENV), so a name alone would hide what is being trusted.
  const extra = config === undefined ? [] : Object.entries(config).filter(([k]) => !['hooks', '$schema'].includes(k));
  for (const [key, value] of extra) out.push(`${s.bold(key)} ${JSON.stringify(value)}`);
  out.push(s.yellow('Trust covers these bytes only, not the scripts the commands run: review those too.'));
  return out;
}

function describeEntry(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null) return `(not a hook: ${JSON.stringify(entry)})`;
  const e = entry as Record<string, unknown>;
  const runs =
    e.type === 'http'
      ? `POSTs each event to ${JSON.stringify(e.url)}${e.headers === undefined ? '' : ` with headers ${JSON.stringify(e.headers)}`}${e.allowedEnvVars === undefined ? '' : `, filled from the environment variables ${JSON.stringify(e.allowedEnvVars)}`}`
      : typeof e.type === 'string' && e.type !== 'command' && typeof e.command !== 'string'
        ? `type ${e.type}: not run by agent-hooks`
        : typeof e.command === 'string'
      ? Array.isArray(e.args)
        ? `runs ${[e.command, ...e.args.map(String)].map((a) => JSON.stringify(a)).join(' ')}`
        : `runs ${e.shell === 'powershell' ? 'pwsh' : 'sh'} -c ${JSON.stringify(e.command)}`
      : typeof e.builtin === 'string'
        ? `builtin ${e.builtin}${e.options === undefined ? '' : ` ${JSON.stringify(e.options)}`}`
        : `changes hook "${String(e.id)}": ${JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'id')))}`;
  const when = [
    e.id === undefined || typeof e.command !== 'string' && typeof e.builtin !== 'string' ? undefined : `id ${String(e.id)}`,
    e.match === undefined ? undefined : `match ${JSON.stringify(e.match)}`,
    e.matcher === undefined ? undefined : `matcher ${JSON.stringify(e.matcher)}`,
    e.async === true || e.asyncRewake === true ? 'in the background (async)' : undefined,
    e.if === undefined ? undefined : `if ${JSON.stringify(e.if)}`,
    e.env === undefined ? undefined : `env ${JSON.stringify(e.env)}`,
    e.cwd === undefined ? undefined : `cwd ${JSON.stringify(e.cwd)}`,
  ].filter(Boolean);
  return `${runs}${when.length > 0 ? `  (${when.join(', ')})` : ''}`;
}

function list(ctx: CliContext, s: ReturnType<typeof createStyle>): number {
  const store = readTrustStore(ctx.env);
  if (store.problem !== undefined) ctx.stderr(`agent-hooks: ${store.problem}\n`);
  const entries = Object.entries(store.entries);
  if (entries.length === 0) {
    ctx.stdout(`no trusted files (${store.file})\n`);
    return 0;
  }
  for (const [file, entry] of entries) {
    let state: string;
    try {
      state = digest(readFileSync(file)) === entry.sha256 ? s.green('trusted') : s.yellow('changed since trusted: not trusted');
    } catch {
      state = s.dim('missing');
    }
    ctx.stdout(`${file}  ${state}  ${s.dim(`sha256 ${entry.sha256.slice(0, 12)} · ${entry.trustedAt}`)}\n`);
  }
  return 0;
}
