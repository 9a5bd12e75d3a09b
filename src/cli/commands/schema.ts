// `hooks schema`: prints the config's JSON Schema (the build writes it to schema/hooks.schema.json).
import { configJsonSchema, type GuardSchema } from '../../config/json-schema.js';
import { GUARD_IDS, loadGuard } from '../../guards/index.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: `Usage: hooks schema

Prints the JSON Schema of the config file, generated from the same zod schema the runner checks
configs with. The package ships it as schema/hooks.schema.json; point "$schema" at it for
completion in your editor:
  { "$schema": "./node_modules/agent-hooks/schema/hooks.schema.json", "hooks": { ... } }
`,
  args: { positional: [], flags: {} },
  async run(_args, ctx) {
    ctx.stdout(`${JSON.stringify(configJsonSchema(await guardSchemas()), null, 2)}\n`);
    return 0;
  },
};

/** Every first-party guard with its options' schema, so the JSON Schema checks `builtin` and `options`. */
export async function guardSchemas(): Promise<GuardSchema[]> {
  const out: GuardSchema[] = [];
  for (const id of GUARD_IDS) {
    const guard = await loadGuard(id);
    out.push({ id, ...(guard === undefined ? {} : { options: await guard.options() }) });
  }
  return out;
}
