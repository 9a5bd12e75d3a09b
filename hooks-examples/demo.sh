#!/usr/bin/env bash
# The demo behind `npm run demo`: the bundled example config on three sample events, with the
# trace (--verbose) on stderr and the answer Claude Code would read on stdout; a built-in guard on
# its own (no config at all); then the example's test cases through `hooks test`. The config is
# named with --config, so it runs whatever project config search or trust would say.
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

# A first-party guard needs no config and no script: an agent's settings can call it directly.
printf '\n%s$ node bin/hooks.js guard command-safety < hooks-examples/events/pre-tool-use.no-verify.json%s  # built-in guard: git commit --no-verify blocked\n' "$bold" "$plain"
node bin/hooks.js guard command-safety < hooks-examples/events/pre-tool-use.no-verify.json
printf '\nexit %s\n' "$?"
# Hooks are tested like code: events and the decisions they must get, run through the same engine.
printf '\n%s$ node bin/hooks.js test hooks-tests/no-force-push.json%s  # test cases for the example guard\n' "$bold" "$plain"
node bin/hooks.js test hooks-tests/no-force-push.json
tested=$?
printf 'exit %s\n' "$tested"
# A failing case fails the demo (npm run demo in CI).
exit "$tested"
