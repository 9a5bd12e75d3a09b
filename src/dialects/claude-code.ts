// The claude-code dialect: exactly what Claude Code reads from a command hook. A block is exit 2 with
// the reason on stderr *and* the JSON form on stdout, so both older releases (stderr only) and newer
// ones (JSON on exit 2) see the same reason.
import { claudeStyleAnswer, type ClaudeProfile } from './claude-answer.js';
import type { Dialect } from './dialect.js';
import { eventFromClaudePayload } from './payload.js';
import { isRecord } from './record.js';

const CLAUDE_CODE: ClaudeProfile = { agent: 'Claude Code', canAsk: true, canDefer: true, canHaltPreToolUse: true, haltByExit2: false, outputRewrite: 'updatedToolOutput', rewriteNeedsAllow: false, permissionRequestExtras: true, claudeWording: true };

export const claudeCode: Dialect = {
  name: 'claude-code',
  // Checked after every more specific dialect: any payload with a hook_event_name in Claude's
  // PascalCase spelling is Claude Code's (or an agent that copies it and needs nothing more).
  detect: (raw) => isRecord(raw) && typeof raw.hook_event_name === 'string' && /^[A-Z][A-Za-z]*$/.test(raw.hook_event_name),
  toEvent: eventFromClaudePayload,
  answer: (decision) => claudeStyleAnswer(decision, CLAUDE_CODE),
};
