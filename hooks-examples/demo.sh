#!/usr/bin/env bash
# The demo behind `npm run demo`: the bundled example config on three sample events, with the
# trace (--verbose) on stderr and the answer Claude Code would read on stdout. The config is named
# with --config, so it runs whatever project config search or trust would say.
set -u
cd "$(dirname "$0")/.."
# Bold headings only on a terminal, and never with NO_COLOR set (https://no-color.org): a log or a
# pipe gets plain text, not escape codes.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-}" != dumb ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
show() {
  local event=$1 file=$2 what=$3
  printf '\n%s$ node bin/hooks.js run %s --config .hooksrc.example.json --verbose < hooks-examples/events/%s%s  # %s\n' "$bold" "$event" "$file" "$plain" "$what"
  node bin/hooks.js run "$event" --config .hooksrc.example.json --verbose < "hooks-examples/events/$file"
  printf 'exit %s\n' "$?"
}
show pre-tool-use pre-tool-use.json 'git push --force: blocked'
show pre-tool-use pre-tool-use.ls.json 'ls -la src: rewritten with --color=never'
show session-start session-start.json 'session start: context from git'
