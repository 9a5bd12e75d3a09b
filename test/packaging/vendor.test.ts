// The libraries as the package carries them (dist/bundle/vendor/, scripts/bundle.mjs; loaded as the CLI loads them,
// test/vendor/), against the same libraries from npm. cosmiconfig: its two loaders only. The MCP SDK: built without
// ajv, its default JSON Schema validator (withoutAjv). A real server process and the bundled Client show that
// a tool call answers as with the SDK from npm (the validator is never consulted on the paths agent-hooks
// takes), that a path which would consult it fails loudly, and that src/ takes none of those paths.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client as NpmClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as NpmStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, runCli, sample, tmpProject } from '../helpers.js';
import { CLI, vendored } from '../vendor/built.js';

type Loaders = Record<'.json' | '.yaml', (file: string, text: string) => unknown>;

describe("the bundled cosmiconfig: the loaders src/config/load.ts takes, cosmiconfig's own", () => {
  const bundled = (vendored('cosmiconfig') as { defaultLoaders: Loaders }).defaultLoaders;
  let npm: Loaders;
  beforeAll(async () => {
    npm = ((await import('cosmiconfig')) as unknown as { defaultLoaders: Loaders }).defaultLoaders;
  });
  const outcome = (load: () => unknown) => {
    try {
      return { value: load() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  it.each([
    ['.yaml', 'hooks:\n  stop:\n    - command: ./a.sh\n      timeout: 5\n'],
    ['.yaml', 'hooks: [unclosed\n'],
    ['.json', '{"hooks": {"stop": [{"command": "./a.sh"}]}}'],
    ['.json', '{\n  "hooks": {,\n}'],
  ] as const)('%s %j: the same value, or the same message', (ext, text) => {
    const ours = outcome(() => bundled[ext]('/p/.hooksrc', text));
    expect(ours).toEqual(outcome(() => npm[ext]('/p/.hooksrc', text)));
    // The heading names the file; the code frame under it depends on the Node line (Node 22 and later put the line
    // and column in JSON.parse's message, and parse-json then draws no frame) and on colour support (CI=true).
    if ('error' in ours) expect(String(ours.error)).toMatch(/^(JSON|YAML) Error in \/p\/\.hooksrc: ?\n/);
  });
});

type Sdk = typeof import('../../src/mcp/sdk.js');

// A server (the bundled Server, low level) whose tool declares an outputSchema its answer does not meet:
// a validating client refuses the answer, a passing one hands it on.
const SERVER = `const sdk = require(${JSON.stringify(CLI)}).vendored('mcp-sdk');
const server = new sdk.Server({ name: 'odd', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: [{ name: 'count', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }] }));
server.setRequestHandler(sdk.CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'n is words' }], structuredContent: { n: 'not a number' } }));
server.connect(new sdk.StdioServerTransport());
`;

let sdk: Sdk;
let server: string;
const clients: { close(): Promise<void> }[] = [];

beforeAll(() => {
  // CLI-level: the bundle must be there (npm run build).
  sdk = vendored('mcp-sdk') as Sdk;
  server = path.join(tmpProject(), 'server.cjs');
  writeFileSync(server, SERVER);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

async function connect(client: InstanceType<Sdk['Client']>, transport: InstanceType<Sdk['StdioClientTransport']>) {
  clients.push(client);
  await client.connect(transport);
  return client;
}

describe('the bundled MCP SDK, without ajv', () => {
  it('calls a tool as the SDK from npm does: the answer is passed on as the server sent it', async () => {
    const bundled = await connect(new sdk.Client({ name: 't', version: '1' }), new sdk.StdioClientTransport({ command: process.execPath, args: [server] }));
    const npm = await connect(new NpmClient({ name: 't', version: '1' }) as never, new NpmStdioClientTransport({ command: process.execPath, args: [server] }) as never);
    const fromBundle = await bundled.callTool({ name: 'count', arguments: {} });
    expect(fromBundle.structuredContent).toEqual({ n: 'not a number' });
    expect(await npm.callTool({ name: 'count', arguments: {} })).toEqual(fromBundle);
  }, 60_000);

  it('a path that would validate fails with a line naming the cause, where the npm SDK validates', async () => {
    const bundled = await connect(new sdk.Client({ name: 't', version: '1' }), new sdk.StdioClientTransport({ command: process.execPath, args: [server] }));
    await expect(bundled.listTools()).rejects.toThrow(/without a JSON Schema validator \(ajv\).*scripts\/bundle\.mjs/);
    const npm = await connect(new NpmClient({ name: 't', version: '1' }) as never, new NpmStdioClientTransport({ command: process.execPath, args: [server] }) as never);
    await npm.listTools();
    await expect(npm.callTool({ name: 'count', arguments: {} })).rejects.toThrow(/does not match the tool's output schema/);
  }, 60_000);

  it("src/ takes none of the paths that consult the SDK's validator", () => {
    // Client.listTools compiles outputSchemas, Server.elicitInput checks the answer, and a jsonSchemaValidator
    // of our own would need a validator bundled: each means revisiting withoutAjv in scripts/bundle.mjs.
    const hits: string[] = [];
    const src = path.join(ROOT, 'src');
    for (const rel of readdirSync(src, { recursive: true }) as string[]) {
      if (!rel.endsWith('.ts')) continue;
      const text = readFileSync(path.join(src, rel), 'utf8');
      for (const m of text.matchAll(/\.listTools\(|\.elicitInput\(|jsonSchemaValidator/g)) hits.push(`src/${rel}: ${m[0]}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('the CLI with both: zod for the config and the MCP SDK on it', () => {
  it('hooks run with an mcp_tool hook: the SDK, on the zod the config was checked with, calls a real server, which blocks and allows', () => {
    // A project the cache has not seen: the run checks the config with vendor/zod.cjs, then the SDK takes the same module.
    const config = {
      mcpServers: { guard: { command: process.execPath, args: [path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs')] } },
      hooks: { preToolUse: [{ id: 'guard-check', type: 'mcp_tool', server: 'guard', tool: 'check', input: { command: '${tool_input.command}' }, onFailure: 'block' }] },
    };
    const project = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
    const env = isolatedEnv(project);
    const run = (command: string) => runCli(['run', 'pre-tool-use'], { cwd: project, env, input: JSON.stringify({ ...sample('pre-tool-use.ls'), cwd: project, tool_input: { command } }) });
    const rm = run('rm -rf build');
    expect(rm.code, rm.stderr).toBe(2);
    expect(JSON.parse(rm.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard server: rm -rf build deletes files') });
    const ls = run('ls');
    expect(ls.code, ls.stderr).toBe(0);
  }, 120_000);
});
