// Reading Anthropic Messages requests recorded by the fake server: what went back to the model.
import type { RecordedRequest } from './model-server.js';

export interface ToolResult {
  tool_use_id: string;
  is_error?: boolean;
  /** The result's text (string content, or the text blocks joined). */
  text: string;
}

interface Block {
  type?: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
  tool_use_id?: string;
}

interface Message {
  role: string;
  content: string | Block[];
}

function messages(req: RecordedRequest): Message[] {
  return (req.body.messages as Message[] | undefined) ?? [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b: Block) => (typeof b === 'string' ? b : (b.text ?? textOf(b.content)))).join('\n');
  return '';
}

/** Every tool_result block the request carries (all turns of the conversation). */
export function toolResults(req: RecordedRequest): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of messages(req)) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_result') out.push({ tool_use_id: b.tool_use_id ?? '', ...(b.is_error === undefined ? {} : { is_error: b.is_error }), text: textOf(b.content) });
    }
  }
  return out;
}

/** The text of every user-role message (prompts, system reminders, hook feedback), in order. */
export function userTexts(req: RecordedRequest): string[] {
  return messages(req)
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n')))
    .filter((t) => t !== '');
}

/** The whole request (system prompt, messages, tools) as one string, for "does the model see X anywhere". */
export function everything(req: RecordedRequest): string {
  return JSON.stringify(req.body);
}
