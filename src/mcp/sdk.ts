/**
 * The one module that imports the official MCP SDK (@modelcontextprotocol/sdk). It is bundled into a
 * file of its own (dist/bundle/vendor/mcp-sdk.cjs.br, scripts/bundle.mjs) and loaded only when a run
 * speaks MCP (`hooks mcp`, an `mcp_tool` hook): the SDK and what it pulls in (ajv, its zod schemas)
 * cost nothing to the `hooks run` every tool call pays for. Import this module with `await import()`.
 *
 * Why the SDK and not our own JSON-RPC: it is the reference implementation of the protocol's framing,
 * capability negotiation and schemas, and follows the spec's revisions; a gateway that sits between a
 * client and a server must speak exactly what both speak.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  ToolListChangedNotificationSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
export type { Tool, CallToolResult, CallToolRequest, ListToolsResult, Implementation } from '@modelcontextprotocol/sdk/types.js';
// What the gateway (`hooks mcp`, src/mcp/gateway/) forwards besides tools: resources, prompts, logs.
export {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  PromptListChangedNotificationSchema,
  LoggingMessageNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  SetLevelRequestSchema,
  CompleteRequestSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
