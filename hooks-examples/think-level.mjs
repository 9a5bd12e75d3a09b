#!/usr/bin/env node
// Acts on the verdict classify-prompt.py left in the session's metadata bag (agent_hooks_metadata):
// - userPromptSubmit (same run, after the classifier): a prompt classified "thinking: high" gets the
//   context "Think hard ..." (OpenClaw sets the model's think level from it; with a model-level event,
//   answer a parameters rewrite here instead);
// - preToolUse on write/edit/apply_patch (a later event of the session): while the prompt was a
//   question, a change to a file is asked about instead of made.
// Config: see classify-prompt.py. Answers JSON on stdout, or nothing; never fails the run.
import { readFileSync } from 'node:fs';

let event;
try {
  event = JSON.parse(readFileSync(0, 'utf8'));
} catch {
  process.exit(0);
}
const bag = event && typeof event.agent_hooks_metadata === 'object' && event.agent_hooks_metadata !== null ? event.agent_hooks_metadata : {};
const name = process.env.HOOKS_EVENT ?? event?.hook_event_name;

if ((name === 'userPromptSubmit' || name === 'UserPromptSubmit') && bag.thinking === 'high') {
  console.log(JSON.stringify({ additionalContext: 'Think hard: this task was classified as demanding (thinking: high). Plan before you edit.' }));
} else if ((name === 'preToolUse' || name === 'PreToolUse') && bag.intent === 'question') {
  console.log(JSON.stringify({ decision: 'ask', reason: 'the last prompt was a question (classify-prompt); confirm that a file should change' }));
}
