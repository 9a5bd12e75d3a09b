#!/usr/bin/env bash
# Ask before the agent writes or edits a lockfile (package-lock.json, yarn.lock,
# pnpm-lock.yaml, Cargo.lock, poetry.lock, and a few more). Lockfiles are generated: a
# hand edit easily leaves them out of step with the manifest, and the usual right move is
# to change the manifest and let the package manager rewrite the lockfile.
#
# Config (.hooksrc.json):
#   { "hooks": { "preToolUse": [
#       { "id": "protect-lockfiles", "command": "hooks-examples/protect-lockfiles.sh", "match": ["write", "edit"] } ] } }
#
# Answers: {"decision":"ask","reason":"..."} on stdout for a lockfile; exit 0 with no output
# for anything else (other tools, other files, odd input).

input=$(cat 2>/dev/null)

case "${HOOKS_TOOL:-}" in
  write | edit) ;;
  "") # run without the runner: judge by the agent's own tool name
    printf '%s' "$input" | grep -Eq '"tool_name"[[:space:]]*:[[:space:]]*"(Write|Edit|MultiEdit)"' || exit 0 ;;
  *) exit 0 ;;
esac

if command -v python3 >/dev/null 2>&1; then
  path=$(printf '%s' "$input" | python3 -c '
import json, sys
try: ti = json.load(sys.stdin).get("tool_input")
except Exception: ti = None
p = ti.get("file_path") if isinstance(ti, dict) else None
print(p if isinstance(p, str) else "")' 2>/dev/null)
else
  # Good enough for a suffix check: the first "file_path": "..." value, escapes kept as written.
  path=$(printf '%s' "$input" | sed -nE 's/.*"file_path"[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)".*/\1/p' | head -n 1)
fi

name=${path##*/}
case "$name" in
  package-lock.json | npm-shrinkwrap.json) how="npm install" ;;
  yarn.lock) how="yarn install" ;;
  pnpm-lock.yaml) how="pnpm install" ;;
  bun.lock) how="bun install" ;;
  Cargo.lock) how="cargo check" ;;
  poetry.lock) how="poetry lock" ;;
  uv.lock) how="uv lock" ;;
  Gemfile.lock) how="bundle install" ;;
  *) exit 0 ;;
esac

# $name is one of the fixed names above, so it is safe inside the JSON string.
printf '{"decision":"ask","reason":"%s is generated: change the manifest and run `%s` instead of editing it by hand. Allow this direct edit?"}\n' "$name" "$how"
exit 0
