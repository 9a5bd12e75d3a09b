// Every agent `hooks install` knows, by its command-line name.
import { HooksError } from '../../errors.js';
import { didYouMean } from '../../suggest.js';
import type { AgentTarget } from '../target.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';
import { augment, factory, qwenCode, tabnine } from './claude-like.js';
import { kiro } from './kiro.js';
import { windsurf } from './windsurf.js';
import { cline } from './cline.js';
import { goose } from './goose.js';

export const AGENTS: readonly AgentTarget[] = [claudeCode, codex, gemini, cursor, copilot, opencode, qwenCode, factory, augment, tabnine, windsurf, kiro, cline, goose];

export const AGENT_NAMES: readonly string[] = AGENTS.map((a) => a.name);

/** The agent with this name; a `USAGE` error listing the known ones otherwise. */
export function getAgent(name: string | undefined): AgentTarget {
  if (name === undefined) throw new HooksError('USAGE', `name an agent: ${AGENT_NAMES.join(', ')}`);
  const agent = AGENTS.find((a) => a.name === name);
  if (agent === undefined) throw new HooksError('USAGE', `unknown agent "${name}"${didYouMean(name, AGENT_NAMES)}; agents: ${AGENT_NAMES.join(', ')}`);
  return agent;
}
