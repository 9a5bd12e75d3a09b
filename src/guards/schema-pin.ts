// Guard `schema-pin`: tool-definition pinning (MCP Hangar's digest pinning). Wherever an agent shows the
// model's tool definitions (beforeToolSelection / beforeModel with `model_request.tools`: library callers,
// a tools/list piped through the docker-mcp dialect), each definition is fingerprinted (RFC 8785
// canonical JSON, SHA-256) and compared with what was pinned for this project. A changed definition (a
// "rug pull": new description, new parameters) or a new tool is said, and by option taken away from the
// model. The first time a project shows tools, they are pinned as they are (trust on first use).
import { createHash } from 'node:crypto';
import { isRecord } from '../json.js';
import type { Guard, HandlerFn } from '../types.js';
import { canonicalize, MAX_DEPTH } from './schema-pin/jcs.js';
import type { SchemaPinOptions } from './schema-pin/options.js';
import { readPins, writePins, type Pin } from './schema-pin/store.js';

export { canonicalize, CanonicalizationError } from './schema-pin/jcs.js';
export type { SchemaPinOptions, SchemaPinOptionsInput } from './schema-pin/options.js';
export { pinFile } from './schema-pin/store.js';

/**
 * The fingerprint of one tool definition: SHA-256 of its RFC 8785 canonical JSON, hex. A member whose
 * value is empty (`{}`, `[]`, `""`) counts as absent: servers and SDKs add and drop them between
 * versions (`"properties": {}`, `"required": []`), and that is no change of what the tool does.
 */
export function toolFingerprint(tool: unknown): string {
  return createHash('sha256').update(canonicalize(withoutEmpty(tool, 0)), 'utf8').digest('hex');
}

function withoutEmpty(value: unknown, depth: number): unknown {
  // Deeper than canonicalize goes: left as it is, for canonicalize to refuse with the place named.
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutEmpty(v, depth + 1));
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, v] of Object.entries(value)) {
    const kept = withoutEmpty(v, depth + 1);
    if (isEmpty(kept)) continue;
    out[key] = kept;
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  if (value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

export const schemaPin: Guard<SchemaPinOptions> = {
  id: 'schema-pin',
  summary: 'Pins every tool definition the model is shown (RFC 8785 + SHA-256, per project); warns or takes the tool away when one changes or a new one appears.',
  events: ['beforeToolSelection', 'beforeModel'],
  options: async () => (await import('./schema-pin/options.js')).schemaPinOptions,
  create(options, context) {
    const env = context?.env ?? process.env;
    const projectDir = context?.projectDir ?? process.cwd();
    const changedPolicy = options?.changed ?? 'block';
    const addedPolicy = options?.added ?? 'warn';
    const handler: HandlerFn = (input) => {
      const request = input.model_request;
      const tools = isRecord(request) && Array.isArray(request.tools) ? request.tools : undefined;
      if (tools === undefined) {
        return { systemMessage: 'schema-pin: this event shows no tool definitions (Gemini CLI, for one, does not send them to hooks); nothing was checked' };
      }
      const store = readPins(projectDir, env);
      const now = new Date().toISOString();
      // No prototype: a tool may be named "__proto__" or "constructor".
      const next: Record<string, Pin> = Object.assign(Object.create(null) as Record<string, Pin>, store.tools);
      const changed: string[] = [];
      const added: string[] = [];
      const unreadable: string[] = [];
      const nameless: string[] = [];
      for (const [i, tool] of tools.entries()) {
        // A tool without a name cannot be pinned, nor told apart from the next nameless one: refused.
        if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '') {
          nameless.push(`tools[${i}]`);
          continue;
        }
        const name = tool.name;
        let sha256: string;
        try {
          sha256 = toolFingerprint(tool);
        } catch (error) {
          // A definition that is not I-JSON cannot be pinned: it is treated as changed, never passed unchecked.
          unreadable.push(`${name} (${(error as Error).message})`);
          continue;
        }
        const pinned = store.tools !== undefined && Object.hasOwn(store.tools, name) ? store.tools[name] : undefined;
        if (store.tools === undefined) next[name] = { sha256, pinned: now };
        else if (pinned === undefined) {
          added.push(name);
          if (addedPolicy === 'warn') next[name] = { sha256, pinned: now };
        } else if (pinned.sha256 !== sha256) {
          changed.push(name);
          if (changedPolicy === 'warn') next[name] = { sha256, pinned: now };
        }
      }
      if (JSON.stringify(next) !== JSON.stringify(store.tools ?? {})) writePins(store, projectDir, next);

      const notes: string[] = [];
      if (store.tools === undefined) notes.push(`schema-pin: pinned ${Object.keys(next).length} tool definition(s) for ${projectDir} (first use) in ${store.file}`);
      if (changed.length > 0) notes.push(`schema-pin: tool definition(s) changed since pinned: ${changed.join(', ')}${changedPolicy === 'block' ? ` (taken away from the model; if the change is expected, remove their pins from ${store.file})` : ' (pinned again)'}`);
      if (added.length > 0) notes.push(`schema-pin: new tool(s) not pinned before: ${added.join(', ')}${addedPolicy === 'block' ? ` (taken away from the model; pin them by removing ${store.file})` : ' (pinned)'}`);
      if (unreadable.length > 0) notes.push(`schema-pin: tool definition(s) that cannot be fingerprinted, taken away: ${unreadable.join('; ')}`);
      if (nameless.length > 0) notes.push(`schema-pin: tool definition(s) without a name, refused (not pinned, not offered): ${nameless.join(', ')}`);
      const blocked = [...(changedPolicy === 'block' ? changed : []), ...(addedPolicy === 'block' ? added : []), ...unreadable.map((u) => u.replace(/ \(.*$/, ''))];
      if (notes.length === 0) return undefined;
      const message = notes.join('; ');
      if (blocked.length === 0 && nameless.length === 0) return { systemMessage: message };
      const shown = isRecord(request) && Array.isArray(request.allowed_tools) ? (request.allowed_tools as unknown[]) : tools.map((t: unknown) => (isRecord(t) ? t.name : undefined));
      const allowed = shown.filter((n): n is string => typeof n === 'string' && n !== '' && !blocked.includes(n));
      return { decision: 'modify', updatedRequest: { allowed_tools: allowed }, reason: message, systemMessage: message };
    };
    return handler;
  },
};
