#!/usr/bin/env python3
"""Classify each prompt and remember the verdict for the rest of the session (OpenClaw's
classifier -> parameters example, as a hook script).

Config (.hooksrc.json), with think-level.mjs after it:
  { "hooks": {
      "userPromptSubmit": [
        { "id": "classify-prompt", "command": "python3 hooks-examples/classify-prompt.py" },
        { "id": "think-level", "command": "node hooks-examples/think-level.mjs" } ],
      "preToolUse": [
        { "id": "think-level", "command": "node hooks-examples/think-level.mjs", "match": ["write", "edit", "apply_patch"] } ] } }

Answers: {"metadata": {"intent": "question" | "change", "thinking": "high" | "low"}} on
stdout, exit 0. agent-hooks merges it into the session's metadata bag: the hooks after this
one in the same run, and every hook of the session's later events, find it on stdin under
"agent_hooks_metadata". A rough keyword classifier; swap in a model call if you like.
"""
import json
import re
import sys

QUESTION = re.compile(r"^\s*(what|why|how|where|when|which|who|explain|describe|is|are|does|do|can)\b", re.I)
HARD = re.compile(r"\b(refactor|architecture|design|migrate|concurren\w*|race|security|performance)\b", re.I)


def main():
    try:
        event = json.load(sys.stdin)
    except ValueError:
        return  # not an event: nothing to classify
    prompt = event.get("prompt") if isinstance(event, dict) else None
    if not isinstance(prompt, str) or prompt.strip() == "":
        return
    intent = "question" if prompt.rstrip().endswith("?") or QUESTION.match(prompt) else "change"
    thinking = "high" if HARD.search(prompt) or len(prompt) > 400 else "low"
    print(json.dumps({"metadata": {"intent": intent, "thinking": thinking}}))


main()
