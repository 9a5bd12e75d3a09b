// What `hooks install claude-code --project` registers: the events the config uses (and only those),
// each with Claude Code's `matcher` when the config's `match` names an exact set of Claude Code tools
// (so tools nobody guards spawn nothing), and a timeout that fits the event's chain at its worst.
import { eventSpec, findEvent } from '../events/catalog.js';
import { canonicalTool, KNOWN_TOOL_NAMES } from '../events/tools.js';
import type { ConfigLayer } from '../config/load.js';
import { trustTier, type ResolvedConfig, type ResolvedHook } from '../config/resolve.js';
import { expandClaudeShape } from '../config/claude-shape.js';
import { isRecord } from '../json.js';
import { selectHooks } from '../match/select.js';
import { isRegexPattern } from '../match/tool-pattern.js';
import type { EventName, HookEvent } from '../types.js';

export interface EventPlan {
  /** Claude Code's matcher for the entry; absent: every tool (or an event without tools). */
  matcher?: string;
  /** Seconds the agent should wait for the runner on this event. */
  timeoutSeconds: number;
}

/** Seconds on top of a chain's worst case: the runner's start, its kill grace, its answer. */
export const ENTRY_MARGIN_SECONDS = 10;

/** Claude Code's tool names (2.1.328), the set a derived matcher is written from. */
const CLAUDE_TOOLS = [
  'Bash', 'PowerShell', 'Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead', 'Glob', 'Grep', 'LS', 'WebFetch',
  'WebSearch', 'Task', 'Agent', 'TodoWrite', 'ExitPlanMode', 'AskUserQuestion', 'Skill', 'SlashCommand', 'BashOutput', 'KillShell',
];

/**
 * The plan per event. `layers` are the raw layers: an untrusted or broken project file's events are
 * registered too (every tool), so its hooks run once it is trusted or fixed without installing again.
 */
export function planEvents(config: ResolvedConfig, layers: readonly ConfigLayer[], minimumSeconds: number): Map<EventName, EventPlan> {
  const plan = new Map<EventName, EventPlan>();
  const byEvent = new Map<EventName, ResolvedHook[]>();
  for (const hook of config.hooks) {
    if (!hook.enabled) continue;
    const list = byEvent.get(hook.event) ?? [];
    list.push(hook);
    byEvent.set(hook.event, list);
  }
  for (const [event, hooks] of byEvent) {
    const matcher = eventSpec(event).tool ? deriveMatcher(hooks) : undefined;
    const timeoutSeconds = Math.max(minimumSeconds, Math.ceil(worstCaseMs(event, hooks) / 1000) + ENTRY_MARGIN_SECONDS);
    plan.set(event, matcher === undefined ? { timeoutSeconds } : { matcher, timeoutSeconds });
  }
  for (const layer of layers) {
    const active = config.layers.find((l) => l.file === layer.file)?.active === true;
    if (active || !isRecord(layer.config)) continue;
    const { config: expanded } = expandClaudeShape(layer.config, layer.file);
    const hooks = isRecord(expanded) && isRecord(expanded.hooks) ? expanded.hooks : {};
    for (const key of Object.keys(hooks)) {
      const spec = findEvent(key);
      if (spec === undefined) continue;
      // Its hooks are not known yet: every tool, and the longest wait Claude Code itself allows a hook.
      plan.set(spec.name, { timeoutSeconds: Math.max(plan.get(spec.name)?.timeoutSeconds ?? 0, minimumSeconds, 600 + ENTRY_MARGIN_SECONDS) });
    }
  }
  return plan;
}

/**
 * How long the event's chain can take: on an intercepting event the batches run one after another
 * (parallel hooks of a batch at once), on an observing event every hook at once.
 */
export function worstCaseMs(event: EventName, hooks: readonly ResolvedHook[]): number {
  if (eventSpec(event).mode === 'observe') return Math.max(0, ...hooks.map((h) => h.timeoutMs));
  let total = 0;
  let batch: ResolvedHook[] = [];
  const close = () => {
    total += Math.max(0, ...batch.map((h) => h.timeoutMs));
    batch = [];
  };
  for (const hook of hooks) {
    const last = batch[0];
    if (last !== undefined && !(hook.parallel && last.parallel && trustTier(last.source.layer) === trustTier(hook.source.layer))) close();
    batch.push(hook);
  }
  close();
  return total;
}

/**
 * The exact set of Claude Code tools some hook of the event runs for, as `A|B|C`; undefined when a
 * hook runs for every tool, or for tools that cannot be listed (an MCP glob, a regex, a name Claude
 * Code does not have). Undefined always errs toward spawning the runner.
 */
export function deriveMatcher(hooks: readonly ResolvedHook[]): string | undefined {
  const names = new Set<string>();
  for (const hook of hooks) {
    if (hook.match === undefined) return undefined;
    for (const pattern of hook.match) {
      if (isRegexPattern(pattern) || /[*?[\]{}!()]/.test(pattern) || pattern.startsWith('mcp__')) return undefined;
      const hits = CLAUDE_TOOLS.filter((name) => picks({ ...hook, match: [pattern] }, name));
      if (hits.length > 0) hits.forEach((n) => names.add(n));
      else if (pattern.startsWith('group:') || KNOWN_TOOL_NAMES.includes(pattern) || canonicalTool(pattern) !== pattern) continue;
      // A plain name Claude Code may have that this list does not know: kept as written.
      else if (/^[A-Za-z0-9_-]+$/.test(pattern)) names.add(pattern);
      else return undefined;
    }
  }
  return names.size === 0 ? undefined : [...names].join('|');
}

function picks(hook: ResolvedHook, name: string): boolean {
  const probe = { ...hook, enabled: true, if: undefined, rule: undefined, on: undefined, agent: undefined };
  const event = { name: hook.event, tool: { name, canonical: canonicalTool(name) }, payload: { tool_name: name, tool_input: {} } } as unknown as HookEvent;
  return selectHooks([probe], event)[0]!.selected;
}
