// `hooks mcp -- <server command...>`: agent-hooks as an MCP gateway between a client and one server.
import path from 'node:path';
import { createRunner } from '../../engine.js';
import { HooksError } from '../../errors.js';
import { memoryStore } from '../../metadata/store.js';
import { VERSION } from '../../version.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: `Usage: hooks mcp [--name <server>] [--config <path>] -- <server command> [args...]
       hooks mcp [--name <server>] [--config <path>] --url <http://...>

Runs as an MCP server (stdio) in front of another MCP server, and runs the project's hooks on what
passes: tools/list through beforeToolSelection (schema-pin withholds a rug-pulled tool), tools/call
through preToolUse (block, rewrite the arguments) and postToolUse (rewrite or redact the result).
Resources, prompts, completions and logs pass through unjudged.

Options:
  --name <server>   the server's name as the client knows it: hooks see mcp__<server>__<tool>
                    (Claude Code's spelling; a match may also use the bare tool name).
                    Default: the command's file name
  --url <url>       the upstream server speaks Streamable HTTP at this URL instead of stdio
  --config <path>   use this file as the project config instead of searching from here

stdout is the MCP channel; every block, withheld tool and hook log goes to stderr, one line each.

Examples:
  npx agent-hooks mcp --name fs -- npx -y @modelcontextprotocol/server-filesystem .
  npx agent-hooks install claude-code --mcp fs     (wraps the "fs" entry of .mcp.json)
`,
  args: { positional: [], rest: 'command', flags: { name: 'string', url: 'string', config: 'string' } },
  async run(args, ctx) {
    const url = typeof args.flags.url === 'string' ? args.flags.url : undefined;
    const argv = args.rest;
    if (url === undefined && argv.length === 0) throw new HooksError('USAGE', 'hooks mcp needs the server to put itself in front of: hooks mcp -- <server command...> (or --url <http://...>)');
    if (url !== undefined && argv.length > 0) throw new HooksError('USAGE', 'hooks mcp takes either a server command after -- or --url, not both');
    let upstreamUrl: URL | undefined;
    if (url !== undefined) {
      upstreamUrl = URL.canParse(url) ? new URL(url) : undefined;
      if (upstreamUrl === undefined || !['http:', 'https:'].includes(upstreamUrl.protocol)) throw new HooksError('USAGE', `--url: "${url}" is not an http:// or https:// URL`);
    }
    const name = typeof args.flags.name === 'string' ? args.flags.name : defaultName(argv, upstreamUrl);
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new HooksError('USAGE', `--name: "${name}" must be letters, digits, "_", "-" or "." (it becomes mcp__${name}__<tool>)`);
    const config = typeof args.flags.config === 'string' ? args.flags.config : undefined;
    // A match may name the server's tools bare (`read_file`): they are in no agent's table.
    const runner = await createRunner({ cwd: ctx.cwd, env: ctx.env, anyTool: true, ...(config === undefined ? {} : { configFile: config }) });
    const log = (line: string) => ctx.stderr(`agent-hooks mcp ${name}: ${line}\n`);

    const sdk = await import('../../mcp/sdk.js');
    const { gatewayJudge } = await import('../../mcp/gateway/judge.js');
    const { startGateway } = await import('../../mcp/gateway/proxy.js');
    const upstream =
      upstreamUrl !== undefined
        ? new sdk.StreamableHTTPClientTransport(upstreamUrl)
        : // The server gets our whole environment: the client put its settings (API keys, paths) there for it.
          new sdk.StdioClientTransport({ command: argv[0]!, args: argv.slice(1), env: stringEnv(ctx.env), cwd: ctx.cwd, stderr: 'inherit' });
    const judge = gatewayJudge({ runner, server: name, cwd: ctx.cwd, log, run: { signal: ctx.signal, metadataStore: memoryStore() } });
    let gateway;
    try {
      gateway = await startGateway({ judge, upstream, downstream: new sdk.StdioServerTransport(), log, version: VERSION });
    } catch (error) {
      await upstream.close().catch(() => {});
      throw new HooksError('USAGE', `hooks mcp ${name}: could not start the server ${upstreamUrl?.href ?? JSON.stringify(argv.join(' '))}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The SDK's stdio server does not end with its input: the client closing our stdin ends the gateway.
    process.stdin.once('end', () => void gateway.close());
    ctx.signal.addEventListener('abort', () => void gateway.close(), { once: true });
    await gateway.closed;
    return 0;
  },
};

function defaultName(argv: string[], url: URL | undefined): string {
  if (url !== undefined) return url.hostname.replace(/[^A-Za-z0-9_.-]/g, '_');
  // `npx -y @scope/server-x` names the package, not npx.
  const word = ['npx', 'uvx', 'bunx', 'pnpx'].includes(path.basename(argv[0]!)) ? (argv.slice(1).find((a) => !a.startsWith('-')) ?? argv[0]!) : argv[0]!;
  return path.basename(word).replace(/\.[cm]?[jt]s$|\.py$/, '').replace(/@.*$/, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'mcp';
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
