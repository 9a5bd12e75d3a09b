// `hooks list`: the merged config, event by event, in run order, with where each hook came from.
import path from 'node:path';
import { describeNoConfig } from '../../config/load.js';
import { hooksFor, layerStatus, type ResolvedHook } from '../../config/resolve.js';
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

Options:
  --config <path>   use this file as the project config instead of searching
  --json            the list as JSON
`,
  args: { positional: [], flags: { config: 'string', json: 'boolean' } },
  async run(args, ctx) {
    const config = await loadConfig({ cwd: ctx.cwd, env: ctx.env, ...(typeof args.flags.config === 'string' ? { configFile: args.flags.config } : {}) });
    if (args.flags.json === true) {
      ctx.stdout(`${JSON.stringify({ layers: config.layers, projectDir: config.projectDir, warnings: config.warnings, ...(config.layers.length === 0 ? { noConfig: describeNoConfig(config.search, ctx.env) } : {}), hooks: config.hooks.map(describeHook) }, null, 2)}\n`);
      return 0;
    }
    const s = createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env));
    const lines: string[] = [];
    if (config.layers.length === 0) lines.push(s.dim(describeNoConfig(config.search, ctx.env)));
    for (const l of config.layers) lines.push(`${s.dim(l.layer)} ${path.relative(ctx.cwd, l.file) || l.file}  ${(l.active ? s.dim : s.yellow)(layerStatus(l))}`);
    for (const w of config.warnings) if (!config.layers.some((l) => l.problem !== undefined && w.startsWith(l.problem))) lines.push(s.yellow(`! ${w}`));
    for (const event of EVENTS) {
      const hooks = hooksFor(config, event.name);
      if (hooks.length === 0) continue;
      lines.push('', s.bold(event.name));
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
        lines.push(`     ${s.dim(`${settings.join(' · ')} · ${hook.source.layer} ${path.relative(ctx.cwd, hook.source.file ?? '') || hook.source.file || ''} ${hook.source.key}`)}`);
        for (const note of hook.notes ?? []) lines.push(`     ${(hook.run.kind === 'unsupported' ? s.yellow : s.dim)(`! ${note}`)}`);
      });
    }
    ctx.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};

/** A hook as plain data: what it runs and how it is matched. */
export function describeHook(hook: ResolvedHook): Record<string, unknown> {
  const run = hook.run;
  const runs =
    run.kind === 'command'
      ? run.args === undefined
        ? run.command
        : [run.command, ...run.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')
      : run.kind === 'builtin'
        ? `builtin ${run.guard}${run.audit ? ' (audit mode)' : ''}`
        : run.kind === 'http'
          ? `POST ${run.url}`
          : run.kind === 'unsupported'
            ? `type ${run.type}: not supported by agent-hooks (skipped)`
            : 'in-process handler';
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
    cwd: hook.cwd,
    source: hook.source,
    ...(hook.overriddenBy === undefined ? {} : { overriddenBy: hook.overriddenBy }),
    ...(hook.notes === undefined ? {} : { notes: hook.notes }),
  };
}
