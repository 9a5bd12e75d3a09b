// The launcher around every sandbox: a fixed /bin/sh script, run on the host as the caller, that puts
// the empty placeholders in place before the sandbox starts and removes them after it ends.
//
// A read-only mount needs a place to sit, and a path that does not exist yet (`.git/hooks` of a clone
// made without hooks, `.envrc`, `.claude/`) has none: the launcher creates it empty, the sandbox binds
// it read-only (so nothing can be written or created there), and the launcher takes away what it
// created once the sandbox has ended (an empty folder with rmdir, a file only while still empty). A
// sandbox killed with SIGKILL leaves them behind: empty, and running nothing.
//
// Arguments: n kind_1 path_1 … -- sandbox-argv…: n words, then each placeholder as two words, its
// kind (`d` a folder, `f` a file) and its absolute path, parents before children.
// (Written with `test` and few patterns: the shell guards read this script as code, and a word with
// many glob characters in it is one they cannot verify.)
export const LAUNCH = String.raw`cleanup() {
  printf '%s' "$made" | while IFS= read -r p; do
    if test -d "$p" && test ! -L "$p"; then rmdir -- "$p" 2>/dev/null
    elif test -f "$p" && test ! -L "$p" && test ! -s "$p"; then rm -f -- "$p"; fi
  done
}
fail() { cleanup; printf 'agent-hooks sandbox: %s\n' "$1" >&2; exit 125; }
made=''
n=$1
shift || fail 'bad arguments'
while test "$n" -gt 0; do
  k=$1 p=$2
  shift 2 || fail 'bad arguments'
  n=$((n-2))
  case $p in /*) ;; *) fail 'bad arguments' ;; esac
  if test "$k" = d; then
    if mkdir -- "$p" 2>/dev/null; then made="$p
$made"; elif test ! -d "$p" || test -L "$p"; then fail "cannot make an empty placeholder folder at $p"; fi
  elif test "$k" = f; then
    if (set -C; : > "$p") 2>/dev/null; then made="$p
$made"; elif test ! -f "$p" || test -L "$p"; then fail "cannot make an empty placeholder file at $p"; fi
  else fail 'bad arguments'; fi
done
test "$1" = -- || fail 'bad arguments'
shift
trap 'cleanup; exit 129' HUP
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
"$@"
rc=$?
cleanup
exit "$rc"`;

/** The name the launcher runs under ($0): how the shell analysis knows a rewrite of ours. */
export const LAUNCH_NAME = 'agent-hooks-launch';
