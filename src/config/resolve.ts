// Validates config layers and merges them into one ordered list of resolved hooks, each knowing where it came from.
import path from 'node:path';
import type { z } from 'zod';
import { HooksError } from '../errors.js';
import { EVENTS, eventSpec, findEvent } from '../events/catalog.js';
import { GUARD_IDS, loadGuard } from '../guards/index.js';
import { checkToolPattern, type Matchable } from '../match/select.js';
import { didYouMean } from '../suggest.js';
import type { EventName, Guard, GuardContext, HandlerFn, ObservedRun } from '../types.js';
import type { ConfigLayer, LayerName } from './load.js';
import type { HandlerSchema } from './schema.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;

/** Where a hook was declared: the layer, the file and the key path inside it. */
export interface HookSource {
  layer: LayerName;
  file?: string;
  /** e.g. `hooks.preToolUse[2]`. */
  key: string;
}

export type HookRun =
  | { kind: 'command'; command: string; args?: string[] }
  | {
      kind: 'builtin';
      guard: string;
      audit: boolean;
      /** The options as the guard's schema parsed them. */
      options: unknown;
      handler: HandlerFn;
      observer?: (run: ObservedRun) => void | Promise<void>;
    }
  | { kind: 'function'; handler: HandlerFn };

/** A hook ready to run: every default applied, every path absolute. */
export interface ResolvedHook extends Matchable {
  id: string;
  event: EventName;
  source: HookSource;
  run: HookRun;
  priority: number;
  timeoutMs: number;
  onFailure: 'block' | 'continue';
  parallel: boolean;
  env: Record<string, string>;
  cwd: string;
}

export interface ResolvedConfig {
  /** The files that were read, in merge order. */
  layers: { layer: LayerName; file: string }[];
  /** Where hooks run and what `HOOKS_PROJECT_DIR` says: the project config's folder, else the working directory. */
  projectDir: string;
  /** Every hook of every event, in run order within each event. */
  hooks: ResolvedHook[];
}

/** An in-process hook registered through the library API. */
export interface HandlerSpec {
  event: EventName | string;
  id: string;
  handler: HandlerFn;
  match?: string | string[];
  if?: Record<string, string | string[]>;
  priority?: number;
  /** Seconds. */
  timeout?: number;
  onFailure?: 'block' | 'continue';
  parallel?: boolean;
  enabled?: boolean;
}

const LAYER_RANK: Record<LayerName, number> = { user: 0, project: 1, local: 2, api: 3, cli: 4 };

/** Validates every layer and merges them; throws one `CONFIG_INVALID` error listing every problem. */
export async function resolveConfig(
  layers: readonly ConfigLayer[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; handlers?: readonly HandlerSpec[] },
): Promise<ResolvedConfig> {
  const project = layers.find((l) => l.layer === 'project');
  const projectDir = project?.dir ?? options.cwd;
  const guardContext: GuardContext = { projectDir, env: options.env ?? process.env };
  const issues: string[] = [];
  const hooks: ResolvedHook[] = [];

  for (const layer of layers) {
    // Loaded only when there is a layer to check: a run without config (or from the cache) skips zod.
    const { ConfigSchema, CONFIG_KEYS } = await import('./schema.js');
    const parsed = ConfigSchema.safeParse(layer.config);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { keyPath, message } = describeIssue(issue, CONFIG_KEYS);
        issues.push(`${layer.file}: ${keyPath === '' ? '' : `${keyPath.slice(1)}: `}${message}`);
      }
      continue;
    }
    const defaults = parsed.data.defaults ?? {};
    const usedIds = new Set<string>();
    for (const [eventKey, entries] of Object.entries(parsed.data.hooks ?? {})) {
      const spec = findEvent(eventKey);
      if (spec === undefined || entries === undefined) continue;
      for (const [index, entry] of entries.entries()) {
        const key = `hooks.${eventKey}[${index}]`;
        const at = (msg: string) => `${layer.file}: ${key}${msg.startsWith('.') ? '' : ': '}${msg}`;
        if (entry.command === undefined && entry.builtin === undefined) {
          const problem = applyOverride(layer, spec.name, entry, hooks);
          if (problem !== undefined) issues.push(at(problem));
          // An override's own match/if could switch the hook off by a typo: checked like any other.
          else for (const hook of hooks.filter((h) => h.id === entry.id && h.event === spec.name)) issues.push(...checkMatching(hook, spec.tool).map(at));
          continue;
        }
        const resolved = await toRun(entry, spec.name, guardContext, issues, at);
        if (resolved === undefined) continue;
        const { run, defaultMatch } = resolved;
        const id = entry.id ?? uniqueId(defaultId(entry), usedIds, spec.name);
        usedIds.add(`${spec.name}:${id}`);
        const hook: ResolvedHook = {
          id,
          event: spec.name,
          source: { layer: layer.layer, file: layer.file, key },
          run,
          enabled: entry.enabled ?? true,
          priority: entry.priority ?? 0,
          timeoutMs: (entry.timeout ?? defaults.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
          // A guard that crashes on an intercepting event has not judged it: fail closed unless told otherwise.
          onFailure: entry.onFailure ?? defaults.onFailure ?? (entry.builtin !== undefined && spec.mode === 'intercept' ? 'block' : 'continue'),
          parallel: entry.parallel ?? false,
          env: { ...defaults.env, ...entry.env },
          cwd: entry.cwd === undefined ? projectDir : path.resolve(layer.dir, entry.cwd),
          ...matching(entry),
        };
        // A guard declares the tools it understands; an explicit `match` replaces that.
        if (hook.match === undefined && defaultMatch !== undefined) hook.match = defaultMatch;
        issues.push(...checkMatching(hook, spec.tool).map((m) => at(m)));
        hooks.push(hook);
      }
    }
  }

  for (const [index, spec] of (options.handlers ?? []).entries()) {
    const at = (msg: string) => `handlers[${index}] (${spec.id}): ${msg}`;
    const event = findEvent(spec.event);
    if (event === undefined) {
      issues.push(at(`unknown event "${spec.event}"`));
      continue;
    }
    const hook: ResolvedHook = {
      id: spec.id,
      event: event.name,
      source: { layer: 'api', key: `handlers[${index}]` },
      run: { kind: 'function', handler: spec.handler },
      enabled: spec.enabled ?? true,
      priority: spec.priority ?? 0,
      timeoutMs: (spec.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
      onFailure: spec.onFailure ?? 'continue',
      parallel: spec.parallel ?? false,
      env: {},
      cwd: projectDir,
      ...matching(spec),
    };
    issues.push(...checkMatching(hook, event.tool).map(at));
    hooks.push(hook);
  }

  if (issues.length > 0) {
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    const file = layers.find((l) => issues[0]!.startsWith(`${l.file}: `))?.file;
    throw new HooksError('CONFIG_INVALID', `${issues[0]}${more}`, file === undefined ? { issues } : { issues, file });
  }
  return { layers: layers.map(({ layer, file }) => ({ layer, file })), projectDir, hooks: order(hooks) };
}

/** The hooks of one event, in run order. */
export function hooksFor(config: ResolvedConfig, event: EventName): ResolvedHook[] {
  return config.hooks.filter((h) => h.event === event);
}

/** A builtin guard ready to run, from options its schema already parsed. */
export function builtinRun(guard: Guard<any>, options: unknown, audit: boolean, context: GuardContext): HookRun {
  const run: HookRun = { kind: 'builtin', guard: guard.id, audit, options, handler: guard.create(options, context) };
  if (guard.observe !== undefined) run.observer = guard.observe(options, context);
  return run;
}

// --- internal ---

type Entry = z.output<typeof HandlerSchema>;

/** Priority (higher first), then layer (user, project, local, api), then position. */
function order(hooks: ResolvedHook[]): ResolvedHook[] {
  const position = new Map(hooks.map((h, i) => [h, i]));
  return [...hooks].sort(
    (a, b) =>
      b.priority - a.priority ||
      LAYER_RANK[a.source.layer] - LAYER_RANK[b.source.layer] ||
      position.get(a)! - position.get(b)!,
  );
}

async function toRun(
  entry: Entry,
  event: EventName,
  guardContext: GuardContext,
  issues: string[],
  at: (m: string) => string,
): Promise<{ run: HookRun; defaultMatch?: string[] } | undefined> {
  if (entry.command !== undefined) {
    const run: HookRun = { kind: 'command', command: entry.command };
    if (entry.args !== undefined) run.args = entry.args;
    return { run };
  }
  const id = entry.builtin!;
  const guard = await loadGuard(id);
  if (guard === undefined) {
    const known = GUARD_IDS.length > 0 ? `; known: ${GUARD_IDS.join(', ')}` : '';
    issues.push(at(`builtin: unknown guard "${id}"${didYouMean(id, GUARD_IDS)}${known}`));
    return undefined;
  }
  if (!guard.events.includes(event)) {
    issues.push(at(`builtin: ${id} acts on ${guard.events.join(', ')}, not ${event}`));
    return undefined;
  }
  // `audit` belongs to the host (report "would have blocked", never block), not to the guard.
  const { audit, ...rest } = entry.options ?? {};
  if (audit !== undefined && typeof audit !== 'boolean') {
    issues.push(at('.options.audit: expected boolean'));
    return undefined;
  }
  const schema = await guard.options();
  const parsed = schema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const { keyPath, message } = describeIssue(issue, 'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null ? Object.keys(schema.shape) : []);
      issues.push(at(`.options${keyPath}: ${message}`));
    }
    return undefined;
  }
  const run = builtinRun(guard, parsed.data, audit === true, guardContext);
  return guard.match === undefined ? { run } : { run, defaultMatch: [...guard.match] };
}

function matching(entry: { match?: string | string[]; if?: Record<string, string | string[]> }): Pick<Matchable, 'match' | 'if'> {
  const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
  const out: Pick<Matchable, 'match' | 'if'> = {};
  if (entry.match !== undefined) out.match = list(entry.match);
  if (entry.if !== undefined) out.if = Object.fromEntries(Object.entries(entry.if).map(([k, v]) => [k, list(v)]));
  return out;
}

function checkMatching(hook: ResolvedHook, eventHasTool: boolean): string[] {
  const problems: string[] = [];
  if (hook.match !== undefined) {
    if (!eventHasTool) problems.push(`match: ${eventSpec(hook.event).name} has no tool to match`);
    else for (const pattern of hook.match) {
      const problem = checkToolPattern(pattern);
      if (problem !== undefined) problems.push(`match: ${problem}`);
    }
  }
  return problems;
}

/** A later layer's entry with an `id` and no command: changes that hook (e.g. `enabled: false`). */
function applyOverride(layer: ConfigLayer, event: EventName, entry: Entry, hooks: ResolvedHook[]): string | undefined {
  if (layer.layer !== 'local') return 'needs "command" or "builtin"';
  if (entry.id === undefined) return 'an override needs the "id" of the hook it changes';
  const targets = hooks.filter((h) => h.id === entry.id && h.event === event);
  if (targets.length === 0) return `override: no hook "${entry.id}" on ${event} in the earlier layers`;
  for (const hook of targets) {
    if (entry.enabled !== undefined) hook.enabled = entry.enabled;
    if (entry.priority !== undefined) hook.priority = entry.priority;
    if (entry.timeout !== undefined) hook.timeoutMs = entry.timeout * 1000;
    if (entry.onFailure !== undefined) hook.onFailure = entry.onFailure;
    if (entry.parallel !== undefined) hook.parallel = entry.parallel;
    if (entry.env !== undefined) hook.env = { ...hook.env, ...entry.env };
    if (entry.cwd !== undefined) hook.cwd = path.resolve(layer.dir, entry.cwd);
    Object.assign(hook, matching(entry));
  }
  return undefined;
}

/** A readable id from the command: the script's name (`guards/no_force_push.py` → `no_force_push`). */
function defaultId(entry: Entry): string {
  if (entry.builtin !== undefined) return entry.builtin;
  const words = [...entry.command!.trim().split(/\s+/), ...(entry.args ?? [])];
  const script = words.find((w) => w.includes('/') || /\.(sh|bash|py|js|mjs|cjs|ts|rb|pl)$/.test(w)) ?? words.slice(0, 2).join('-');
  const base = path.basename(script).replace(/\.[^.]+$/, '');
  return base.replace(/[^\w.:@/-]+/g, '-') || 'hook';
}

function uniqueId(base: string, used: Set<string>, event: EventName): string {
  let id = base;
  for (let n = 2; used.has(`${event}:${id}`); n++) id = `${base}-${n}`;
  return id;
}

const EVENT_KEYS = EVENTS.flatMap((e) => [e.name, e.cli, e.claude]);


/** A zod issue as a key path (`.hooks.preToolUse[2].timeout`) and a message (`expected number, received string`). */
function describeIssue(issue: z.core.$ZodIssue, knownKeys: readonly string[]): { keyPath: string; message: string } {
  const parts: PropertyKey[] = [...issue.path];
  let message = issue.message.replace(/^Invalid (input|option): /, '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    parts.push(key);
    if (parts.length === 2 && parts[0] === 'hooks') message = `unknown event${didYouMean(key, EVENT_KEYS)}`;
    else if (parts.length === 1 && findEvent(key) !== undefined) message = 'unknown key (events go under "hooks")';
    else message = `unknown key${didYouMean(key, knownKeys)}`;
  }
  const keyPath = parts.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return { keyPath, message };
}
