// `hooks trust`: shows what a project's config files will run and the files that trust covers, and
// records their exact bytes (and those files' states) as trusted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isJsFile, loadConfigLayers, loadManagedLayer, loadUserLayer, LOCAL_CONFIG_NAME, readExtendsForTrust, readForTrust, type ConfigLayer } from '../../config/load.js';
import { resolveConfig } from '../../config/resolve.js';
import { fetchGitSource } from '../../config/extends/git.js';
import type { ExtendsSource } from '../../config/extends/source.js';
import { HooksError } from '../../errors.js';
import { findEvent } from '../../events/catalog.js';
import { digest, readTrustStore, updateTrustStore, type TrustEntry } from '../../trust/store.js';
import { coverageFor, extendsCoverage, type Coverage } from '../../trust/coverage.js';
import { describeChange, describeState, EXTENDS_COVER_PREFIX, observeCovers } from '../../trust/covers.js';
import type { Command } from '../command.js';
import { expandClaudeShape } from '../../config/claude-shape.js';
import { wantsColour, type CliContext } from '../context.js';
import { createStyle } from '../style.js';
import { printable } from '../../report/printable.js';

export const command: Command = {
  help: `Usage: hooks trust [path] [--yes] | hooks trust --list [--json]

A project's config files (.hooksrc*, hooks.config.*, package.json#hooks, .hooksrc.local.json) run
only once you trust them. This shows every command they would run, per event, and the files trust
covers with them: the project files the commands run (the script of "python3 guard.py", "./hook.sh",
"node x.mjs", ...) and the local modules a JavaScript config or script imports. Then it asks (y/N) and
records the sha256 of each config's bytes with its absolute path, and the sha256 of each covered file,
in your state folder ($XDG_STATE_HOME/agent-hooks/trust.json). Any change to a config or a covered
file (edited, deleted, created where one was missing, replaced by a link out of the project) makes
the config untrusted again. Files outside the project (/usr/bin/..., programs on PATH, packages in
node_modules) are not covered.

path is the project folder (default: the working directory) or one config file. A JavaScript config
is shown as source and never run here.

What a config extends (files, packages in node_modules, git sources pinned by commit) is shown
too, hook by hook, and trust covers the bytes of each extended file and the files its commands run:
a package that changes after you trusted the project is not trusted until you review it again. Git
sources not in the cache yet are listed, and fetched here (once; runs never touch the network) when
you agree, or with --yes or --fetch: a fetch runs git with your credentials on URLs the project names.

Options:
  --yes    trust, and fetch the git sources it extends, without asking (for scripts; read what it prints)
  --fetch  fetch the git sources the project's configs extend without asking, and those your user and
           managed configs extend (then exit if no project config is found)
  --list   show every trusted file and its covered files, and whether each still matches
  --json   with --list: the same as JSON ({"store", "files": [{"file", "state", "trusted", "sha256",
           "trustedAt", "covers": [{"file", "matches", "trusted", "now"}]}]}); state is trusted,
           changed, covered-file-changed, trusted-by-older-version or missing

A file with a key the runner refuses (a typo, a bad value) is shown with each problem: the runner
switches such a file off, trusted or not, until it is fixed.
`,
  args: { positional: ['path'], flags: { yes: 'boolean', list: 'boolean', json: 'boolean', fetch: 'boolean' } },
  async run(args, ctx) {
    const json = args.flags.json === true;
    if (json && args.flags.list !== true) throw new HooksError('USAGE', '--json goes with --list (trusting asks for a review, which is text)');
    const s = createStyle(!json && wantsColour(ctx.stdoutIsTTY, ctx.env));
    if (args.flags.list === true) return list(ctx, s, json);
    if (args.flags.fetch === true) {
      const own = [await loadManagedLayer(ctx.env, false, true), await loadUserLayer(ctx.env, true)].filter((l): l is ConfigLayer => l !== undefined);
      for (const e of own.flatMap((l) => l.extended ?? [])) {
        ctx.stdout(e.problem === undefined ? `${s.green('extends')} ${e.file}  ${s.dim(`(${e.layer} layer, sha256 ${e.sha256?.slice(0, 12)})`)}\n` : `${s.red('extends')} ${e.problem}\n`);
      }
    }
    const files = await projectFiles(args.positional.path, ctx);
    if (files.length === 0 && args.flags.fetch === true) return 0;
    if (files.length === 0) {
      throw new HooksError('USAGE', `no project config found from ${path.resolve(ctx.cwd, args.positional.path ?? '.')} (the search stops at the repository root or your home folder)`);
    }
    const store = readTrustStore(ctx.env);
    const review = (fetch: Parameters<typeof readExtendsForTrust>[3]) =>
      Promise.all(
        files.map(async (file) => {
          const read = await readForTrust(file);
          const coverage = coverageFor(file, read);
          const extended = read.config === undefined ? [] : await readExtendsForTrust(file, read.config, ctx.env, fetch);
          const more = extendsCoverage(file, extended);
          Object.assign(coverage.covers, more.covers);
          Object.assign(coverage.why, more.why);
          coverage.notes.push(...more.notes);
          return { file, ...read, coverage, extended, issues: await issuesOf(file, read, ctx, extended) };
        }),
      );
    // Git sources missing from the cache are fetched only once you agree: a fetch runs git, with your credentials
    // and ssh keys, on URLs the project's files name (a repository you are reviewing chose them). Each is
    // fetched here, once; the review only reads the cache. What a fetched source extends in turn is asked
    // about in the next round.
    const answered = new Set<string>();
    let reads: Awaited<ReturnType<typeof review>>;
    for (;;) {
      const unfetched = new Map<string, Extract<ExtendsSource, { kind: 'git' }>>();
      reads = await review((source) => {
        const key = `${source.url}#${source.commit}`;
        if (!answered.has(key)) unfetched.set(key, source);
        return false;
      });
      if (unfetched.size === 0) break;
      ctx.stdout(`${unfetched.size === 1 ? 'a git source' : `${unfetched.size} git sources`} extended here ${unfetched.size === 1 ? 'is' : 'are'} not fetched yet:\n${[...unfetched.keys()].map((u) => `  ${u}\n`).join('')}`);
      let fetch = args.flags.yes === true || args.flags.fetch === true;
      if (!fetch && ctx.stdinIsTTY === true && ctx.prompt !== undefined) {
        fetch = /^y(es)?$/.test((await ctx.prompt(`Fetch ${unfetched.size === 1 ? 'it' : 'them'} now (git, over the network), to review what ${unfetched.size === 1 ? 'it adds' : 'they add'}? [y/N] `)).trim().toLowerCase());
      }
      if (!fetch) ctx.stdout(s.dim('not fetched: their hooks do not run until you run hooks trust again and fetch them\n'));
      for (const [key, source] of unfetched) {
        answered.add(key);
        const fetched = fetch ? fetchGitSource(source, ctx.env) : undefined;
        // git's last line of error, from a server the repository chose: shown, never acted on by the terminal.
        if (fetched !== undefined && 'problem' in fetched) ctx.stdout(`${s.red('not fetched')} ${printable(fetched.problem)}\n`);
      }
    }
    const isTrusted = (r: (typeof reads)[number]) => sameTrust(store.entries[r.file], r.coverage);
    const lines: string[] = [];
    for (const r of reads) {
      lines.push(`${s.bold(r.file)} ${s.dim(`sha256 ${r.sha256.slice(0, 12)}`)}${isTrusted(r) ? s.green(' (already trusted)') : ''}`);
      lines.push(...describeFile(r, s).map((l) => `  ${l}`));
      for (const e of r.extended) lines.push(...describeExtended(e, store.entries[r.file], s).map((l) => `  ${l}`));
      // Trusting a file the runner will switch off for a bad key must not look like it will run.
      if (r.issues.length > 0) {
        lines.push(`  ${s.red(`switched off when it runs: ${r.issues.length === 1 ? 'a problem' : `${r.issues.length} problems`}; trusted or not, none of its hooks run until ${r.issues.length === 1 ? 'it is' : 'they are'} fixed:`)}`);
        for (const issue of r.issues) lines.push(`    ${s.red(issue)}`);
      }
      lines.push(...describeCoverage(r.coverage, s).map((l) => `  ${l}`));
    }
    ctx.stdout(`${lines.join('\n')}\n`);
    const pending = reads.filter((r) => !isTrusted(r));
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
    const written = updateTrustStore(ctx.env, { trust: pending.map((r) => ({ file: r.file, sha256: r.sha256, covers: r.coverage.covers })) });
    for (const r of pending) ctx.stdout(`${s.green('trusted')} ${r.file}\n`);
    ctx.stdout(s.dim(`recorded in ${written.file}; any change to a config or a file it covers makes the config untrusted again\n`));
    return 0;
  },
};

/**
 * What the runner would switch this file off for (an unknown key, a bad value, a guard option), one line
 * each naming the key path; a JavaScript config is never run here, so it is not checked.
 */
async function issuesOf(file: string, read: { config?: unknown; problem?: string; isJs: boolean }, ctx: CliContext, extended: ConfigLayer[]): Promise<string[]> {
  if (read.isJs || read.problem !== undefined || read.config === undefined) return [];
  const layer = path.basename(file) === LOCAL_CONFIG_NAME ? 'local' : 'project';
  const resolved = await resolveConfig([{ layer, file, dir: path.dirname(file), config: read.config, trust: 'trusted', ...(extended.length === 0 ? {} : { extended }) }], { cwd: path.dirname(file), env: ctx.env });
  const state = resolved.layers.find((l) => l.file === file);
  return state === undefined || state.active ? [] : (state.issues ?? [state.problem ?? `${file}: switched off`]);
}

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
      s.yellow('Trust covers these bytes and the local modules listed under "covers", not packages it imports.'),
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
  out.push(s.yellow('Trust covers these bytes and the project files listed under "covers": review those too.'));
  return out;
}

/** An extended file: where it came from, whether it is as trusted before, and what it runs. */
function describeExtended(e: ConfigLayer, entry: TrustEntry | undefined, s: ReturnType<typeof createStyle>): string[] {
  const chain = (e.via ?? []).map((step) => JSON.stringify(step.extends)).join(' → ');
  if (e.problem !== undefined) return [s.red(`extends ${chain}: not loaded: ${e.problem}`)];
  const was = entry?.covers?.[`${EXTENDS_COVER_PREFIX}${e.real}`];
  const now = `sha256:${e.sha256}`;
  const status = entry === undefined ? '' : was === undefined ? s.yellow(' (new: not reviewed before)') : was === now ? s.green(' (as trusted)') : s.yellow(' (changed since trusted)');
  return [
    `${s.bold(`extends ${chain}`)}: ${e.file} ${s.dim(`sha256 ${e.sha256?.slice(0, 12)}`)}${status}`,
    ...describeFile({ file: e.file, bytes: Buffer.alloc(0), config: e.config, isJs: false }, s).slice(0, -1).map((l) => `  ${l}`),
  ];
}

function describeEntry(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null) return `(not a hook: ${JSON.stringify(entry)})`;
  const e = entry as Record<string, unknown>;
  const runs =
    e.type === 'http'
      ? `POSTs each event to ${JSON.stringify(e.url)}${e.headers === undefined ? '' : ` with headers ${JSON.stringify(e.headers)}`}${e.allowedEnvVars === undefined ? '' : `, filled from the environment variables ${JSON.stringify(e.allowedEnvVars)}`}`
      : e.type === 'prompt' || e.type === 'agent'
        ? promptRuns(e)
      : e.type === 'mcp_tool'
        ? `calls tool ${JSON.stringify(e.tool)} of MCP server ${JSON.stringify(e.server)} (see mcpServers: what it starts or where it connects) with ${JSON.stringify(e.input ?? {})}`
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

/** The trust recorded for a file is for these bytes and these covered files in these states. */
function sameTrust(entry: TrustEntry | undefined, coverage: Coverage): boolean {
  if (entry === undefined || entry.sha256 !== coverage.sha256 || entry.covers === undefined) return false;
  const a = Object.entries(entry.covers);
  return a.length === Object.keys(coverage.covers).length && a.every(([rel, state]) => coverage.covers[rel] === state);
}

/** The covered files with their hashes, then what is not covered. */
function describeCoverage(coverage: Coverage, s: ReturnType<typeof createStyle>): string[] {
  const entries = Object.entries(coverage.covers);
  const out: string[] = [s.bold(entries.every(([, state]) => state.startsWith('outside:')) ? 'covers no other file' : 'covers')];
  const missing = entries.filter(([, state]) => state === 'absent');
  for (const [rel, state] of entries) {
    // One leading out of the project is said below, with what is not covered.
    if (state.startsWith('outside:')) continue;
    if (state !== 'absent' || missing.length <= 3) out.push(`  ${rel}  ${s.dim(describeState(state))}  ${s.dim(`(${coverage.why[rel]})`)}`);
  }
  if (missing.length > 3) out.push(`  ${s.dim(`${missing.length} places where a module would be found are missing (trusted as missing): ${missing.slice(0, 3).map(([r]) => r).join(', ')}, ...`)}`);
  for (const note of coverage.notes) out.push(s.yellow(`not covered: ${note}`));
  return out;
}

type ListState = 'trusted' | 'changed' | 'covered-file-changed' | 'trusted-by-older-version' | 'missing';

function list(ctx: CliContext, s: ReturnType<typeof createStyle>, json: boolean): number {
  const store = readTrustStore(ctx.env);
  if (store.problem !== undefined) ctx.stderr(`agent-hooks: ${store.problem}\n`);
  const entries = Object.entries(store.entries);
  const rows = entries.map(([file, entry]) => {
    const covers = entry.covers ?? {};
    const now = observeCovers(path.dirname(file), Object.keys(covers));
    const changed = Object.entries(covers).some(([rel, was]) => now[rel] !== was);
    let state: ListState;
    try {
      state = digest(readFileSync(file)) !== entry.sha256 ? 'changed' : entry.covers === undefined ? 'trusted-by-older-version' : changed ? 'covered-file-changed' : 'trusted';
    } catch {
      state = 'missing';
    }
    return { file, entry, state, covers: Object.entries(covers).map(([rel, was]) => ({ rel, was, is: now[rel]! })) };
  });
  if (json) {
    const out = rows.map((r) => ({
      file: r.file,
      state: r.state,
      trusted: r.state === 'trusted',
      sha256: r.entry.sha256,
      trustedAt: r.entry.trustedAt,
      covers: r.covers.map((c) => ({ file: c.rel, matches: c.is === c.was, trusted: c.was, now: c.is })),
    }));
    ctx.stdout(`${JSON.stringify({ store: store.file, files: out }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    ctx.stdout(`no trusted files (${store.file})\n`);
    return 0;
  }
  const says: Record<ListState, string> = {
    changed: s.yellow('changed since trusted: not trusted'),
    'trusted-by-older-version': s.yellow('not trusted: trusted by an older agent-hooks, which did not cover the files its commands run; run "npx agent-hooks trust" again'),
    'covered-file-changed': s.yellow('not trusted: a file it covers changed'),
    trusted: s.green('trusted'),
    missing: s.dim('missing'),
  };
  for (const r of rows) {
    ctx.stdout(`${r.file}  ${says[r.state]}  ${s.dim(`sha256 ${r.entry.sha256.slice(0, 12)} · ${r.entry.trustedAt}`)}\n`);
    for (const c of r.covers) {
      ctx.stdout(`  ${c.rel}  ${c.is === c.was ? s.green('matches') : s.yellow(`${describeChange(c.rel, c.was, c.is).slice(c.rel.length + 1)}: not trusted`)}  ${s.dim(describeState(c.was))}\n`);
    }
  }
  return 0;
}

/** What a prompt hook runs: a request to a model, paid with the user's key, about each event it matches. */
function promptRuns(e: Record<string, unknown>): string {
  const prompt = typeof e.prompt === 'string' ? e.prompt : '';
  const shown = prompt.length > PROMPT_SHOWN ? `${prompt.slice(0, PROMPT_SHOWN)}... (${prompt.length} characters)` : prompt;
  const provider = typeof e.provider === 'string' ? e.provider : 'the default provider';
  const model = typeof e.model === 'string' ? e.model : 'the default model';
  const tools = e.type === 'agent' ? ', letting it read, grep and glob the project (secret files refused) for the answer' : '';
  return `asks a model with your key (${provider}, ${model})${tools}: ${JSON.stringify(shown)}`;
}

/** Enough of a prompt to see what it asks; the whole of it is in the file shown above. */
const PROMPT_SHOWN = 160;
