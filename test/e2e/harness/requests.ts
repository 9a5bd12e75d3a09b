// What went back to the model, per wire API: the tool outputs an agent sent in a request.
import type { RecordedRequest, WireApi } from './model-server.js';
import { toolResults } from './anthropic.js';

export interface ToolOutput {
  /** The output as the model reads it (JSON-encoded when the API sends an object). */
  text: string;
  /** The agent marked it as an error (Anthropic is_error, Gemini response.error). */
  error: boolean;
}

type Json = Record<string, unknown>;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v: Json | string) => (typeof v === 'string' ? v : typeof v.text === 'string' ? v.text : JSON.stringify(v))).join('\n');
  return JSON.stringify(value);
}

/** Every tool output carried by the request (the whole conversation so far), in order. */
export function toolOutputs(api: WireApi, req: RecordedRequest): ToolOutput[] {
  const body = req.body;
  switch (api) {
    case 'anthropic':
      return toolResults(req).map((r) => ({ text: r.text, error: r.is_error === true }));
    case 'responses':
      return ((body.input as Json[] | undefined) ?? [])
        .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
        .map((item) => ({ text: asText(item.output), error: false }));
    case 'gemini': {
      const out: ToolOutput[] = [];
      for (const content of (body.contents as Json[] | undefined) ?? []) {
        for (const part of (content.parts as Json[] | undefined) ?? []) {
          const fr = part.functionResponse as { response?: Json } | undefined;
          if (fr === undefined) continue;
          const response = fr.response ?? {};
          out.push({ text: asText(response.error ?? response.output ?? response), error: response.error !== undefined });
        }
      }
      return out;
    }
    case 'chat':
      return ((body.messages as Json[] | undefined) ?? []).filter((m) => m.role === 'tool').map((m) => ({ text: asText(m.content), error: false }));
  }
}

/** The whole request body as one string: "does the model see X anywhere". */
export function everything(req: RecordedRequest): string {
  return JSON.stringify(req.body);
}
