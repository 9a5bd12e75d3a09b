// Where a judge's request goes and with which key. The endpoint and the key source are the user's: they
// come from the environment or the user/managed layer (config/resolve.ts refuses them in a project file),
// so a repository can never point the judge, and the user's key, at a server of its own.

import os from 'node:os';
import path from 'node:path';
import { readPrivateFile } from '../fs/private.js';
import { projectEnvSource } from '../config/project-env.js';

export type Provider = 'anthropic' | 'openai';
export const PROVIDERS: readonly Provider[] = ['anthropic', 'openai'];

/** What a prompt hook says about its judge, after config resolution (hook, its file's defaults, the user's). */
export interface JudgeSettings {
  provider?: Provider;
  model?: string;
  /** Base URL; only ever from the user or managed layer. */
  endpoint?: string;
  /** The environment variable holding the key; only ever from the user or managed layer. */
  apiKeyEnv?: string;
  /** A file holding the key (0600, the user's own); only ever from the user or managed layer. */
  apiKeyFile?: string;
}

/**
 * Claude Code's model for a prompt hook with no `model`: its small fast model, which it reads from
 * `ANTHROPIC_SMALL_FAST_MODEL`, then `ANTHROPIC_DEFAULT_HAIKU_MODEL`, else Haiku 4.5 (2.1.332's catalog).
 */
export const CLAUDE_DEFAULT_JUDGE_MODEL = 'claude-haiku-4-5-20251001';
/** The OpenAI-compatible default model, when neither the hook nor the config names one. */
export const OPENAI_DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';

const OFFICIAL: Record<Provider, string> = { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com' };
const BASE_ENV: Record<Provider, string> = { anthropic: 'ANTHROPIC_BASE_URL', openai: 'OPENAI_BASE_URL' };
const KEY_ENV: Record<Provider, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

export interface Target {
  provider: Provider;
  model: string;
  /** The full request URL. */
  url: string;
  headers: Record<string, string>;
  /** The key, so that it can be removed from anything said about the request; never printed. */
  secret?: string;
}

/**
 * The judge of one hook: its own settings (from its file, or from the user or managed layer), over the
 * user's and managed defaults. Nothing chosen for another provider is carried over: a repository that
 * names the other provider must not send the user's key (or key file) to the user's endpoint for the
 * first one, nor that key to the other provider's server. The other provider then uses its own standard
 * environment (ANTHROPIC_* / OPENAI_*).
 */
export function judgeSettings(global: (JudgeSettings & { budget?: number }) | undefined, own: JudgeSettings): JudgeSettings {
  const { budget: _budget, ...defaults } = global ?? {};
  const sameProvider = own.provider === undefined || own.provider === (defaults.provider ?? 'anthropic');
  const carried: JudgeSettings = sameProvider ? defaults : { provider: own.provider };
  const merged: JudgeSettings = { ...carried, ...own };
  for (const name of ['model', 'endpoint', 'apiKeyEnv', 'apiKeyFile'] as const) if (merged[name] === undefined) delete merged[name];
  return merged;
}

/** The request target, or why there is none (one line, never holding the key). */
export function judgeTarget(settings: JudgeSettings, env: NodeJS.ProcessEnv, projectDir?: string): Target | { problem: string } {
  const provider = settings.provider ?? 'anthropic';
  const model =
    settings.model ??
    (provider === 'anthropic' ? nonEmpty(env.ANTHROPIC_SMALL_FAST_MODEL) ?? nonEmpty(env.ANTHROPIC_DEFAULT_HAIKU_MODEL) ?? CLAUDE_DEFAULT_JUDGE_MODEL : OPENAI_DEFAULT_JUDGE_MODEL);
  const fromEnv = settings.endpoint === undefined ? nonEmpty(env[BASE_ENV[provider]]) : undefined;
  if (fromEnv !== undefined && projectDir !== undefined) {
    // An agent that loads the project's .env (Gemini CLI) hands its variables to the runner: the repository's, not the user's.
    const planted = projectEnvSource(BASE_ENV[provider], fromEnv, projectDir, env.HOME || os.homedir());
    if (planted !== undefined) {
      return { problem: `${BASE_ENV[provider]} is the value ${planted} gives it, a file of the repository (an agent such as Gemini CLI loads it into the hooks' environment): a project must not choose where your key goes; no request was made. Set defaults.judge.endpoint in your user config to use that endpoint` };
    }
  }
  const base = (settings.endpoint ?? fromEnv ?? OFFICIAL[provider]).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    return { problem: `the ${provider} endpoint ${JSON.stringify(shownUrl(base))} (${settings.endpoint === undefined ? BASE_ENV[provider] : 'endpoint'}) is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: `the ${provider} endpoint must be http or https, not ${parsed.protocol}` };
  const keyVar = settings.apiKeyEnv ?? KEY_ENV[provider];
  let key: string | undefined;
  if (settings.apiKeyFile !== undefined) {
    const file = settings.apiKeyFile.startsWith('~/') ? path.join(env.HOME || os.homedir(), settings.apiKeyFile.slice(2)) : settings.apiKeyFile;
    key = nonEmpty(readPrivateFile(file, { secret: true })?.trim());
    if (key === undefined) return { problem: `apiKeyFile ${file}: not a readable file of yours that only you can read (chmod 600), or empty` };
  } else key = nonEmpty(env[keyVar]);
  // Claude Code's other credential: a bearer token, when no key is set.
  const token = provider === 'anthropic' && settings.apiKeyEnv === undefined && settings.apiKeyFile === undefined ? nonEmpty(env.ANTHROPIC_AUTH_TOKEN) : undefined;
  if (key === undefined && token === undefined && base === OFFICIAL[provider]) return { problem: `no API key for ${base}: set ${keyVar}` };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (provider === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (key !== undefined) headers['x-api-key'] = key;
    else if (token !== undefined) headers.authorization = `Bearer ${token}`;
  } else if (key !== undefined) headers.authorization = `Bearer ${key}`;
  // OPENAI_BASE_URL is usually written with its /v1 (as the OpenAI SDKs take it); ANTHROPIC_BASE_URL never is.
  const route = provider === 'anthropic' ? '/v1/messages' : base.endsWith('/v1') ? '/chat/completions' : '/v1/chat/completions';
  const secret = key ?? token;
  return { provider, model, url: `${base}${route}`, headers, ...(secret === undefined ? {} : { secret }) };
}

/** A URL as messages show it: a `user:password@` in it is replaced, the rest kept for the reader. */
export function shownUrl(url: string): string {
  // The authority ends at the first / ? # or \ (WHATWG); its userinfo ends at its last @.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#\\]*@/i, '$1[credentials]@');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
