// The codex dialect: Codex CLI reads Claude Code's format, minus what it marks as a failed hook and then
// ignores (ask, and continue:false on PreToolUse), and replaces a tool result only through a block.
import { claudeEventNames, resolveAgentEvent, type EventTable } from './agent-events.js';
import { claudeStyleAnswer, type ClaudeProfile } from './claude-answer.js';
import type { Dialect } from './dialect.js';
import { eventFromClaudePayload } from './payload.js';
import { isRecord, requireRecord, stringField } from './record.js';

const CODEX: ClaudeProfile = { agent: 'Codex', canAsk: false, canDefer: false, canHaltPreToolUse: false, haltByExit2: true, outputRewrite: 'block-reason', rewriteNeedsAllow: true, permissionRequestExtras: false };

export const CODEX_EVENTS: EventTable = {
  ...claudeEventNames(['notification', 'postToolUseFailure']),
  PermissionRequest: 'permissionRequest',
  PostCompact: 'postCompact',
  SubagentStart: 'subagentStart',
  // Codex 0.171: the user interrupted the turn (only systemMessage is read back).
  Interrupt: 'interrupt',
};

export const codex: Dialect = {
  name: 'codex',
  // Claude's format, told apart by what only Codex sends: a turn id, or its rollout transcript file.
  detect: (raw) =>
    isRecord(raw) &&
    typeof raw.hook_event_name === 'string' &&
    (typeof raw.turn_id === 'string' || /(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(stringField(raw, 'transcript_path') ?? '')),
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const { spec } = resolveAgentEvent('codex', CODEX_EVENTS, eventName, stringField(payload, 'hook_event_name'));
    // Codex's payload is already Claude's: Bash input has `command`, apply_patch has the patch in
    // `command` (which sensitive-paths reads), PostToolUse `tool_response` is the output as a string.
    return eventFromClaudePayload(payload, spec.name);
  },
  answer: (decision) => claudeStyleAnswer(decision, CODEX),
};
