// The Docker MCP gateway's own payload, mirrored at the top level of what hooks get (`method`/`params`
// before the call, the `CallToolResult` keys after it), so the gateway's own interceptor scripts
// (`jq '.content[].text |= ...'`) run unchanged. After a rewrite the mirror must show the new result:
// a later hook judges what will really be sent.
//
// Gemini's model events likewise keep Gemini's own `llm_request` / `llm_response` beside
// `model_request` / `model_response`; they follow a rewrite the same way.
import { MODEL_REQUEST_KEY, MODEL_RESPONSE_KEY, toGeminiRequest, toGeminiResponse } from '../events/model-request.js';
import { isRecord } from '../json.js';
import type { HookEvent } from '../types.js';
import { callToolResult, RESULT_KEYS } from './mcp-result.js';
import { originOf } from './origin.js';

/** The origin `mode` of an event whose payload mirrors the gateway's. */
export const GATEWAY_MIRROR = 'gateway-mirror';

/** The origin `mode` of a Gemini model event. */
export const GEMINI_MODEL = 'gemini-model';

/** The event with its mirrored fields copied again from the canonical ones; other events as they are. */
export function refreshMirror(event: HookEvent): HookEvent {
  const mode = originOf(event)?.mode;
  if (mode === GEMINI_MODEL) {
    const payload = { ...event.payload };
    const request = payload[MODEL_REQUEST_KEY];
    if (isRecord(request)) payload.llm_request = { ...(isRecord(payload.llm_request) ? payload.llm_request : {}), ...toGeminiRequest(request, { model: true, messages: true, parameters: true }) };
    const response = payload[MODEL_RESPONSE_KEY];
    if (isRecord(response) && payload.llm_response !== undefined) payload.llm_response = { ...(isRecord(payload.llm_response) ? payload.llm_response : {}), ...toGeminiResponse(response) };
    return { ...event, payload };
  }
  if (event.name !== 'postToolUse' || mode !== GATEWAY_MIRROR) return event;
  const payload = { ...event.payload };
  for (const key of RESULT_KEYS) delete payload[key];
  for (const [key, value] of Object.entries(callToolResult(payload.tool_response))) if (RESULT_KEYS.has(key)) payload[key] = value;
  return { ...event, payload };
}
