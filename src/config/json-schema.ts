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
  return { $schema: schema.$schema, title: 'agent-hooks config (.hooksrc.json)', ...schema };
}
