#!/usr/bin/env bash
# Append one line per tool call to a log file: UTC time, event, tool, and the command or
# file path when the call has one, tab-separated:
#   2025-06-01T12:00:00Z  postToolUse  exec  npm test
#
# Config (.hooksrc.json): log what actually ran (postToolUse + postToolUseFailure), or use
# preToolUse with a high priority to also log calls a later guard blocks (a block ends the
# chain, so a logger after it never sees the call).
#   { "hooks": {
#       "postToolUse":        [{ "id": "log-tool-call", "command": "hooks-examples/log-tool-call.sh" }],
#       "postToolUseFailure": [{ "id": "log-tool-call", "command": "hooks-examples/log-tool-call.sh" }] } }
# Log file: $HOOKS_LOG_FILE, default $HOOKS_PROJECT_DIR/.hooks/tool-calls.log (folder created).
#
# Answers: always exit 0 with no stdout. A logger must never get in the agent's way: odd
# input is logged as it is, and a log it cannot write is a one-line warning on stderr.
#
# Fields are read with python3 or node when present; without either, the raw event is
# logged, squeezed onto one line, so nothing is lost.

input=$(cat 2>/dev/null)
log_file=${HOOKS_LOG_FILE:-${HOOKS_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-.}}/.hooks/tool-calls.log}

# Prints "event<US>tool<US>detail" (US = \x1f, so empty fields survive `read`).
py_fields='
import json, sys
try: e = json.loads(sys.stdin.read())
except Exception: e = {}
e = e if isinstance(e, dict) else {}
ti = e.get("tool_input") if isinstance(e.get("tool_input"), dict) else {}
d = next((ti[k] for k in ("command", "file_path", "notebook_path", "path", "url", "pattern", "query") if isinstance(ti.get(k), str) and ti[k]), "")
clean = lambda s: " ".join(str(s or "").replace("\x1f", " ").split())
print("\x1f".join(clean(x) for x in (e.get("hook_event_name"), e.get("tool_name"), d)))
'
node_fields='
let e = {}; try { e = JSON.parse(require("fs").readFileSync(0, "utf8")) } catch {}
if (!e || typeof e !== "object") e = {};
const ti = e.tool_input && typeof e.tool_input === "object" ? e.tool_input : {};
const d = ["command", "file_path", "notebook_path", "path", "url", "pattern", "query"].map((k) => ti[k]).find((v) => typeof v === "string" && v) || "";
const clean = (s) => String(s ?? "").replace(/[\s\x1f]+/g, " ").trim();
console.log([e.hook_event_name, e.tool_name, d].map(clean).join("\x1f"));
'

if command -v python3 >/dev/null 2>&1; then
  fields=$(printf '%s' "$input" | python3 -c "$py_fields" 2>/dev/null)
elif command -v node >/dev/null 2>&1; then
  fields=$(printf '%s' "$input" | node -e "$node_fields" 2>/dev/null)
fi

if [ -n "${fields:-}" ]; then
  IFS=$'\x1f' read -r event tool detail <<<"$fields"
else
  event='' tool='' detail="raw: $(printf '%s' "$input" | tr -s '\t\r\n' '   ')"
fi
# The runner's names are canonical (exec, postToolUse); the event's are the agent's own.
event=${HOOKS_EVENT:-${event:-?}}
tool=${HOOKS_TOOL:-${tool:--}}

mkdir -p "$(dirname "$log_file")" 2>/dev/null
# One short printf with >> is a single O_APPEND write, so concurrent hooks do not interleave.
{ printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$event" "$tool" "$detail" >>"$log_file"; } 2>/dev/null ||
  echo "log-tool-call: cannot write $log_file" >&2
exit 0
