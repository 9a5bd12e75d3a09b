// The library API: the same engine as `hooks run`, for agents that run the config in-process.
export { createRunner, loadConfig, runnerFor } from './engine.js';
export type { LoadConfigOptions, RunOptions, Runner } from './engine.js';
export { defineConfig } from './config/schema.js';
export type { HandlerConfig, HooksConfig } from './config/schema.js';
export type { HandlerSpec, HookSource, ResolvedConfig, ResolvedHook } from './config/resolve.js';
export type { Decision, HookResult, Outcome } from './decide/combine.js';
export type { Failure, FailureKind, Reply } from './reply/interpret.js';
export { EVENTS, findEvent } from './events/catalog.js';
export { modelEvent, MODEL_REQUEST_KEY, MODEL_RESPONSE_KEY } from './events/model-request.js';
export type { ModelMessage, ModelRequest, ModelResponse, ToolDeclaration } from './events/model-request.js';
export type { EventSpec } from './events/catalog.js';
export { canonicalTool, CANONICAL_TOOLS, TOOL_GROUPS } from './events/tools.js';
export { detectDialect, getDialect, DIALECT_NAMES } from './dialects/index.js';
export { eventFromClaudePayload as eventFromPayload } from './dialects/payload.js';
export type { Answer, Dialect } from './dialects/index.js';
export { HooksError } from './errors.js';
export type { HooksErrorCode } from './errors.js';
export type * from './types.js';
