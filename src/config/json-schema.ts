// The JSON Schema of `.hooksrc.json`, generated from the zod schema so the two cannot drift.
import { z } from 'zod';
import { ConfigSchema, HandlerSchema } from './schema.js';

/** The JSON Schema (draft 2020-12) editors use to complete and check `.hooksrc.json`. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigSchema, {
    reused: 'ref',
    // The handler's cross-field rules live in a zod refinement, which JSON Schema cannot see; state them here.
    override: (ctx) => {
      if (ctx.zodSchema === HandlerSchema) {
        Object.assign(ctx.jsonSchema, {
          not: { required: ['command', 'builtin'] },
          dependentRequired: { args: ['command'], options: ['builtin'] },
        });
      }
    },
  }) as Record<string, unknown>;
  // A list may also hold Claude Code's matcher groups, flattened before the zod check (claude-shape.ts).
  const defs = schema.$defs as Record<string, Record<string, unknown>> | undefined;
  if (defs?.hookList !== undefined && defs.hook !== undefined) {
    defs.claudeMatcherGroup = {
      type: 'object',
      description: "Claude Code's matcher group, as in .claude/settings.json: each handler runs as one hook",
      properties: {
        matcher: { type: 'string', description: "Claude Code's matcher: exact names split on | or , or else an unanchored regex" },
        hooks: { type: 'array', items: { $ref: '#/$defs/hook' } },
      },
      required: ['hooks'],
    };
    defs.hookList = { ...defs.hookList, items: { anyOf: [{ $ref: '#/$defs/hook' }, { $ref: '#/$defs/claudeMatcherGroup' }] } };
  }
  return { $schema: schema.$schema, title: 'agent-hooks config (.hooksrc.json)', ...schema };
}
