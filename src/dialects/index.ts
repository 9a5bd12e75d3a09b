// The dialects the runner speaks, by name, and detection from a payload.
import { HooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { claudeCode } from './claude-code.js';
import { augment, factory, qwenCode } from './claude-like.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import type { Dialect } from './dialect.js';
import { dockerMcp } from './docker-mcp.js';
import { gemini } from './gemini.js';
import { goose } from './goose.js';
import { kiro } from './kiro.js';
import { windsurf } from './windsurf.js';
import { native } from './native.js';

export type { Answer, Dialect } from './dialect.js';

/**
 * In detection order: the most specific first, native (the fallback) last. Codex, Gemini and Copilot's
 * PascalCase mode all send Claude-like payloads, so each is checked for its own marks before
 * claude-code claims anything with a PascalCase hook_event_name.
 */
const DIALECTS: readonly Dialect[] = [dockerMcp, windsurf, cursor, augment, codex, qwenCode, factory, gemini, copilot, kiro, goose, claudeCode, native];

export const DIALECT_NAMES: readonly string[] = DIALECTS.map((d) => d.name);

/** The dialect with this name; throws `DIALECT_UNKNOWN` with the known names. */
export function getDialect(name: string): Dialect {
  const dialect = DIALECTS.find((d) => d.name === name);
  if (dialect === undefined) {
    throw new HooksError('DIALECT_UNKNOWN', `unknown dialect "${name}"${didYouMean(name, DIALECT_NAMES)}; dialects: ${DIALECT_NAMES.join(', ')}`);
  }
  return dialect;
}

/** The dialect a payload is written in. */
export function detectDialect(raw: unknown): Dialect {
  return DIALECTS.find((d) => d.detect(raw)) ?? native;
}
