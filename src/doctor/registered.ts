// Does the project's Claude Code install still send agent-hooks every event and tool its config guards?
// `hooks install claude-code --project` registers only the events the config used at install time, with
// matchers for the tools it guarded then; a hook added since (to the project, the user or the managed
// layer) would silently never run. doctor compares the two.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/resolve.js';
import { eventSpec } from '../events/catalog.js';
import { claudeCode } from '../install/agents/claude-code.js';
import { nestedEntries } from '../install/event-table.js';
import { planEvents } from '../install/plan.js';
import type { Where } from '../install/target.js';
import { isRecord } from '../json.js';
import type { Finding } from './finding.js';

/** Our entries per Claude event: the tools each sends (undefined: every tool), or nothing when none. */
function installedEntries(doc: unknown): Map<string, Set<string> | undefined> {
  const found = new Map<string, Set<string> | undefined>();
  const table = isRecord(doc) && isRecord(doc.hooks) ? doc.hooks : {};
  for (const [event, groups] of Object.entries(table)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isRecord(group) || nestedEntries.ours(group) === 0) continue;
      const matcher = typeof group.matcher === 'string' ? group.matcher : '';
      // An exact list is what install writes; anything else (edited by hand) counts as every tool.
      const tools = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/.test(matcher) ? new Set(matcher.split('|')) : undefined;
      if (!found.has(event)) found.set(event, tools);
      else {
        const before = found.get(event);
        found.set(event, before === undefined || tools === undefined ? undefined : new Set([...before, ...tools]));
      }
    }
  }
  return found;
}

export function checkRegistered(config: ResolvedConfig, where: Where): Finding[] {
  const file = claudeCode.file('project', where);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const installed = installedEntries(doc);
  if (installed.size === 0) return [];
  const at = path.relative(where.cwd, file);
  const fix = 'npx agent-hooks install claude-code (it registers the events and tools the config uses now)';
  const findings: Finding[] = [];
  for (const [event, plan] of planEvents(config, [], 0)) {
    const claude = eventSpec(event).claude;
    if (!installed.has(claude)) {
      findings.push({ level: 'warning', where: at, message: `the config has hooks on ${claude}, which the installed entries never send to agent-hooks: they never run`, fix });
      continue;
    }
    const sent = installed.get(claude);
    if (sent === undefined) continue;
    const missing = plan.matcher === undefined ? ['every other tool'] : plan.matcher.split('|').filter((t) => !sent.has(t));
    if (missing.length > 0) {
      findings.push({ level: 'warning', where: at, message: `on ${claude} the installed entries send only ${[...sent].join('|')} to agent-hooks; the config's hooks also guard ${missing.join(', ')}, which never reach them`, fix });
    }
  }
  return findings;
}
