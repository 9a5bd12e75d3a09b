// The conversation a Stop judge reads. Claude Code 2.1.332 (read in its bundle) puts the session's messages
// before a Stop/SubagentStop prompt hook's question ("Based on the conversation transcript above, ..."),
// cut from the front to fit the judge's context with a note saying so. The runner reads them from the
// event's `transcript_path` (Claude Code's JSONL): user and assistant entries, as text, tool calls and
// results written out, the last TRANSCRIPT_LIMIT bytes only. A file that is not a regular `.jsonl` file (or is
// a link) is no transcript; nothing here throws.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../json.js';

/** Bytes of the transcript's end that are read. */
export const TRANSCRIPT_LIMIT = 200 * 1024;
/** Characters of one tool input or result written out. */
const PART_CHARS = 2000;

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** The transcript as alternating turns (user first), or undefined when there is none to read. */
export function readTranscript(file: string | undefined): { turns: Turn[]; cut: boolean } | undefined {
  if (file === undefined || !path.isAbsolute(file) || !file.endsWith('.jsonl')) return undefined;
  const tail = readTail(file);
  if (tail === undefined) return undefined;
  const lines = tail.text.split('\n');
  // A cut start leaves a partial first line.
  if (tail.cut) lines.shift();
  const turns: Turn[] = [];
  for (const line of lines) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry) || (entry.type !== 'user' && entry.type !== 'assistant') || entry.isMeta === true) continue;
    const message = isRecord(entry.message) ? entry.message : undefined;
    const text = asText(message?.content);
    if (text === '') continue;
    const role = entry.type;
    const last = turns.at(-1);
    if (last?.role === role) last.content += `\n\n${text}`;
    else turns.push({ role, content: text });
  }
  if (turns[0]?.role === 'assistant') turns.shift();
  return { turns, cut: tail.cut };
}

/** The note Claude Code puts first when it cut the transcript. */
export function cutNote(): string {
  return `[Earlier conversation truncated to fit the hook evaluator's context window. Evaluate the condition against the recent transcript below; if the required evidence may be in the omitted prefix, return {"ok": false, "reason": "insufficient evidence in transcript"}.]`;
}

// --- internal ---

function asText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((block) => {
      if (!isRecord(block)) return [];
      if (block.type === 'text' && typeof block.text === 'string') return [block.text];
      if (block.type === 'tool_use') return [`[tool call ${String(block.name)}: ${clip(JSON.stringify(block.input ?? {}))}]`];
      if (block.type === 'tool_result') return [`[tool result${block.is_error === true ? ' (error)' : ''}: ${clip(asText(block.content) || (typeof block.content === 'string' ? block.content : ''))}]`];
      return [];
    })
    .join('\n');
}

function clip(text: string): string {
  return text.length > PART_CHARS ? `${text.slice(0, PART_CHARS)}…` : text;
}

function readTail(file: string): { text: string; cut: boolean } | undefined {
  let fd: number | undefined;
  try {
    // Not through a link at the name: the agent (same user) could swap its transcript for one to another file.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const start = Math.max(0, stats.size - TRANSCRIPT_LIMIT);
    const bytes = Buffer.alloc(stats.size - start);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return { text: bytes.subarray(0, got).toString('utf8'), cut: start > 0 };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
