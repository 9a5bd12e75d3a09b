// `hooks import claude-code`: a Claude Code settings file's hooks, written into .hooksrc.json.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../../errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: `Usage: hooks import claude-code [--from <settings.json>] [--to <.hooksrc.json>] [--dry-run]

Copies the hooks of a Claude Code settings file into the project's .hooksrc.json, one entry per
handler, so they run through agent-hooks for every agent, as they ran in Claude Code: each keeps
its command (or http url), Claude's "matcher" (read as Claude Code reads it), its "if" rule, timeout,
onFailure, async, shell and statusMessage. Entries that hooks install wrote (which call agent-hooks)
are left out. Prompt hooks are imported (a model judges, src/judge); mcp_tool hooks are imported
with the server they name, copied into "mcpServers" from .mcp.json in this folder or the settings
file's own "mcpServers" (a server found in neither is said, and the hook fails until you add it).
Handlers of type agent are listed and not imported. Entries already in .hooksrc.json are not added
twice, so importing again changes nothing.

The file is written safely (inside the project, never through a symlink out of it) and the change is
shown as a diff. It is not trusted by this: review it, then run hooks trust. Then remove the imported
hooks from Claude Code's settings, or they run twice (natively and through agent-hooks).

Options:
  --from <file>   the settings file (default: .claude/settings.json in this folder)
  --to <file>     the config to write (default: .hooksrc.json in this folder)
  --dry-run       show the diff, write nothing
`,
  args: { positional: ['agent'], flags: { from: 'string', to: 'string', 'dry-run': 'boolean' } },
  async run(args, ctx) {
    const agent = args.positional.agent;
    if (agent !== 'claude-code') throw new HooksError('USAGE', `hooks import ${agent ?? ''}: only claude-code can be imported (usage: hooks import claude-code [--from <settings.json>])`.replace('import :', 'import:'));
    const from = path.resolve(ctx.cwd, typeof args.flags.from === 'string' ? args.flags.from : path.join('.claude', 'settings.json'));
    const to = path.resolve(ctx.cwd, typeof args.flags.to === 'string' ? args.flags.to : '.hooksrc.json');
    let settings: unknown;
    try {
      settings = JSON.parse(readFileSync(from, 'utf8'));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      throw new HooksError('USAGE', `${from}: ${e.code === 'ENOENT' ? 'not found (pass --from <settings.json>)' : `cannot be read as JSON (${e.message})`}`);
    }
    if (typeof args.flags.to !== 'string') {
      // Another config file here would shadow .hooksrc.json (or be shadowed by it): the import would not run.
      const { SEARCH_PLACES } = await import('../../config/load.js');
      const other = SEARCH_PLACES.find((name) => name !== '.hooksrc.json' && name !== 'package.json' && existsSync(path.join(ctx.cwd, name)));
      if (other !== undefined) throw new HooksError('USAGE', `this project's config is ${other}, which .hooksrc.json would not join; add the hooks there by hand, or pass --to ${other} if it is JSON`);
    }
    const { importClaudeHooks, mergeImported } = await import('../../config/claude-import.js');
    const { readSafely, writeSafely } = await import('../../fs/write-safely.js');
    const { unifiedDiff } = await import('../../install/diff.js');
    const safety = { root: ctx.cwd, outsideHint: 'pass a --to inside this folder' };
    // Where Claude Code finds the servers an mcp_tool hook names: the project's .mcp.json, the settings file's own.
    const known: { file: string; servers: unknown }[] = [];
    const mcpJson = path.join(ctx.cwd, '.mcp.json');
    if (existsSync(mcpJson)) {
      try {
        known.push({ file: '.mcp.json', servers: (JSON.parse(readFileSync(mcpJson, 'utf8')) as { mcpServers?: unknown }).mcpServers });
      } catch (error) {
        throw new HooksError('USAGE', `${mcpJson}: cannot be read as JSON (${(error as Error).message}); nothing written`);
      }
    }
    if (typeof settings === 'object' && settings !== null && 'mcpServers' in settings) known.push({ file: path.relative(ctx.cwd, from) || from, servers: (settings as { mcpServers?: unknown }).mcpServers });
    const imported = importClaudeHooks(settings, known);
    const before = readSafely(to, safety);
    let current: Record<string, unknown> = {};
    if (before !== undefined) {
      try {
        const parsed = JSON.parse(before) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
        current = parsed as Record<string, unknown>;
      } catch (error) {
        throw new HooksError('USAGE', `${to}: cannot add to it: ${(error as Error).message}; nothing written`);
      }
    }
    const { config, added } = mergeImported(current, imported);
    const after = added === 0 && before !== undefined ? before : `${JSON.stringify(config, null, 2)}\n`;
    const rel = path.relative(ctx.cwd, to) || to;
    const lines: string[] = [];
    const count = Object.values(imported.hooks).reduce((n, l) => n + l.length, 0);
    lines.push(`read ${path.relative(ctx.cwd, from) || from}: ${count} hook${count === 1 ? '' : 's'} to import${imported.ours > 0 ? `, ${imported.ours} entr${imported.ours === 1 ? 'y' : 'ies'} of hooks install left out` : ''}`);
    for (const s of imported.skipped) lines.push(`  not imported: ${s}`);
    for (const d of imported.dropped) lines.push(`  ${d}`);
    for (const u of imported.unknownEvents) lines.push(`  ${u}`);
    for (const m of imported.servers) lines.push(`  ${m}`);
    if (after === before) {
      lines.push(`${rel}: unchanged (every hook is already there)`);
      ctx.stdout(`${lines.join('\n')}\n`);
      return 0;
    }
    const diff = unifiedDiff(before, after, rel);
    if (args.flags['dry-run'] !== true) writeSafely(to, after, safety);
    lines.push(`${args.flags['dry-run'] === true ? 'would write' : 'wrote'} ${rel}: ${added} entr${added === 1 ? 'y' : 'ies'} added`, '', diff.trimEnd());
    if (args.flags['dry-run'] !== true) {
      lines.push('', `next: review ${rel}, then run: hooks trust`, `      remove the imported hooks from ${path.relative(ctx.cwd, from) || from}, or Claude Code runs them twice`);
    }
    ctx.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
