// The dialects the runner speaks, by name, and detection from a payload.
import { HooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { claudeCode } from './claude-code.js';
import type { Dialect } from './dialect.js';
import { native } from './native.js';

export type { Answer, Dialect } from './dialect.js';

/** In detection order: the most specific first, native (the fallback) last. */
const DIALECTS: readonly Dialect[] = [claudeCode, native];

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
