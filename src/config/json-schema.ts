// The JSON Schema of `.hooksrc.json`, generated from the zod schema so the two cannot drift.
import { z } from 'zod';
import { ConfigSchema, HandlerSchema } from './schema.js';

/** A builtin guard as the schema describes it: its id and the zod schema of its options. */
export interface GuardSchema {
  id: string;
  options?: z.ZodType;
}

/**
 * The JSON Schema (draft 2020-12) editors use to complete and check `.hooksrc.json`. It compiles in
 * Ajv's strict mode and refuses unknown keys where zod does; event keys are the known ones (zod also
 * takes a newer agent's event that is no typo of a known one); with `guards`, a builtin's id and its
 * options are checked as that guard checks them.
 */
export function configJsonSchema(guards: readonly GuardSchema[] = []): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigSchema, {
    reused: 'ref',
    // The handler's cross-field rules live in a zod refinement, which JSON Schema cannot see; state them here.
    override: (ctx) => {
      if (ctx.zodSchema === HandlerSchema) {
        Object.assign(ctx.jsonSchema, {
          // Ajv's strict mode wants every required key defined where it is required.
          not: { properties: { command: true, builtin: true }, required: ['command', 'builtin'] },
          dependentRequired: { args: ['command'], options: ['builtin'] },
          ...(guards.length === 0 ? {} : { allOf: guards.map(guardRule) }),
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
      additionalProperties: false,
    };
    defs.hookList = { ...defs.hookList, items: { anyOf: [{ $ref: '#/$defs/hook' }, { $ref: '#/$defs/claudeMatcherGroup' }] } };
    if (guards.length > 0) {
      const props = defs.hook.properties as Record<string, unknown>;
      props.builtin = { type: 'string', enum: guards.map((g) => g.id), description: 'A first-party guard run in-process' };
    }
  }
  // Every event and wildcard key is listed, so a typo is refused. The runner also runs an event newer than
  // this catalog (as an observe event); JSON Schema cannot tell that from a typo, and the editor flags it.
  const hooks = (schema.properties as Record<string, Record<string, unknown>>).hooks;
  if (hooks !== undefined) {
    delete hooks.additionalProperties;
    hooks.additionalProperties = false;
    hooks.description = "Hooks per event (camelCase, kebab-case or Claude Code's PascalCase) or wildcard key (group:tool, *); an event newer than this schema runs, but is flagged here";
  }
  return { $schema: schema.$schema, title: 'agent-hooks config (.hooksrc.json)', ...schema };
}

// --- internal ---

/** With `builtin: id`, `options` is that guard's, unknown keys refused where its zod schema refuses them. */
function guardRule(guard: GuardSchema): Record<string, unknown> {
  return {
    if: { properties: { builtin: { const: guard.id } }, required: ['builtin'] },
    then: { properties: { options: optionsSchema(guard.options) } },
  };
}

/** A guard's options as JSON Schema, plus `audit`, which every builtin takes (the runner takes it off first). */
function optionsSchema(schema: z.ZodType | undefined): Record<string, unknown> {
  const audit = { type: 'boolean', description: 'Shadow mode: the guard runs and reports what it would do, never acts' };
  if (schema === undefined) return { type: 'object', properties: { audit } };
  const json = withoutZodFormats(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline' })) as Record<string, unknown>;
  delete json.$schema;
  const properties = (json.properties ?? {}) as Record<string, unknown>;
  return { ...json, properties: { ...properties, audit } };
}

/**
 * zod names checks JSON Schema has no format for (`starts_with`, `includes`, ...) as formats; editors
 * ignore them and Ajv's strict mode refuses them. The pattern zod writes beside them stays.
 */
function withoutZodFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutZodFormats);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'format' && typeof value === 'string' && !JSON_SCHEMA_FORMATS.has(value)) continue;
    out[key] = withoutZodFormats(value);
  }
  return out;
}

const JSON_SCHEMA_FORMATS = new Set(['date-time', 'date', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid', 'regex', 'json-pointer']);
