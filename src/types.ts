// The vocabulary of the contract: events, hooks, replies, decisions. Types only, no code.
import type { ZodType } from 'zod';

/** Config-key spelling of an event the catalog knows. */
export type KnownEventName =
  | 'preToolUse'
  | 'postToolUse'
  | 'userPromptSubmit'
  | 'stop'
  | 'subagentStop'
  | 'preCompact'
  | 'sessionStart'
  | 'sessionEnd'
  | 'notification'
  | 'postToolUseFailure'
  | 'permissionRequest'
  | 'permissionDenied'
  | 'postToolBatch'
  | 'postCompact'
  | 'subagentStart'
  | 'setup'
  | 'userPromptExpansion'
  | 'stopFailure'
  | 'teammateIdle'
  | 'taskCreated'
  | 'taskCompleted'
  | 'configChange'
  | 'cwdChanged'
  | 'fileChanged'
  | 'worktreeCreate'
  | 'worktreeRemove'
  | 'instructionsLoaded'
  | 'directoryAdded'
  | 'messageDisplay'
  | 'elicitation'
  | 'elicitationResult'
  | 'preModelSwitch'
  | 'postModelSwitch'
  | 'preSessionSwitch'
  | 'preCompactSummary'
  | 'agentStart'
  | 'agentEnd'
  | 'turnStart'
  | 'turnEnd'
  | 'beforeModel'
  | 'afterModel'
  | 'beforeToolSelection';

/**
 * Config-key spelling of an event: the one name used inside the library. An event the catalog does not
 * know (a newer agent's) keeps its own camelCase name and runs as a plain observe event.
 */
export type EventName = KnownEventName | (string & { readonly unknownEvent?: never });

/**
 * The payload every hook receives on stdin, in Claude Code's format whatever agent called the
 * runner (`session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`, ...).
 */
export interface HookInput {
  hook_event_name: string;
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  prompt?: string;
  [field: string]: unknown;
}

/** One event as the engine sees it, after the dialect has normalized it. */
export interface HookEvent {
  name: EventName;
  payload: HookInput;
  /** Raw and canonical tool name, on tool events. */
  tool?: { name: string; canonical: string };
}

/** What a hook may answer, as JSON on stdout or as the return value of an in-process handler. */
export interface ReplyObject {
  decision?: 'allow' | 'block' | 'modify' | 'ask' | 'continue';
  reason?: string;
  /** Replaces the whole tool input (preToolUse). */
  updatedInput?: Record<string, unknown>;
  /** Replaces the prompt (userPromptSubmit). */
  prompt?: string;
  /** Replaces the tool output (postToolUse). */
  updatedOutput?: unknown;
  additionalContext?: string;
  /** Shown to the user (Claude Code's `systemMessage`). */
  systemMessage?: string;
  /** Keys for the session's metadata bag, which later hooks and events receive as `agent_hooks_metadata`; `null` removes a key. */
  metadata?: Record<string, unknown>;
  /** Changes the model request (beforeModel, beforeToolSelection): see events/model-request.ts. */
  updatedRequest?: Record<string, unknown>;
  /** Replaces the model's answer (afterModel): `{ "text": ... }`. */
  updatedResponse?: Record<string, unknown>;
}

/** What an in-process handler (a builtin guard or an API handler) gets beside the payload. */
export interface HandlerContext {
  event: EventName;
  /** Canonical tool name on tool events. */
  tool?: string;
  /** Aborted when the hook times out or the run is cancelled. */
  signal: AbortSignal;
}

/** An in-process hook: returns a reply (or nothing, meaning continue); a throw is a failure. */
export type HandlerFn = (
  input: HookInput,
  context: HandlerContext,
) => ReplyObject | void | undefined | Promise<ReplyObject | void | undefined>;

/** A first-party guard: a factory for an in-process handler, plus what it applies to. */
export interface Guard<Options = Record<string, unknown>> {
  id: string;
  /** One line for `hooks list` and docs. */
  summary: string;
  /** Events the guard acts on; configured elsewhere it is a config error. */
  events: EventName[];
  /** Canonical tool names it looks at by default (picomatch globs); all tools when absent. */
  match?: string[];
  /**
   * Loads the schema of the config entry's `options` (errors carry the key path). A loader, so the
   * guard's runtime never pulls zod in: a run from a cached, already-checked config skips it.
   */
  options(): Promise<ZodType<Options>>;
  /** Builds the handler once per run. Guards never implement `audit` mode: the host does. */
  create(options: Options, context?: GuardContext): HandlerFn;
  /**
   * For guards that watch whole runs (audit-log): called once the decision is made, with every
   * hook's result. A throw is reported as a warning and never changes the decision.
   */
  observe?(options: Options, context: GuardContext): (run: ObservedRun) => void | Promise<void>;
}

/** What a guard knows about where it runs. */
export interface GuardContext {
  /** The project folder (where the project config is, else the working directory). */
  projectDir: string;
  /** The folder of the project layer's config, when one was found or given (never the working directory). */
  configDir?: string;
  env: NodeJS.ProcessEnv;
}

/** One finished run, as an observing guard sees it. */
export interface ObservedRun {
  event: HookEvent;
  /** The combined decision: continue | allow | ask | block | modify | halt. */
  decision: string;
  reason?: string;
  decidedBy?: string;
  /** Wall time of the whole run. */
  ms: number;
  hooks: {
    id: string;
    source: { layer: string; file?: string; key: string };
    outcome: string;
    ms: number;
    reason?: string;
    failure?: { kind: string; message: string };
    /** Shadow (audit) mode: what the hook answered, which was reported and not applied. */
    wouldHave?: { outcome: string; reason?: string };
    /** A prompt hook's judge: provider, model, verdict, how it was had (model, cache, recorded), latency and tokens. */
    judge?: { provider: string; model: string; verdict?: 'ok' | 'not ok'; via: 'model' | 'cache' | 'recorded'; ms: number; inputTokens?: number; outputTokens?: number };
  }[];
}
