// Which first-party guards act on which events for the resolved config (the built-in defaults layer
// included), and which events have none: the answer to "is anything guarding this?", for hooks doctor.
import { DEFAULT_GUARDS, hooksFor, type ResolvedConfig } from '../config/resolve.js';
import { EVENTS } from '../events/catalog.js';
import type { EventName } from '../types.js';

export interface EventCoverage {
  event: EventName;
  /** Builtin guards that run on the event and can act (not in audit mode). */
  guards: { id: string; guard: string; layer: string }[];
  /** Builtin guards in audit (shadow) mode: they report, never act. */
  audit: { id: string; guard: string; layer: string }[];
  /** Builtin guards configured here and switched off (enabled: false). */
  disabled: string[];
  /** Command hooks and library handlers that would run (whatever they do, they are not first-party guards). */
  otherHooks: number;
}

/** One entry per catalog event, in catalog order. */
export function guardCoverage(config: ResolvedConfig): EventCoverage[] {
  return EVENTS.map((spec) => {
    const entry: EventCoverage = { event: spec.name, guards: [], audit: [], disabled: [], otherHooks: 0 };
    for (const hook of hooksFor(config, spec.name)) {
      if (hook.run.kind !== 'builtin') {
        if (hook.enabled) entry.otherHooks++;
        continue;
      }
      const guard = { id: hook.id, guard: hook.run.guard, layer: hook.source.layer };
      if (!hook.enabled) entry.disabled.push(hook.id);
      else if (hook.audit ?? hook.run.audit) entry.audit.push(guard);
      else entry.guards.push(guard);
    }
    return entry;
  });
}

/** The coverage as lines for people: one per guarded event, then the events no guard acts on. */
export function coverageLines(config: ResolvedConfig): string[] {
  const coverage = guardCoverage(config);
  const lines: string[] = [];
  const byDefaults = config.hooks.some((h) => h.source.layer === 'defaults');
  if (byDefaults) lines.push('guards: no config runs, so the built-in defaults do');
  for (const c of coverage) {
    const parts = [
      ...c.guards.map((g) => (g.id === g.guard ? g.id : `${g.id} (${g.guard})`)),
      ...c.audit.map((g) => `${g.id} (audit mode: reports, never acts)`),
      ...c.disabled.map((id) => `${id} (disabled)`),
    ];
    if (parts.length > 0) lines.push(`guards on ${c.event}: ${parts.join(', ')}${c.otherHooks > 0 ? `; and ${c.otherHooks} other hook${c.otherHooks === 1 ? '' : 's'}` : ''}`);
  }
  const none = coverage.filter((c) => c.guards.length === 0);
  if (none.length > 0) {
    lines.push(`no guard acts on: ${none.map((c) => (c.otherHooks > 0 ? `${c.event} (${c.otherHooks} other hook${c.otherHooks === 1 ? '' : 's'})` : c.event)).join(', ')}`);
    const lost = Object.keys(DEFAULT_GUARDS.hooks).filter((event) => none.some((c) => c.event === event));
    if (!byDefaults && lost.length > 0) {
      lines.push(`  (a config runs, so the built-in defaults do not; to keep them on ${lost.join(', ')}, add e.g. {"builtin": "command-safety"} to the config)`);
    }
  }
  return lines;
}
