// The system prompt of an `agent` hook's verifier, built as Claude Code 2.1.332 builds it (read in its
// bundle): a Stop/SubagentStop verifier is told it checks a stop condition, any other event's that it
// evaluates that event's hook; then where the transcript is, how to work, and the answer tool.
import { JUDGE_RULES } from '../prompt-text.js';
import { ANSWER_TOOL } from './tools.js';

/** `claudeEvent`: the event's Claude Code name (PreToolUse, Stop...); `transcript`: the readable transcript file, if any. */
export function agentSystemPrompt(claudeEvent: string, transcript: string | undefined): string {
  const stop = claudeEvent === 'Stop' || claudeEvent === 'SubagentStop';
  const task = stop
    ? 'You are verifying a stop condition in Claude Code. Your task is to verify that the agent completed the given plan.'
    : `You are evaluating a ${claudeEvent} hook in Claude Code. Your task is to evaluate the condition described in the user message.`;
  const where =
    transcript === undefined
      ? 'There is no conversation transcript file to read here.'
      : `The conversation transcript is available at: ${transcript}\nYou can read this file to analyze the conversation history if needed.`;
  return `${task} ${where}

Use the available tools to inspect the codebase and verify the condition.
Use as few steps as possible - be efficient and direct.

When done, return your result using the ${ANSWER_TOOL} tool, always with a reason.

${JUDGE_RULES}`;
}
