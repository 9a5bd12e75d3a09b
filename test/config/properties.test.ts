// Property tests for the config reader and resolver: whatever a repository's file holds, loading never
// throws anything but a one-line HooksError naming the file, and a searched project file never throws.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/engine.js';
import { isHooksError } from '../../src/errors.js';
import { isolatedEnv, tmpProject, trustProject } from '../helpers.js';

const SETTINGS = { seed: 4242, numRuns: 120, interruptAfterTimeLimit: 8_000 };

const KEYS = ['hooks', 'defaults', 'onUntrusted', '$schema', 'preToolUse', 'stop', 'pre-tool-use', 'PostToolUse', 'command', 'builtin', 'args', 'options', 'match', 'if', 'id', 'priority', 'timeout', 'onFailure', 'parallel', 'env', 'cwd', 'enabled', 'comand', 'audit', '__proto__', 'constructor'];
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('command-safety', 'exec', 'Bash', 'true', 'block', '*', 'group:fs', '../x'));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 5 })),
})).node;
// Close to real configs, so the resolver (not just the schema) is reached.
const hookEntry = fc.dictionary(fc.constantFrom('command', 'builtin', 'match', 'if', 'id', 'priority', 'timeout', 'onFailure', 'parallel', 'enabled', 'options', 'args'), value, { maxKeys: 5 });
const config = fc.record({ hooks: fc.dictionary(fc.constantFrom('preToolUse', 'stop', 'userPromptSubmit', 'sessionStart', 'PreToolUse', 'nope'), fc.array(hookEntry, { maxLength: 3 }), { maxKeys: 3 }) }, { requiredKeys: [] });

function checkError(error: unknown, file: string): void {
  expect(isHooksError(error), String(error)).toBe(true);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message.includes(file) || message.includes('handlers[')).toBe(true);
}

describe('config loading, properties', () => {
  const dir = tmpProject();
  const env = isolatedEnv(dir, { HOOKS_NO_CACHE: '1' });

  it('an explicit --config file: resolves, or one line naming the file', async () => {
    const file = path.join(dir, 'explicit.json');
    await fc.assert(
      fc.asyncProperty(fc.oneof(value, config), async (v) => {
        writeFileSync(file, JSON.stringify(v) ?? 'null');
        try {
          await loadConfig({ cwd: dir, configFile: file, env });
        } catch (error) {
          checkError(error, file);
        }
      }),
      SETTINGS,
    );
  });

  it('a searched, trusted project file never throws: it runs or is switched off with one line naming it', async () => {
    const project = tmpProject();
    const projectEnv = isolatedEnv(tmpProject(), { HOOKS_NO_CACHE: '1' });
    const file = path.join(project, '.hooksrc.yaml');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), value.map((v) => JSON.stringify(v) ?? ''), config.map((v) => JSON.stringify(v))), async (text) => {
        writeFileSync(file, text);
        trustProject(project, projectEnv);
        const loaded = await loadConfig({ cwd: project, env: projectEnv });
        for (const warning of loaded.warnings) {
          expect(warning).not.toContain('\n');
          expect(warning).toContain(file);
        }
        // A file switched off runs nothing of its own: only the default guards remain.
        if (loaded.layers[0]?.active === false) expect(loaded.hooks.every((h) => h.source.layer === 'defaults')).toBe(true);
      }),
      SETTINGS,
    );
  });
});
