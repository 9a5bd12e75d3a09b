/**
 * The libraries the bundle carries beside it (src/vendor/load.ts), and their files in `dist/bundle/vendor/`.
 * Brotli-compressed (`.br`, scripts/bundle.mjs) where only rare runs load one: the MCP SDK (`hooks mcp`,
 * `mcp_tool` hooks), OpenTelemetry (telemetry configured), cosmiconfig (a YAML config, or a JSON one that does
 * not parse). zod is not: every run on a config the cache has not seen, and every locked run, checks it.
 */
export const VENDORED = {
  zod: 'zod.cjs',
  cosmiconfig: 'cosmiconfig.cjs.br',
  'mcp-sdk': 'mcp-sdk.cjs.br',
  otel: 'otel.cjs.br',
} as const;
export type VendoredName = keyof typeof VENDORED;
