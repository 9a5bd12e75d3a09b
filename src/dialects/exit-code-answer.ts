// The answer of agents whose hooks reply by exit code alone (Windsurf's Cascade, Kiro): exit 2 with the
// reason on stderr blocks where the agent honours it; nothing else is read back. An ask or an input
// rewrite cannot be said, and carrying on with the original would undo it (often a safety fix), so
// each blocks, saying why. An event agent-hooks does not know takes the forward path: its block is
// passed on as exit 2 for the agent to apply its own semantics (a newer guard event must not fail open).
import type { Decision } from '../decide/combine.js';
import { eventSpec, type EventSpec } from '../events/catalog.js';
import { agentEventName, type EventTable } from './agent-events.js';
import type { Answer } from './dialect.js';
import { originOf } from './origin.js';
import { warningLines } from './warnings.js';

export interface ExitCodeAgent {
  agent: string;
  /** What a rewritten input is called in the reason: Kiro's tool `call`, Cascade's `action`. */
  noun: string;
  /** What happened to it: `denied` or `blocked`. */
  verb: string;
  /** Whether the agent honours exit 2 on this event. */
  blocks(spec: EventSpec, agentEvent: string): boolean;
  /** Whether plain stdout reaches the model as context on this event (none: Windsurf). */
  context(spec: EventSpec): boolean;
  /** The warning when context is dropped. */
  contextNote: string;
}

/** The answer in the agent's own event name: the one it sent, else its table's name for the catalog event. */
export function exitCodeAnswer(decision: Decision, table: EventTable, agent: ExitCodeAgent): Answer {
  const spec = eventSpec(decision.event.name);
  const agentEvent = originOf(decision.event)?.agentEvent ?? agentEventName(table, spec, spec.name);
  const warnings = [...decision.warnings];
  const reason = decision.reason ?? '';
  let block: string | undefined;
  switch (decision.decision) {
    case 'halt':
    case 'block':
      // The agent shows stderr as the reason: an empty one would read as a silent, unexplained denial.
      block = reason.trim() === '' ? (decision.claudeReason?.trim() || 'Blocked by hook') : reason;
      break;
    case 'ask':
      block = `${reason} (a hook asked for confirmation, which ${agent.agent} hooks cannot ask for)`;
      warnings.push(`a hook asked for confirmation, which ${agent.agent} hooks cannot ask for; the ${agent.noun} was ${agent.verb}`);
      break;
    case 'modify':
      if (decision.updatedInput !== undefined || decision.prompt !== undefined) {
        block = `a hook rewrote this ${decision.prompt !== undefined ? 'prompt' : agent.noun}, and ${agent.agent} cannot take a rewrite; it was ${agent.verb}${decision.reason ? ` (${decision.reason})` : ''}`;
      }
      if (decision.updatedOutput !== undefined) warnings.push(`a hook rewrote the output of ${agentEvent}, which ${agent.agent} cannot take; ignored`);
      break;
    case 'allow':
    case 'continue':
      break;
  }
  if (block !== undefined && spec.known && !agent.blocks(spec, agentEvent)) {
    warnings.push(`a hook blocked ${agentEvent}, which ${agent.agent} cannot block; ignored (${block})`);
    block = undefined;
  }
  if (block !== undefined) return { stdout: '', stderr: `${block}\n${warningLines(warnings)}`, exitCode: 2 };
  let stdout = '';
  if (decision.additionalContext.length > 0) {
    if (agent.context(spec)) stdout = `${decision.additionalContext.join('\n\n')}\n`;
    else warnings.push(`${agent.contextNote}; dropped (${agentEvent})`);
  }
  return { stdout, stderr: warningLines(warnings), exitCode: 0 };
}
