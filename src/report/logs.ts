// Which audit logs a report reads: the default one, every `path` of an audit-log hook in the layers loaded,
// and the files named on the command line.
import path from 'node:path';
import type { ResolvedConfig } from '../config/resolve.js';
import { auditLogPath } from '../guards/audit-log.js';
import type { AuditLogOptions } from '../guards/audit-log/options.js';
import { stateDir } from '../paths.js';
import type { LogToRead } from './report.js';

/** The default log first, then each configured one (in config order), then `extra` (resolved against `cwd`). */
export function logsToRead(config: ResolvedConfig | undefined, env: NodeJS.ProcessEnv, extra: string[] = [], cwd = process.cwd()): LogToRead[] {
  const logs: LogToRead[] = [{ path: path.join(stateDir(env), 'audit.jsonl') }];
  for (const hook of config?.hooks ?? []) {
    if (hook.run.kind !== 'builtin' || hook.run.guard !== 'audit-log') continue;
    const options = (hook.run.options ?? {}) as AuditLogOptions;
    logs.push({ path: auditLogPath(options, { projectDir: config!.projectDir, env }), projectDir: config!.projectDir });
  }
  for (const file of extra) logs.push({ path: path.resolve(cwd, file) });
  return logs;
}
