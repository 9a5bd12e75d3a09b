// `hooks doctor`: checks the config layers and the hooks for the mistakes that fail silently.
import { diagnose, type Finding } from '../../doctor/diagnose.js';
import { coverageLines, guardCoverage, type EventCoverage } from '../../doctor/coverage.js';
import { layerStatus } from '../../config/resolve.js';
import { loadConfig } from '../../engine.js';
import { isHooksError } from '../../errors.js';
import type { Command } from '../command.js';
import { wantsColour } from '../context.js';
import { createStyle } from '../style.js';
import { lockReport } from '../../doctor/locked.js';
import { recentActivity } from '../../doctor/activity.js';
import type { ResolvedConfig } from '../../config/resolve.js';

export const command: Command = {
  help: `Usage: hooks doctor [options]

Checks the config and the hooks for the mistakes that otherwise fail silently: no config found
(and where it looked); each layer's trust state (an untrusted project config does not run);
which first-party guards act on which events (the built-in defaults when no config runs) and
which events have none; config errors in any layer; a second config file shadowed by the first; a hook cwd that does not
exist; commands and scripts that do not exist or are not executable (a typo in a guard's path
turns the guard off); "if" fields the event never has; duplicate ids; worst-case timeouts longer
than Claude Code waits for a hook (it then drops the answer). One line per finding, with the fix.
Exit 1 if any finding is an error.

Then one line on the last 7 days of the audit logs (docs/report.md): events, blocks, asks,
rewrites, hook failures and the slowest hook; only the end of a big log is read, and the line
says so.

Then "locked: yes" or "locked: no" and every reason it is not (docs/locked.md): whether this runner,
the node it runs under and /etc/agent-hooks/managed.json are out of your reach, and, per agent,
whether its managed hook settings run this runner as "install <agent> --managed" writes them.

Options:
  --config <path>   use this file as the project config instead of searching
  --json            findings as JSON
`,
  args: { positional: [], flags: { config: 'string', json: 'boolean' } },
  async run(args, ctx) {
    let findings: Finding[];
    let layers: string[] = [];
    let coverage: EventCoverage[] | undefined;
    let covered: string[] = [];
    let loaded: ResolvedConfig | undefined;
    try {
      const config = await loadConfig({ cwd: ctx.cwd, env: ctx.env, ...(typeof args.flags.config === 'string' ? { configFile: args.flags.config } : {}) });
      layers = config.layers.map((l) => `${l.layer} ${l.file}: ${layerStatus(l)}`);
      findings = diagnose(config, ctx.env);
      coverage = guardCoverage(config);
      covered = coverageLines(config);
      loaded = config;
    } catch (error) {
      if (!isHooksError(error) || !error.code.startsWith('CONFIG_')) throw error;
      const issues = error.context.issues ?? [error.message];
      findings = issues.map((issue) => ({ level: 'error', where: 'config', message: issue, fix: 'correct the config at that key path (hooks schema lists what is allowed)' }));
    }
    const errors = findings.filter((f) => f.level === 'error').length;
    const locked = lockReport();
    const activity = recentActivity(loaded, ctx.env);
    if (args.flags.json === true) {
      const r = activity.report;
      const recent = r === undefined ? { error: activity.line } : { since: r.since, ...r.totals, slowest: r.slowest[0] ?? null, partial: r.partial, files: r.files.map((f) => ({ path: f.path, status: f.status })) };
      ctx.stdout(`${JSON.stringify({ layers, ...(coverage === undefined ? {} : { coverage }), findings, errors, warnings: findings.length - errors, locked, recent }, null, 2)}\n`);
      return errors > 0 ? 1 : 0;
    }
    const s = createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env));
    const lines = [...layers.map((l) => s.dim(`checked ${l}`)), ...covered];
    for (const f of findings) {
      const label = f.level === 'error' ? s.red('error  ') : s.yellow('warning');
      lines.push(`${label} ${f.where}: ${f.message} ${s.dim('— fix:')} ${f.fix}`);
    }
    const warnings = findings.length - errors;
    lines.push(activity.line);
    // Not a finding: an unlocked runner is the normal case; it is said, with why, for those who need one.
    lines.push(locked.locked ? s.green(`locked: yes (${Object.entries(locked.agents).filter(([, a]) => a.locked).map(([n]) => n).join(', ')})`) : 'locked: no');
    for (const reason of locked.reasons) lines.push(s.dim(`  ${reason}`));
    lines.push(findings.length === 0 ? s.green('no problems found') : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
    ctx.stdout(`${lines.join('\n')}\n`);
    return errors > 0 ? 1 : 0;
  },
};
