#!/usr/bin/env python3
"""Give the agent its bearings when a session starts: the current git branch, the last
three commit subjects and how many files have uncommitted changes.

Config (.hooksrc.json):
  { "hooks": { "sessionStart": [
      { "id": "session-context", "command": "python3 hooks-examples/session-context.py" } ] } }

Answers: {"additionalContext": "Git branch: main\\nRecent commits: ...\\nUncommitted changes: 2 files"}
on stdout, exit 0. Every part is optional: without git, outside a repository, or when git
is slow, it prints nothing rather than delay the session. (Run by Claude Code directly,
without the runner, it would print the text itself: plain stdout is context there too.)
"""
import json
import os
import subprocess
import sys

GIT_TIMEOUT = 3  # seconds per git call; a session start must stay fast


def git(cwd, *args):
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=GIT_TIMEOUT,
            # status must not take the index lock the agent's own git commands may need
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def project_dir(event):
    candidates = [os.environ.get("HOOKS_PROJECT_DIR"), os.environ.get("CLAUDE_PROJECT_DIR"),
                  event.get("cwd"), os.getcwd()]
    return next(d for d in candidates if isinstance(d, str) and d and os.path.isdir(d))


def main():
    try:
        event = json.loads(sys.stdin.read() or "{}")
    except (ValueError, UnicodeDecodeError):
        event = {}  # the context does not depend on the event, so carry on
    cwd = project_dir(event if isinstance(event, dict) else {})
    if git(cwd, "rev-parse", "--is-inside-work-tree") is None:
        return

    lines = []
    # symbolic-ref works on a fresh repository with no commits; rev-parse covers detached HEAD
    branch = git(cwd, "symbolic-ref", "--short", "-q", "HEAD")
    if branch and branch.strip():
        lines.append(f"Git branch: {branch.strip()}")
    else:
        head = git(cwd, "rev-parse", "--short", "HEAD")
        if head:
            lines.append(f"Git: detached HEAD at {head.strip()}")
    subjects = (git(cwd, "log", "-3", "--format=%s") or "").splitlines()
    if subjects:
        lines.append("Recent commits:\n" + "\n".join(f"- {s}" for s in subjects))
    status = git(cwd, "status", "--porcelain", "--untracked-files=all")  # files, not folders
    if status is not None:
        count = len(status.splitlines())
        lines.append(f"Uncommitted changes: {count} file{'' if count == 1 else 's'}" if count
                     else "Working tree clean")
    if lines:
        print(json.dumps({"additionalContext": "\n".join(lines)}))


if __name__ == "__main__":
    main()
