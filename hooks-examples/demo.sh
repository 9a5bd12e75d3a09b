#!/usr/bin/env bash
# The demo behind `npm run demo`: the bundled example config on three sample events, with the
# trace (--verbose) on stderr and the answer Claude Code would read on stdout.
set -u
cd "$(dirname "$0")/.."
show() {
  local event=$1 file=$2 what=$3
  printf '\n\033[1m$ hooks run %s --config .hooksrc.example.json --verbose < hooks-examples/events/%s\033[0m  # %s\n' "$event" "$file" "$what"
  node bin/hooks.js run "$event" --config .hooksrc.example.json --verbose < "hooks-examples/events/$file"
  printf 'exit %s\n' "$?"
}
show pre-tool-use pre-tool-use.json 'git push --force: blocked'
show pre-tool-use pre-tool-use.ls.json 'ls -la src: rewritten with --color=never'
show session-start session-start.json 'session start: context from git'
