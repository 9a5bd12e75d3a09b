// OpenClaw: no command hooks, and no project settings (one Gateway config per user). So a generated
// native plugin in `<state>/extensions/agent-hooks/` (index.js, openclaw.plugin.json, package.json:
// wholly ours), and in the user's `openclaw.json` the two keys that load it: its folder in
// `plugins.load.paths`, and `plugins.entries.agent-hooks` enabled with conversation access (the
// prompt hooks need it).
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { isRecord } from '../../json.js';
import { formatSettings, parseSettings, type JsonObject } from '../json-doc.js';
import { isOurOpenclawFile, OPENCLAW_PLUGIN_ID, renderOpenclawManifest, renderOpenclawPackage, renderOpenclawPlugin } from '../openclaw-plugin.js';
import { binExpression } from './opencode.js';
import type { AgentTarget } from '../target.js';

/** Five handlers: before_tool_call, the tool-result middleware, before_model_resolve, before_prompt_build, before_agent_run. */
const ENTRIES = 5;

/** The plugin's folder, beside the config OpenClaw reads. */
export function openclawPluginDir(configFile: string): string {
  return path.join(path.dirname(configFile), 'extensions', OPENCLAW_PLUGIN_ID);
}

export const openclaw: AgentTarget = {
  name: 'openclaw',
  // OpenClaw's own lookup: $OPENCLAW_CONFIG_PATH, else <state dir>/openclaw.json ($OPENCLAW_STATE_DIR, else ~/.openclaw).
  // A project has none: its path is one OpenClaw never reads, where doctor and uninstall find nothing.
  file(scope, { cwd, home, env }) {
    if (scope === 'project') return path.join(cwd, '.openclaw', 'no-project-settings', 'openclaw.json');
    if (env.OPENCLAW_CONFIG_PATH) return path.resolve(env.OPENCLAW_CONFIG_PATH);
    return path.join(env.OPENCLAW_STATE_DIR ? path.resolve(env.OPENCLAW_STATE_DIR) : path.join(env.OPENCLAW_HOME || home, '.openclaw'), 'openclaw.json');
  },
  projectDir: { shell: '', base: (cwd) => cwd },
  failure: {
    open: 'the runner reports it and the call goes on (a runner that fails, is missing or times out blocks the call or prompt all the same)',
    closed: "a hook's own error then blocks the tool call or prompt too",
  },
  companions: {
    files: (file) => ['index.js', 'openclaw.plugin.json', 'package.json'].map((name) => path.join(openclawPluginDir(file), name)),
    render: (file, { launcher, timeoutSeconds, failClosed }, scope) => [renderOpenclawPlugin(binExpression(launcher, scope), timeoutSeconds * 1000, failClosed), renderOpenclawManifest(), renderOpenclawPackage()],
    isOurs: isOurOpenclawFile,
  },
  install(before, file, _options, scope) {
    if (scope === 'project') {
      throw new HooksError('USAGE', 'install openclaw: OpenClaw has no project settings (one Gateway config per user); run "agent-hooks install openclaw --user" from a global install');
    }
    const doc = parseSettings(before, file);
    // Parsed containers keep their source text: each one changed is rebuilt, never edited in place.
    const plugins = objectAt(doc, 'plugins', file, 'plugins');
    if (Array.isArray(plugins.deny) && plugins.deny.includes(OPENCLAW_PLUGIN_ID)) {
      throw new HooksError('CONFIG_INVALID', `${file}: plugins.deny names "${OPENCLAW_PLUGIN_ID}"; take it out first if you mean to run agent-hooks in OpenClaw`, { file, path: 'plugins.deny' });
    }
    const load = objectAt(plugins, 'load', file, 'plugins.load');
    const paths = listAt(load, 'paths', file, 'plugins.load.paths');
    const dir = openclawPluginDir(file);
    const entries = objectAt(plugins, 'entries', file, 'plugins.entries');
    const entry = objectAt(entries, OPENCLAW_PLUGIN_ID, file, `plugins.entries.${OPENCLAW_PLUGIN_ID}`);
    const hooks = objectAt(entry, 'hooks', file, `plugins.entries.${OPENCLAW_PLUGIN_ID}.hooks`);
    const next: JsonObject = {
      ...plugins,
      load: paths.includes(dir) ? plugins.load ?? load : { ...load, paths: [...paths, dir] },
      // An allowlist loads only what it names: ours joins it (uninstall takes it out again).
      ...(Array.isArray(plugins.allow) && !plugins.allow.includes(OPENCLAW_PLUGIN_ID) ? { allow: [...plugins.allow, OPENCLAW_PLUGIN_ID] } : {}),
      entries:
        entry.enabled === true && hooks.allowConversationAccess === true
          ? entries
          : // The prompt hooks (before_model_resolve, before_prompt_build, before_agent_run) see the conversation.
            { ...entries, [OPENCLAW_PLUGIN_ID]: { ...entry, enabled: true, hooks: { ...hooks, allowConversationAccess: true } } },
    };
    const after = { ...doc, plugins: next };
    if (before !== undefined && JSON.stringify(after) === JSON.stringify(JSON.parse(before))) return { text: before, entries: ENTRIES };
    return { text: formatSettings(after, before), entries: ENTRIES };
  },
  uninstall(before, file) {
    const doc = parseSettings(before, file);
    const plugins = doc.plugins;
    if (!isRecord(plugins)) return { text: before, removed: 0 };
    const dir = openclawPluginDir(file);
    const next: JsonObject = { ...plugins };
    let ours = false;
    const load = plugins.load;
    if (isRecord(load) && Array.isArray(load.paths) && load.paths.includes(dir)) {
      ours = true;
      const paths = load.paths.filter((p) => p !== dir);
      const { paths: _gone, ...rest } = load;
      const kept = paths.length === 0 ? rest : { ...rest, paths };
      if (Object.keys(kept).length === 0) delete next.load;
      else next.load = kept;
    }
    const entries = plugins.entries;
    if (isRecord(entries) && entries[OPENCLAW_PLUGIN_ID] !== undefined) {
      ours = true;
      const { [OPENCLAW_PLUGIN_ID]: _entry, ...rest } = entries;
      if (Object.keys(rest).length === 0) delete next.entries;
      else next.entries = rest;
    }
    if (!ours) return { text: before, removed: 0 };
    if (Array.isArray(plugins.allow) && plugins.allow.includes(OPENCLAW_PLUGIN_ID)) next.allow = plugins.allow.filter((id) => id !== OPENCLAW_PLUGIN_ID);
    const { plugins: _plugins, ...others } = doc;
    return { text: formatSettings(Object.keys(next).length === 0 ? others : { ...doc, plugins: next }, before), removed: ENTRIES };
  },
  note: 'OpenClaw loads the plugin at start (a running Gateway: "openclaw plugins reload agent-hooks"); it runs `hooks run --dialect native` in the agent\'s workspace with OpenClaw tools named as Claude Code tools (exec is Bash)',
};

/** `parent[key]` as an object to read (empty when absent); anything else is an error naming the key. */
function objectAt(parent: JsonObject, key: string, file: string, where: string): JsonObject {
  const value = parent[key];
  if (value === undefined) return {};
  if (!isRecord(value)) throw new HooksError('CONFIG_INVALID', `${file}: ${where} is not an object; agent-hooks will not change it`, { file, path: where });
  return value;
}

function listAt(parent: JsonObject, key: string, file: string, where: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new HooksError('CONFIG_INVALID', `${file}: ${where} is not an array; agent-hooks will not change it`, { file, path: where });
  return value;
}
