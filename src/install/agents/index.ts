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
import { omp, pi } from './pi.js';
import { openclaw } from './openclaw.js';

export const AGENTS: readonly AgentTarget[] = [claudeCode, codex, gemini, cursor, copilot, opencode, qwenCode, factory, augment, tabnine, windsurf, kiro, cline, goose, pi, omp, openclaw];

export const AGENT_NAMES: readonly string[] = AGENTS.map((a) => a.name);

/**
 * Agents with no hook file of their own, each read from files another installer writes: the name is
 * refused, naming the installer that covers it. VS Code's agent hooks run `.claude/settings*.json` and
 * `.github/hooks/*.json`; writing a file of its own as well would make it (and Copilot CLI, which reads
 * both too) run every hook twice.
 */
const COVERED: Readonly<Record<string, string>> = {
  vscode: 'VS Code has no hook file of its own: it runs the hooks in .claude/settings*.json and .github/hooks/*.json, so "hooks install claude-code" covers it (add copilot as well and VS Code runs every hook twice)',
};

/** The agent with this name; a `USAGE` error listing the known ones otherwise. */
export function getAgent(name: string | undefined): AgentTarget {
  if (name === undefined) throw new HooksError('USAGE', `name an agent: ${AGENT_NAMES.join(', ')}`);
  if (Object.hasOwn(COVERED, name)) throw new HooksError('USAGE', COVERED[name]!);
  const agent = AGENTS.find((a) => a.name === name);
  if (agent === undefined) throw new HooksError('USAGE', `unknown agent "${name}"${didYouMean(name, AGENT_NAMES)}; agents: ${AGENT_NAMES.join(', ')}`);
  return agent;
}
