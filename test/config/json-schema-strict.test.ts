// The shipped JSON Schema compiles in Ajv's strict mode and refuses typos (event names, handler and
// guard option keys, guard ids), while every config the repository ships or writes is accepted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardSchemas } from '../../src/cli/commands/schema.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { EVENTS } from '../../src/events/catalog.js';
import { GUARD_IDS } from '../../src/guards/index.js';
import { isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';
import { strictAjv } from './ajv.js';

const shipped = JSON.parse(readFileSync(path.join(ROOT, 'schema', 'hooks.schema.json'), 'utf8')) as Record<string, unknown>;

describe('the JSON Schema in strict mode', () => {
  const validate = strictAjv().compile(shipped);

  it('is the one generated from the zod schemas with every guard (run npm run build)', async () => {
    expect(shipped).toEqual(configJsonSchema(await guardSchemas()));
  });

  it.each([
    ['an event typo (one letter)', { hooks: { preToolUs: [{ command: 'a' }] } }],
    ['an event typo (case)', { hooks: { pretooluse: [{ command: 'a' }] } }],
    ['an event typo (kebab)', { hooks: { 'pre-tool-uses': [{ command: 'a' }] } }],
    ['a handler key typo', { hooks: { stop: [{ command: 'a', onFailur: 'block' }] } }],
    ['a defaults key typo', { defaults: { timout: 5 } }],
    ['a guard id typo', { hooks: { preToolUse: [{ builtin: 'command-safty' }] } }],
    ['a guard option typo', { hooks: { preToolUse: [{ builtin: 'command-safety', options: { categoris: {} } }] } }],
    ['audit not a boolean', { hooks: { preToolUse: [{ builtin: 'command-safety', options: { audit: 'yes' } }] } }],
    ['a matcher group key typo', { hooks: { PreToolUse: [{ matcher: 'Bash', hook: [] }] } }],
  ])('refuses %s, as zod does (or the runner warns)', (_, config) => {
    expect(validate(config)).toBe(false);
  });

  it('event typos are refused by zod too; every known spelling is accepted by both', () => {
    expect(ConfigSchema.safeParse({ hooks: { preToolUs: [] } }).success).toBe(false);
    for (const e of EVENTS) {
      const config = { hooks: { [e.name]: [], [e.cli]: [], [e.claude]: [] } };
      expect(validate(config), e.name).toBe(true);
      expect(ConfigSchema.safeParse(config).success).toBe(true);
    }
  });

  it('accepts every guard with audit, and each guard without options', () => {
    for (const id of GUARD_IDS) {
      expect(validate({ hooks: { preToolUse: [{ builtin: id }] } }), id).toBe(true);
      expect(validate({ hooks: { preToolUse: [{ builtin: id, options: { audit: true } }] } }), id).toBe(true);
    }
  });

  it('accepts every config the repository ships, and the one hooks init writes', () => {
    for (const file of ['.hooksrc.example.json', 'hooks-tests/guards.hooksrc.json']) {
      const config = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as unknown;
      expect(validate(config), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const dir = tmpProject();
    expect(runCli(['init'], { cwd: dir, env: isolatedEnv(dir) }).code).toBe(0);
    const init = JSON.parse(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')) as unknown;
    expect(validate(init), JSON.stringify(validate.errors)).toBe(true);
  });

  it('hooks schema prints the shipped schema', () => {
    const r = runCli(['schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(shipped);
  });
});
