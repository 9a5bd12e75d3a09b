// `hooks report`: what the guards decided over the last days, from the audit logs.
import { loadConfig } from '../../engine.js';
import { HooksError, isHooksError } from '../../errors.js';
import { formatReport } from '../../report/format.js';
import { logsToRead } from '../../report/logs.js';
import { printable } from '../../report/printable.js';
import { buildReport } from '../../report/report.js';
import { reportWindow } from '../../report/window.js';
import type { Command } from '../command.js';
import { wantsColour } from '../context.js';
import { createStyle } from '../style.js';

export const command: Command = {
  help: `Usage: hooks report [options]

What was blocked, asked, rewritten (modify) and failed, from the audit logs: by hook, tool, project
and session, the slowest hooks (p50/p95/max), and the latest decisions with their reasons.

It reads the default log ($XDG_STATE_HOME/agent-hooks/audit.jsonl), every "path" of an audit-log
hook in the config layers found from here, and each --log FILE; it says which files it read and how
many lines it skipped as unreadable. The log is only read (a symlink is refused, as the writer does).

Options:
  --days <n>       the last n days (default 7)
  --since <when>   instead of --days: a date (2026-11-20, UTC), a date-time (2026-11-20T08:00Z) or
                   a duration back (12h, 3d, 90m)
  --log <file>     read this log too (repeatable)
  --top <n>        rows per table in the text (default 10)
  --config <path>  use this file as the project config instead of searching
  --json           the report as JSON (docs/report.md)

Examples:
  npx agent-hooks report
  npx agent-hooks report --days 1 --log ~/logs/agent-audit.jsonl
  npx agent-hooks report --since 2026-11-20 --json
`,
  args: { positional: [], flags: { days: 'string', since: 'string', log: 'list', top: 'string', config: 'string', json: 'boolean' } },
  async run(args, ctx) {
    const now = new Date();
    const window = reportWindow({ ...(typeof args.flags.days === 'string' ? { days: args.flags.days } : {}), ...(typeof args.flags.since === 'string' ? { since: args.flags.since } : {}) }, now);
    const topRaw = typeof args.flags.top === 'string' ? args.flags.top : '10';
    const top = /^\d{1,6}$/.test(topRaw) ? Number(topRaw) : Number.NaN;
    if (!(top >= 1)) throw new HooksError('USAGE', `--top: expected a whole number, 1 or more, got "${topRaw}"`);
    let config;
    try {
      config = await loadConfig({ cwd: ctx.cwd, env: ctx.env, ...(typeof args.flags.config === 'string' ? { configFile: args.flags.config } : {}) });
    } catch (error) {
      if (!isHooksError(error) || !error.code.startsWith('CONFIG_')) throw error;
      // The logs are still worth reading: say which ones could not be found out.
      ctx.stderr(`agent-hooks: the config did not load, so logs configured there are not read: ${printable(error.message.split('\n')[0]!)}\n`);
    }
    const report = buildReport(logsToRead(config, ctx.env, args.lists.log ?? [], ctx.cwd), { since: window.since, now });
    if (args.flags.json === true) {
      ctx.stdout(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    ctx.stdout(formatReport(report, { window: window.label, top }, createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env))));
    return 0;
  },
};
