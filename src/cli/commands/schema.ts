// `hooks schema`: prints the config's JSON Schema (the build writes it to schema/hooks.schema.json).
import { configJsonSchema } from '../../config/json-schema.js';
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
    ctx.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    return 0;
  },
};
