// The shipped JSON Schema is current, and it agrees with the zod schema on valid and invalid configs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_GROUPS } from '../../src/events/groups.js';
import { describe, expect, it } from 'vitest';
import { guardSchemas } from '../../src/cli/commands/schema.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { EVENTS } from '../../src/events/catalog.js';
import { ROOT } from '../helpers.js';
import { strictAjv } from './ajv.js';

const shipped = JSON.parse(readFileSync(path.join(ROOT, 'schema', 'hooks.schema.json'), 'utf8')) as Record<string, unknown>;
const validate = strictAjv().compile(shipped);

const VALID: [string, unknown][] = [
  ['empty', {}],
  ['the README example', JSON.parse(readFileSync(path.join(ROOT, '.hooksrc.example.json'), 'utf8'))],
  ['all three spellings', { hooks: { preToolUse: [{ command: 'a' }], 'post-tool-use': [{ command: 'b' }], Stop: [{ command: 'c' }] } }],
  ['exec form', { hooks: { stop: [{ command: 'node', args: ['x.mjs', '--flag'] }] } }],
  ['builtin with options', { hooks: { preToolUse: [{ builtin: 'command-safety', options: { audit: true } }] } }],
  ['every handler field', { defaults: { timeout: 5, onFailure: 'block', env: { A: '1' } }, hooks: { preToolUse: [{ id: 'x', command: 'a', match: ['exec', 'group:fs'], if: { command: 'git *', file_path: ['*.env'] }, priority: -3, timeout: 0.5, onFailure: 'continue', parallel: true, env: { B: '2' }, cwd: 'tools', enabled: false }] } }],
  ['an override entry (id only)', { hooks: { stop: [{ id: 'slow', enabled: false }] } }],
  ['$schema', { $schema: './schema/hooks.schema.json', hooks: {} }],
];

const INVALID: [string, unknown][] = [
  ['unknown top-level key', { hook: {} }],
  ['hooks not an object', { hooks: [] }],
  ['hook list not an array', { hooks: { stop: { command: 'a' } } }],
  ['unknown handler key', { hooks: { stop: [{ command: 'a', timout: 5 }] } }],
  ['timeout as a string', { hooks: { stop: [{ command: 'a', timeout: '5' }] } }],
  ['timeout zero', { hooks: { stop: [{ command: 'a', timeout: 0 }] } }],
  ['timeout over an hour', { hooks: { stop: [{ command: 'a', timeout: 3601 }] } }],
  ['fractional priority', { hooks: { stop: [{ command: 'a', priority: 1.5 }] } }],
  ['bad onFailure', { hooks: { stop: [{ command: 'a', onFailure: 'explode' }] } }],
  ['empty command', { hooks: { stop: [{ command: '' }] } }],
  ['empty match list', { hooks: { preToolUse: [{ command: 'a', match: [] }] } }],
  ['env values must be strings', { hooks: { stop: [{ command: 'a', env: { N: 1 } }] } }],
  ['command and builtin', { hooks: { stop: [{ command: 'a', builtin: 'b' }] } }],
  ['args without command', { hooks: { stop: [{ builtin: 'b', args: [] }] } }],
  ['options without builtin', { hooks: { stop: [{ command: 'a', options: {} }] } }],
  ['bad id characters', { hooks: { stop: [{ command: 'a', id: 'has space' }] } }],
  ['unknown defaults key', { defaults: { retries: 3 } }],
];

describe('the JSON Schema', () => {
  it('shipped in schema/hooks.schema.json is the one generated from the zod schema (run npm run build)', async () => {
    expect(shipped).toEqual(configJsonSchema(await guardSchemas()));
  });

  it.each(VALID)('accepts, as zod does: %s', (_, config) => {
    expect(ConfigSchema.safeParse(config).success).toBe(true);
    expect(validate(config)).toBe(true);
  });

  // An event the catalog does not know runs as an observe event, and only a likely typo of a known one is a
  // zod error. JSON Schema cannot tell a typo from a new name: it lists the known ones, so an editor flags
  // both (a newer agent's event still runs).
  it('refuses an event it does not know, where zod takes a new name and refuses only a typo', () => {
    const newer = { hooks: { DirectoryRemoved: [{ command: 'a' }] } };
    expect(ConfigSchema.safeParse(newer).success).toBe(true);
    expect(validate(newer)).toBe(false);
    const typo = { hooks: { preTooluse: [] } };
    expect(ConfigSchema.safeParse(typo).success).toBe(false);
    expect(validate(typo)).toBe(false);
  });

  it.each(INVALID)('rejects, as zod does: %s', (_, config) => {
    expect(ConfigSchema.safeParse(config).success).toBe(false);
    expect(validate(config)).toBe(false);
  });

  it('lists every event spelling, so editors complete them', () => {
    const hooks = (shipped.properties as Record<string, { properties: Record<string, unknown> }>).hooks!.properties;
    expect(Object.keys(hooks)).toEqual(expect.arrayContaining(['preToolUse', 'pre-tool-use', 'PreToolUse', 'sessionEnd', 'post-tool-use-failure']));
    // Every event, three spellings each (one-word events spell alike in two of them), then the wildcard keys.
    expect(Object.keys(hooks)).toHaveLength(new Set(EVENTS.flatMap((e) => [e.name, e.cli, e.claude])).size + EVENT_GROUPS.length);
    expect(Object.keys(hooks)).toEqual(expect.arrayContaining(EVENT_GROUPS.map((g) => g.key)));
  });
});
