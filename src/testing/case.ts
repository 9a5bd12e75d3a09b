// The test case format (zod): one event, where its config is, and what the combined decision must be.
import { z } from 'zod';

export const OUTCOMES = ['continue', 'allow', 'ask', 'block', 'modify', 'halt'] as const;

/** A substring, or `/regex/flags`. Never empty: an empty text is in every text, so it would check nothing. */
const TextMatch = z.string().min(1, 'an empty text matches any text, so it checks nothing: write the text to look for, or null for none').superRefine((text, ctx) => {
  const re = regexParts(text);
  if (re === undefined) return;
  try {
    new RegExp(re.source, re.flags);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `bad regular expression: ${(error as Error).message}` });
  }
});

const FailedEntry = z.union([z.string().min(1), z.strictObject({ id: z.string().min(1), kind: z.string().min(1).optional() })]);

const EXPECTATION_SHAPE = {
  decision: z.enum(OUTCOMES).optional(),
  reason: TextMatch.nullable().optional(),
  /** How `updatedInput`, `updatedOutput` and `prompt` compare: `exact` (default) or `partial`. */
  match: z.enum(['exact', 'partial']).optional(),
  updatedInput: z.record(z.string(), z.unknown()).nullable().optional(),
  prompt: z.string().nullable().optional(),
  updatedOutput: z.unknown().optional(),
  additionalContext: TextMatch.nullable().optional(),
  ran: z.array(z.string().min(1)).optional(),
  failed: z.array(FailedEntry).optional(),
  skipped: z.array(z.string().min(1)).optional(),
};

/** The keys that check something (`match` only says how). */
export const EXPECTATION_CHECKS = Object.keys(EXPECTATION_SHAPE).filter((k) => k !== 'match');

/** An expectation that checks nothing would pass whatever happened: at least one key besides `match`. */
export const ExpectationSchema = z.strictObject(EXPECTATION_SHAPE).refine((e) => EXPECTATION_CHECKS.some((k) => e[k as keyof typeof e] !== undefined), {
  message: `expects nothing, so it would pass whatever happened: name at least one of ${EXPECTATION_CHECKS.join(', ')}`,
});

/** `{"sample": "pre-tool-use", "tool": "exec", "input": {...}}`: a generated event. */
export const SampleRefSchema = z.strictObject({
  sample: z.string().min(1),
  tool: z.string().min(1).optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});

/** `{"file": "../events/push.json"}`: an event payload kept in its own file, relative to the case file. */
export const FileRefSchema = z.strictObject({ file: z.string().min(1) });

const env = z.record(z.string(), z.string());

export const CaseSchema = z.strictObject({
  name: z.string().min(1),
  // Checked further by its form (sample, file or inline) in load.ts, for precise key paths.
  event: z.record(z.string(), z.unknown()),
  /** File and inline events: the agent whose payload it is (default: detected from the payload, as `hooks run` does). */
  dialect: z.string().min(1).optional(),
  /** File and inline events: the event, when the payload does not name it (as `hooks run <event>`). */
  eventName: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  hook: z.string().min(1).optional(),
  env: env.optional(),
  /**
   * The prompt hooks' model answers and the mcp_tool hooks' tool answers, by hook id: the answer's text, or an
   * object (written as its JSON). hooks test never asks a model nor starts an MCP server: such a hook with no
   * answer here fails.
   */
  judge: z.record(z.string().min(1), z.union([z.string(), z.record(z.string(), z.unknown())])).optional(),
  expect: ExpectationSchema.optional(),
});

/** `{"config": ..., "env": ..., "cases": [...]}`: defaults for every case of the file. */
export const CaseFileSchema = z.strictObject({
  config: z.string().min(1).optional(),
  env: env.optional(),
  cases: z.array(z.unknown()),
});

export type Expectation = z.output<typeof ExpectationSchema>;
export type SampleRef = z.output<typeof SampleRefSchema>;

export type EventSource =
  | { kind: 'sample'; sample: string; tool?: string; input?: Record<string, unknown>; fields?: Record<string, unknown> }
  | { kind: 'payload'; payload: Record<string, unknown>; dialect?: string; eventName?: string };

/** One case, validated, with where it came from. */
export interface TestCase {
  name: string;
  /** Absolute path of the case file. */
  file: string;
  /** The case's key path in its file: `cases[2]`, `[2]`, or `` for a one-case file. */
  key: string;
  event: EventSource;
  /** Absolute path of the config file, when the case (or its file, or --config) names one. */
  config?: string;
  hook?: string;
  env: Record<string, string>;
  /** The prompt hooks' recorded model answers (text), by hook id. */
  judge?: Record<string, string>;
  expect?: Expectation;
  /** Why the case cannot test what it says (a sample input field its tool does not have): it fails with this, unrun. */
  invalid?: string;
  /** The case as read, so `--update` can write its expectation back in place. */
  raw: Record<string, unknown>;
}

/** `/source/flags` as its parts, or undefined for a plain substring. */
export function regexParts(text: string): { source: string; flags: string } | undefined {
  const m = /^\/(.+)\/([dgimsuvy]*)$/s.exec(text);
  return m === null ? undefined : { source: m[1]!, flags: m[2]! };
}
