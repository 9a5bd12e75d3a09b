// doctor's one line on the last 7 days of the audit logs. Doctor must stay quick on a log of gigabytes, so
// only the end of each log is read (TAIL_BYTES); the line says when the window reaches further back.
import type { ResolvedConfig } from '../config/resolve.js';
import { summaryLine } from '../report/format.js';
import { printable } from '../report/printable.js';
import { logsToRead } from '../report/logs.js';
import { buildReport, type Report } from '../report/report.js';

export const TAIL_BYTES = 4 * 1024 * 1024;
const DAYS = 7;

/** The summary and the report it was made from (for --json). */
export function recentActivity(config: ResolvedConfig | undefined, env: NodeJS.ProcessEnv, now = new Date(), tailBytes = TAIL_BYTES): { line: string; report?: Report } {
  try {
    const report = buildReport(logsToRead(config, env), { since: new Date(now.getTime() - DAYS * 86_400_000), now, tailBytes });
    return { line: summaryLine(report, `last ${DAYS} days`), report };
  } catch (error) {
    // A log that fails mid-read (an I/O error) must not cost the user doctor's other checks.
    return { line: `last ${DAYS} days: the audit log could not be read: ${printable(error instanceof Error ? error.message : String(error))}` };
  }
}
