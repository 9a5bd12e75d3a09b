#!/usr/bin/env python3
"""Block force pushes: `git push --force`, `git push -f` (also in clusters like -uf),
`git push --mirror` and `+refspec` pushes (`git push origin +main`).

`--force-with-lease` is allowed: it only overwrites the remote branch if it still points
where you last saw it, so it cannot silently destroy commits someone else pushed.

Config (.hooksrc.json):
  { "hooks": { "preToolUse": [
      { "id": "no-force-push", "command": "python3 hooks-examples/no-force-push.py",
        "match": "exec", "onFailure": "block" } ] } }

Answers: exit 2 with a one-line reason on stderr to block; exit 0 and no output otherwise
(also for odd input: a guard that cannot read the event has nothing to judge).
"""
import json
import os
import re
import shlex
import sys

SHELL_TOOLS = {"Bash", "bash", "shell", "Shell", "run_shell_command", "exec"}
SEPARATORS = set(";&|()<>\n")
WRAPPERS = {"sudo", "env", "command", "exec", "nohup", "time", "nice"}
# git options that take their value as the next word (`git -C dir push`).
GIT_OPTS_WITH_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}


def words(command):
    """Shell words, with operators and newlines as separate tokens (quotes respected)."""
    lex = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lex.whitespace = " \t\r"  # newline separates commands, so it must stay a token
    lex.whitespace_split = True
    lex.commenters = ""
    return list(lex)


def simple_commands(tokens):
    current = []
    for tok in tokens:
        if tok and set(tok) <= SEPARATORS:
            if current:
                yield current
            current = []
        else:
            current.append(tok)
    if current:
        yield current


def force_reason(argv):
    while argv and ("=" in argv[0] and not argv[0].startswith("=") or argv[0] in WRAPPERS):
        argv = argv[1:]
    if not argv:
        return None
    name = os.path.basename(argv[0])
    if name in ("bash", "sh", "zsh") and "-c" in argv[1:-1]:
        return check(argv[argv.index("-c") + 1])  # `bash -c "git push -f"` is still a push
    if name != "git":
        return None
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in GIT_OPTS_WITH_VALUE else 1
    if i >= len(argv) or argv[i] != "push":
        return None
    options_done = False
    for arg in argv[i + 1:]:
        if arg == "--":
            options_done = True
        elif not options_done and arg.startswith("--"):
            if arg == "--force" or arg == "--mirror":
                return arg
        elif not options_done and arg.startswith("-") and len(arg) > 1:
            # short options cluster; -o takes the rest of the word as its value
            if "f" in arg[1:].split("o")[0]:
                return arg
        elif arg.startswith("+"):
            return f"refspec {arg}"
    return None


def check(command):
    try:
        tokens = words(command)
    except ValueError:  # unbalanced quotes: fall back to a plain-text look
        m = re.search(r"\bgit\b.*\bpush\b.*?(\s--force(?![-\w])|\s-\w*f\w*\b|\s--mirror\b|\s\+\S+)", command)
        return m.group(1).strip() if m else None
    for argv in simple_commands(tokens):
        reason = force_reason(argv)
        if reason:
            return reason
    return None


def main():
    try:
        event = json.load(sys.stdin)
    except (ValueError, UnicodeDecodeError):
        return 0
    if not isinstance(event, dict):
        return 0
    tool = os.environ.get("HOOKS_TOOL") or event.get("tool_name")
    tool_input = event.get("tool_input")
    if tool not in SHELL_TOOLS or not isinstance(tool_input, dict):
        return 0
    command = tool_input.get("command")
    if not isinstance(command, str):
        return 0
    found = check(command)
    if found:
        print(f"Force push blocked ({found}): it can destroy commits others pushed; "
              "use git push --force-with-lease instead.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
