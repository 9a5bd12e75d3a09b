// `hooks sample <event>`: prints a realistic event payload, ready to pipe into `hooks run` or to paste into a test case.
import { HooksError } from '../../errors.js';
import { eventSpellings } from '../../events/catalog.js';
import { parseInputPairs, sampleEvent, SAMPLE_DIALECTS, type SampleDialect } from '../../events/samples.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: `Usage: hooks sample <event> [--tool <name>] [--input key=value] [--dialect claude-code|native]

Prints a realistic event payload as JSON, in the shape Claude Code sends it (session_id,
transcript_path, cwd = the current directory, hook_event_name, tool_name, tool_input,
tool_use_id, tool_response, prompt, ...), with fresh ids. Pipe it into hooks run, or save it
as a test case's event.

Options:
  --tool <name>        the tool, on tool events (default exec): a canonical name (exec, read,
                       write, edit, apply_patch, web_fetch, web_search, process, ...), an agent's
                       name (Bash, MultiEdit, Glob, run_shell_command, ...) or an MCP tool
                       (mcp__server__tool). Sets tool_name and a realistic default tool_input
                       and tool_response.
  --input key=value    sets a tool_input field on tool events, an event field on the others (repeatable)
                       (prompt, source, stop_hook_active, trigger, reason, ...). The value is
                       JSON when it parses (true, 5, ["a"]), else a string; a dotted key nests
                       (a.b=1). Several fields at once: --input '{"file_path":"x","content":"y"}'
  --dialect <name>     claude-code (default): every field Claude Code sends
                       native: the event's own fields, no hook_event_name; name the event on
                       hooks run then, e.g. npx agent-hooks run pre-tool-use --dialect native

Events: ${eventSpellings().join(', ')}

Examples:
  npx agent-hooks sample pre-tool-use --tool exec --input command='git push --force origin main'
  npx agent-hooks sample pre-tool-use --tool exec --input command='ls -la' | npx agent-hooks run pre-tool-use
  npx agent-hooks sample post-tool-use --tool read --input file_path=.env
  npx agent-hooks sample user-prompt-submit --input prompt='deploy to production'
  npx agent-hooks sample stop --input stop_hook_active=true > stop.json
`,
  args: {
    positional: ['event'],
    flags: { tool: 'string', input: 'list', dialect: 'string' },
  },
  async run(args, ctx) {
    const event = args.positional.event;
    if (event === undefined) {
      throw new HooksError('USAGE', `hooks sample: name an event: ${eventSpellings().join(', ')}`);
    }
    const dialect = args.flags.dialect ?? 'claude-code';
    if (!SAMPLE_DIALECTS.includes(dialect as SampleDialect)) {
      throw new HooksError('DIALECT_UNKNOWN', `--dialect: expected ${SAMPLE_DIALECTS.join(' or ')}, got "${String(dialect)}"`);
    }
    const input = args.lists.input === undefined ? undefined : parseInputPairs(args.lists.input);
    // A field the tool does not have is kept (agents add fields), but said: a typo would otherwise
    // leave the sample's default command in place, and the pipe would test something else.
    const { unknownInputField } = await import('../../testing/fields.js');
    const unknown = unknownInputField(event, typeof args.flags.tool === 'string' ? args.flags.tool : undefined, input);
    if (unknown !== undefined) ctx.stderr(`agent-hooks: warning: --input ${unknown} (kept; the sample's default input stays too)\n`);
    const payload = sampleEvent(event, {
      cwd: ctx.cwd,
      dialect: dialect as SampleDialect,
      ...(typeof args.flags.tool === 'string' ? { tool: args.flags.tool } : {}),
      ...(input === undefined ? {} : { input }),
    });
    ctx.stdout(`${JSON.stringify(payload, null, 2)}\n`);
    return 0;
  },
};

