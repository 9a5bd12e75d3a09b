// MCP `CallToolResult`s as hook replies: the Docker MCP gateway's own interceptor scripts print one on
// stdout (after: the rewritten result; before: the answer to the call instead of the tool). Read here so
// such an edit is never taken for "continue" and dropped.
import { isRecord, type Json } from '../json.js';

/** The keys of a `CallToolResult`. */
export const RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'isError', 'structuredContent', '_meta']);

/** Words of our reply vocabulary: a reply that uses any of them is a reply, not a bare result. */
const REPLY_KEYS = ['decision', 'permission', 'continue', 'updatedInput', 'updatedOutput', 'hookSpecificOutput', 'reason', 'additionalContext', 'prompt'];

/** True for a `CallToolResult`-shaped value: `content` is an array of typed blocks. */
export function isCallToolResult(value: unknown): value is Json & { content: Json[] } {
  return isRecord(value) && Array.isArray(value.content) && value.content.every((c) => isRecord(c) && typeof c.type === 'string');
}

/**
 * The `CallToolResult` a reply is, when it is one and says nothing in our vocabulary. Only the result's
 * own keys are kept: a script that edits the payload it got (`jq '.content[].text |= ...'`) prints the
 * payload's other fields too.
 */
export function resultReply(reply: Json): Json | undefined {
  if (!isCallToolResult(reply) || REPLY_KEYS.some((k) => k in reply)) return undefined;
  return Object.fromEntries(Object.entries(reply).filter(([k]) => RESULT_KEYS.has(k)));
}

/** The text of a result's text blocks, for agents that take a reason rather than a result. */
export function resultText(result: Json): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : isRecord(c) ? `[${String(c.type)} content]` : ''))
    .filter((t) => t !== '')
    .join('\n');
  return text === '' ? 'a hook answered this call itself; the tool did not run' : text;
}

/** A value as a `CallToolResult`: results pass as they are, anything else becomes one text block. */
export function callToolResult(value: unknown): Json {
  if (isCallToolResult(value)) return value;
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) ?? '' }] };
}
