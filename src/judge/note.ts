// A prompt hook's judge note on one line, for `--verbose` and `hooks explain`.
import type { JudgeNote } from './judge.js';

/** e.g. `judge anthropic claude-haiku-4-5: not ok (model, 412ms, 310 in / 14 out tokens)`. */
export function judgeLine(note: JudgeNote): string {
  const tokens = note.inputTokens === undefined && note.outputTokens === undefined ? '' : `, ${note.inputTokens ?? '?'} in / ${note.outputTokens ?? '?'} out tokens`;
  const turns = note.turns === undefined ? '' : `, ${note.turns} turn${note.turns === 1 ? '' : 's'}`;
  const how = note.via === 'model' ? `model, ${note.ms}ms${turns}${tokens}` : note.via;
  return `judge ${note.provider} ${note.model}: ${note.verdict ?? 'no verdict'} (${how})`;
}
