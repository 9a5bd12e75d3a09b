// `hooks install <agent> --mcp <name>`: an MCP server entry of the project's MCP file (`.mcp.json` for Claude Code) put behind
// the gateway, so its command becomes `agent-hooks mcp --name <name> -- <old command...>`. The entry keeps
// every other field (env, type); the old command is kept in the new args, so the wrap undoes itself
// even without the backup, and wrapping again changes nothing. Written as the hook installs write
// (no symlink followed, not outside the project, a backup of the bytes before in the state dir).
import path from 'node:path';
import { HooksError } from '../errors.js';
import { readSafely, writeSafely, removeSafely, type SafeOptions } from '../fs/write-safely.js';
import { isRecord } from '../json.js';
import { readBackup, recordChange } from './backup.js';
import { unifiedDiff } from './diff.js';
import { formatSettings, parseSettings } from './json-doc.js';
import { BIN_NAME, type Launcher } from './launcher.js';
import { label, type Outcome } from './index.js';
import type { Scope, Where } from './target.js';

export interface McpWrapRequest {
  agent: string | undefined;
  /** The server's key in `mcpServers`. */
  name: string;
  scope: Scope;
  where: Where;
  dryRun: boolean;
  allowOutside?: boolean;
  launcher: Launcher;
}

/** What `hooks mcp --name` takes (src/cli/commands/mcp.ts). */
const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;

/** The agents whose project MCP entries can be wrapped: their file (each keeps Claude's `mcpServers` shape), how a server is added, what to do after. */
const CLIENTS: Record<string, { file: (where: Where) => string; add: string; after?: string }> = {
  'claude-code': { file: (where) => path.join(where.cwd, '.mcp.json'), add: 'claude mcp add --scope project <name> -- <command...>', after: 'Claude Code asks again before it starts a changed project MCP server (or run: claude mcp reset-project-choices)' },
  gemini: { file: (where) => path.join(where.cwd, '.gemini', 'settings.json'), add: 'gemini mcp add <name> <command...>' },
  'qwen-code': { file: (where) => path.join(where.cwd, '.qwen', 'settings.json'), add: 'qwen mcp add <name> <command...>' },
  cursor: { file: (where) => path.join(where.cwd, '.cursor', 'mcp.json'), add: 'an entry under "mcpServers" in .cursor/mcp.json' },
  kiro: { file: (where) => path.join(where.cwd, '.kiro', 'settings', 'mcp.json'), add: 'an entry under "mcpServers" in .kiro/settings/mcp.json' },
};

export function wrapMcp(request: McpWrapRequest): Outcome {
  const { file, safety, before, servers, client } = open(request);
  const entry = servers[request.name] as Record<string, unknown>;
  if (wrapped(entry, request.name, request.where.cwd) !== undefined) return { file, action: 'unchanged', diff: '', why: 'installed', notes: [] };
  const command = entry.command as string;
  const args = Array.isArray(entry.args) ? (entry.args as string[]) : [];
  const [program, ...pre] = launcherWords(request.launcher);
  // New objects all the way down: a parsed object is written back as its source text (json-doc.ts).
  const next = { ...servers, [request.name]: { ...entry, command: program, args: [...pre, 'mcp', '--name', request.name, '--', command, ...args] } };
  const after = client.after;
  return { ...commit(file, before, formatSettings(doc(before, next, file), before), request, safety, true), action: 'updated', entries: 1, notes: after === undefined ? [] : [after] };
}

export function unwrapMcp(request: Omit<McpWrapRequest, 'launcher'>): Outcome {
  const { file, safety, before, servers } = open(request);
  const old = wrapped(servers[request.name], request.name);
  if (old === undefined) return { file, action: 'unchanged', diff: '', why: 'none', notes: [] };
  // The bytes before the wrap, when the file is still what the wrap wrote; else the entry alone.
  const record = readBackup(file, request.where.env);
  let text: string | undefined;
  if (record !== undefined && record.after === before && record.before !== null && wrapped(serversOf(record.before, file)[request.name], request.name) === undefined) text = record.before;
  else {
    const { args: _ours, ...rest } = servers[request.name] as Record<string, unknown>;
    const next = { ...servers, [request.name]: { ...rest, command: old[0], ...(old.length > 1 ? { args: old.slice(1) } : {}) } };
    text = formatSettings(doc(before, next, file), before);
  }
  return { ...commit(file, before, text, request, safety, false), action: 'updated', removed: 1, notes: [] };
}

/** The server's own command and args, when the entry is one this wrap wrote for `name` (in the project at `root`). */
export function wrapped(entry: unknown, name: string, root?: string): string[] | undefined {
  if (!isRecord(entry) || !Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string')) return undefined;
  const args = entry.args as string[];
  // The `--` right after `mcp --name <name>` (the name itself may be spelt `--`).
  let at = -1;
  for (let i = 3; i < args.length && at === -1; i++) if (args[i] === '--' && args[i - 3] === 'mcp' && args[i - 2] === '--name' && args[i - 1] === name) at = i;
  if (at === -1 || args.length <= at + 1) return undefined;
  const words = [String(entry.command), ...args.slice(0, at - 3)];
  return isLauncher(words, root) ? args.slice(at + 1) : undefined;
}

/**
 * Words this wrap writes to start agent-hooks (launcherWords): npx of the project's dependency, the bin on
 * PATH, or absolute paths of an install outside the project. A look-alike such as `./tools/agent-hooks` or
 * `npx -p other-package agent-hooks` is a program of the repository's: taken for a wrap, install would
 * report "installed" while nothing judges the server.
 */
function isLauncher(words: readonly string[], root: string | undefined): boolean {
  const same = (a: readonly string[]) => a.length === words.length && a.every((w, i) => w === words[i]);
  if (same(['npx', '--no-install', BIN_NAME]) || same([BIN_NAME])) return true;
  if (words.length > 2 || !words.every((w) => path.isAbsolute(w))) return false;
  const bin = path.basename(words.at(-1)!);
  if (bin !== BIN_NAME && bin !== 'hooks.js') return false;
  if (root === undefined) return true;
  const inside = (w: string) => {
    const rel = path.relative(path.resolve(root), w);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return !words.some(inside);
}

function open(request: Omit<McpWrapRequest, 'launcher'>) {
  const client = request.agent === undefined || !Object.hasOwn(CLIENTS, request.agent) ? undefined : CLIENTS[request.agent];
  if (client === undefined) throw new HooksError('USAGE', `--mcp: only ${Object.keys(CLIENTS).join(', ')} MCP entries can be wrapped so far${request.agent === undefined ? '' : ` (not ${request.agent})`}; for another client, set the server's command to: agent-hooks mcp --name <name> -- <command...>`);
  if (!SERVER_NAME.test(request.name)) throw new HooksError('USAGE', `--mcp: "${request.name}" is not a name hooks mcp takes (letters, digits, "_", "-", ".")`);
  if (request.scope !== 'project') throw new HooksError('USAGE', "--mcp: only the project's MCP file can be wrapped so far (not --user)");
  const file = client.file(request.where);
  const safety: SafeOptions = { root: request.where.cwd, outsideHint: 'pass --allow-outside if you mean it', ...(request.allowOutside === true ? { allowOutside: true } : {}) };
  const before = readSafely(file, safety);
  if (before === undefined) throw new HooksError('USAGE', `--mcp: ${label(file, request.where)} is not there; add the server first (${client.add.replace('<name>', request.name)})`);
  const servers = serversOf(before, file);
  const entry = servers[request.name];
  if (entry === undefined) {
    const names = Object.keys(servers);
    throw new HooksError('USAGE', `--mcp: ${label(file, request.where)} has no server "${request.name}"${names.length === 0 ? '' : ` (it has: ${names.join(', ')})`}`);
  }
  if (!isRecord(entry) || typeof entry.command !== 'string' || entry.command === '') {
    throw new HooksError('USAGE', `--mcp: mcpServers.${request.name} in ${label(file, request.where)} has no "command": only a stdio server can be wrapped (for an HTTP one, run agent-hooks mcp --url <url> as a stdio server of its own)`);
  }
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))) {
    throw new HooksError('CONFIG_INVALID', `${file}: mcpServers.${request.name}.args is not a list of strings; agent-hooks will not change it`, { file, path: `mcpServers.${request.name}.args` });
  }
  return { file, safety, before, servers, client };
}

function serversOf(text: string, file: string): Record<string, unknown> {
  const parsed = parseSettings(text, file);
  if (parsed.mcpServers === undefined) return {};
  if (!isRecord(parsed.mcpServers)) throw new HooksError('CONFIG_INVALID', `${file}: "mcpServers" is not an object; agent-hooks will not change it`, { file, path: 'mcpServers' });
  return parsed.mcpServers;
}

/** The document with its `mcpServers` replaced (every other key as it was). */
function doc(before: string, servers: Record<string, unknown>, file: string) {
  return { ...parseSettings(before, file), mcpServers: servers };
}

/**
 * The words that start agent-hooks, without a shell: `.mcp.json` commands are run directly. A project's
 * own dependency is found by npx from the folder Claude Code starts the server in; never the running
 * copy's absolute path in a file a team commits.
 */
function launcherWords(launcher: Launcher): string[] {
  if (launcher.kind === 'project') return ['npx', '--no-install', BIN_NAME];
  if (launcher.kind === 'path') return [BIN_NAME];
  return launcher.node === undefined ? [launcher.bin] : [launcher.node, launcher.bin];
}

function commit(file: string, before: string, after: string | undefined, request: Omit<McpWrapRequest, 'launcher'>, safety: SafeOptions, chain: boolean) {
  const diff = unifiedDiff(before, after, label(file, request.where));
  if (request.dryRun) return { file, diff };
  const backup = recordChange(file, before, after, request.where.env, chain);
  if (after === undefined) removeSafely(file, safety);
  else writeSafely(file, after, safety);
  return { file, diff, backup };
}
