// `hooks list`: the merged config, event by event, in run order, with where each hook came from.
import { mcpToolRuns } from '../../mcp/target.js';
import path from 'node:path';
import { describeNoConfig } from '../../config/load.js';
import { describeVia, layerStatus, type ResolvedHook } from '../../config/resolve.js';
import { loadConfig } from '../../engine.js';
import { EVENTS } from '../../events/catalog.js';
import type { Command } from '../command.js';
import { wantsColour } from '../context.js';
import { createStyle } from '../style.js';

export const command: Command = {
  help: `Usage: hooks list [options]

Shows the merged config (managed, user, project and local layers), event by event, in run order:
each hook's id, what it runs, its matchers and settings, and the layer and file it came from. Each
layer is shown with its trust state: a project or local file that is not trusted (see hooks trust)
is listed, and its hooks are not, because they do not run.

With --capabilities, shows what this runner supports instead of the config: every event (its
spellings, mode, and what a hook can decide on it), every wildcard key ("*", group:tool, ...),
every dialect (the agent events it maps), every builtin guard (the events it acts on, its options)
and every hook setting (audit, parallel, onFailure, ...). With --json it is one JSON document, built
from the tables the runner itself uses.

Options:
  --config <path>   use this file as the project config instead of searching
  --json            the list as JSON
  --capabilities    what the runner supports, not what is configured
`,
  args: { positional: [], flags: { config: 'string', json: 'boolean', capabilities: 'boolean' } },
  async run(args, ctx) {
    if (args.flags.capabilities === true) {
      const { capabilities } = await import('../../capabilities.js');
      const caps = await capabilities();
      ctx.stdout(args.flags.json === true ? `${JSON.stringify(caps, null, 2)}\n` : renderCapabilities(caps));
      return 0;
    }
    const config = await loadConfig({ cwd: ctx.cwd, env: ctx.env, ...(typeof args.flags.config === 'string' ? { configFile: args.flags.config } : {}) });
    if (args.flags.json === true) {
      ctx.stdout(`${JSON.stringify({ layers: config.layers, projectDir: config.projectDir, warnings: config.warnings, ...(config.layers.length === 0 ? { noConfig: describeNoConfig(config.search, ctx.env) } : {}), hooks: config.hooks.map(describeHook) }, null, 2)}\n`);
      return 0;
    }
    const s = createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env));
    const lines: string[] = [];
    if (config.layers.length === 0) lines.push(s.dim(describeNoConfig(config.search, ctx.env)));
    for (const l of config.layers) lines.push(`${s.dim(l.layer)} ${l.via === undefined ? '' : s.dim(`extends ${JSON.stringify(l.via.at(-1)!.extends)}: `)}${path.relative(ctx.cwd, l.file) || l.file}  ${(l.active ? s.dim : s.yellow)(layerStatus(l))}`);
    for (const w of config.warnings) if (!config.layers.some((l) => l.problem !== undefined && w.startsWith(l.problem))) lines.push(s.yellow(`! ${w}`));
    // The catalog's events, then any a config names that the catalog does not know (a newer agent's).
    const names = [...new Set([...EVENTS.map((e) => e.name), ...config.hooks.map((h) => h.event)])];
    for (const name of names) {
      const hooks = config.hooks.filter((h) => h.event === name);
      if (hooks.length === 0) continue;
      lines.push('', s.bold(name));
      hooks.forEach((hook, i) => {
        const d = describeHook(hook);
        const settings = [
          d.match === undefined ? undefined : `match ${(d.match as string[]).join('|')}`,
          d.if === undefined ? undefined : `if ${JSON.stringify(d.if)}`,
          d.rule === undefined ? undefined : `if ${String(d.rule)}`,
          d.on === undefined ? undefined : `matcher ${(d.on as { field: string; matcher: string }).field} ${JSON.stringify((d.on as { matcher: string }).matcher)}`,
          d.agent === undefined ? undefined : `agent ${(d.agent as string[]).join('|')}`,
          hook.priority !== 0 ? `priority ${hook.priority}` : undefined,
          `timeout ${hook.timeoutMs / 1000}s`,
          hook.onFailure === 'block' ? 'onFailure block' : undefined,
          hook.parallel ? 'parallel' : undefined,
          hook.enabled ? undefined : s.yellow(hook.overriddenBy?.fields.includes('enabled') ? `disabled by ${hook.overriddenBy.layer} layer ${path.relative(ctx.cwd, hook.overriddenBy.file) || hook.overriddenBy.file} ${hook.overriddenBy.key}` : 'disabled'),
        ].filter(Boolean);
        lines.push(`  ${i + 1}. ${s.bold(hook.id)}  ${String(d.runs)}`);
        lines.push(`     ${s.dim(`${settings.join(' · ')} · ${hook.source.layer} ${path.relative(ctx.cwd, hook.source.file ?? '') || hook.source.file || ''} ${hook.source.key}${describeVia(hook.source)}`)}`);
        for (const note of hook.notes ?? []) lines.push(`     ${s.dim(`! ${note}`)}`);
      });
    }
    ctx.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};

/** A hook as plain data: what it runs and how it is matched. */
export function describeHook(hook: ResolvedHook): Record<string, unknown> {
  const run = hook.run;
  const what =
    run.kind === 'command'
      ? run.args === undefined
        ? run.command
        : [run.command, ...run.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')
      : run.kind === 'builtin'
        ? `builtin ${run.guard}`
        : run.kind === 'http'
          ? `POST ${run.url}`
          : run.kind === 'prompt'
            ? `${run.agent === undefined ? 'model judge' : `agent verifier, up to ${run.agent.maxTurns} turns`} (${[run.judge.provider, run.judge.model].filter((p) => p !== undefined).join(' ') || 'the default model'}): ${oneLinePrompt(run.prompt)}`
            : run.kind === 'mcp_tool'
              ? mcpToolRuns(run)
              : 'in-process handler';
  const runs = hook.audit === true ? `${what} (audit mode)` : what;
  return {
    id: hook.id,
    event: hook.event,
    runs: run.kind === 'command' && run.async === true ? `${runs} (async: not waited for)` : runs,
    ...(hook.match === undefined ? {} : { match: hook.match }),
    ...(hook.if === undefined ? {} : { if: hook.if }),
    ...(hook.rule === undefined ? {} : { rule: hook.rule }),
    ...(hook.on === undefined ? {} : { on: hook.on }),
    ...(hook.agent === undefined ? {} : { agent: hook.agent }),
    priority: hook.priority,
    timeoutMs: hook.timeoutMs,
    onFailure: hook.onFailure,
    parallel: hook.parallel,
    enabled: hook.enabled,
    audit: hook.audit === true,
    ...(hook.scope === undefined ? {} : { scope: hook.scope }),
    cwd: hook.cwd,
    source: hook.source,
    ...(hook.overriddenBy === undefined ? {} : { overriddenBy: hook.overriddenBy }),
    ...(hook.notes === undefined ? {} : { notes: hook.notes }),
  };
}

/** The capabilities in a few lines per section, for people (tools read --json). */
function renderCapabilities(caps: Record<string, unknown>): string {
  const c = caps as {
    events: { name: string; spellings: { cli: string; claude: string }; mode: string; decisions: string[]; groups: string[] }[];
    eventKeys: { key: string; summary: string; events: string[] }[];
    dialects: { name: string; events: Record<string, string | null> }[];
    guards: { id: string; summary: string; events: string[]; onWithoutConfig: string[] }[];
    modes: { hook: Record<string, { description?: string }> };
  };
  const lines = ['events'];
  for (const e of c.events) lines.push(`  ${e.name} (${e.spellings.cli}, ${e.spellings.claude})  ${e.mode}  decides: ${e.decisions.join(' ')}`);
  lines.push('', 'wildcard keys (run after the event\'s own hooks, all else equal)');
  for (const k of c.eventKeys) lines.push(`  ${k.key}  ${k.summary}: ${k.events.join(', ') || 'none yet'}`);
  lines.push('', 'dialects');
  for (const d of c.dialects) lines.push(`  ${d.name}  ${Object.entries(d.events).map(([agent, event]) => (event === null ? `${agent}→(none)` : agent === event ? agent : `${agent}→${event}`)).join(' ')}`);
  lines.push('', 'builtin guards');
  for (const g of c.guards) lines.push(`  ${g.id}  on ${g.events.length > 3 ? 'every event' : g.events.join(', ')}${g.onWithoutConfig.length > 0 ? `; with no config on ${g.onWithoutConfig.join(', ')}` : ''}  ${g.summary}`);
  lines.push('', 'hook settings');
  for (const [key, field] of Object.entries(c.modes.hook)) lines.push(`  ${key}${field.description === undefined ? '' : `  ${field.description}`}`);
  return `${lines.join('\n')}\n`;
}

/** A prompt hook's prompt on one line, cut short. */
function oneLinePrompt(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
