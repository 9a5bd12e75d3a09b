#!/usr/bin/env node
// Rewrite shell commands so tools that colour their output don't: ANSI escape codes waste
// the agent's context and garble what it reads. Colour is usually off without a TTY, but
// `color.ui=always`, `FORCE_COLOR` or `CLICOLOR_FORCE` turn it back on.
//   ls / grep / egrep / fgrep   -> `ls --color=never ...` (first, so BSD tools, which stop
//                                  at the first operand, still read it as an option)
//   git diff / git log / git show -> `git diff --color=never ...` (the flag beats any
//                                  color.diff=always in config; `-c color.ui=never` would not)
//   npm                          -> `npm --no-color ...` (npm's `color` setting takes a boolean;
//                                  placed before the script so `npm test -- x` is untouched)
// Commands that already choose (`--color=always`, `--no-color`, `git -c color.ui=...`) are left
// alone, and so is anything with a heredoc, where a rewrite could change the document.
//
// Config (.hooksrc.json):
//   { "hooks": { "preToolUse": [
//       { "id": "add-color-never", "command": "node hooks-examples/add-color-never.mjs", "match": "exec" } ] } }
//
// Answers: {"decision":"modify","updatedInput":{...every original field, "command": new},"reason":...}
// when something changed; exit 0 with no output otherwise (also on odd input).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell', 'Shell', 'run_shell_command', 'exec']);
const COLOR_FLAG = /^--(no-)?colou?rs?(=|$)/;
const LEADING_WORDS = new Set(['{', '!', 'then', 'do', 'else', 'if', 'while', 'until', 'time']);
const GIT_OPTS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);
const GIT_SUBCOMMANDS = new Set(['diff', 'log', 'show']);

// Splits into simple commands of words, each word with its unquoted text, its end offset in
// the original string and whether it was written plainly (no quotes or escapes).
function simpleCommands(cmd) {
  const commands = [[]];
  let word = null;
  const end = (i) => {
    if (word) commands.at(-1).push({ ...word, end: i });
    word = null;
  };
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (';&|()`\n<>'.includes(c)) {
      end(i);
      if (commands.at(-1).length) commands.push([]);
    } else if (c === ' ' || c === '\t' || c === '\r') {
      end(i);
    } else if (c === '#' && !word) {
      while (i + 1 < cmd.length && cmd[i + 1] !== '\n') i++;
    } else {
      word ??= { text: '', plain: true };
      if (c === "'" || c === '"') {
        let j = i + 1;
        while (j < cmd.length && cmd[j] !== c) j += c === '"' && cmd[j] === '\\' ? 2 : 1;
        word.text += cmd.slice(i + 1, j);
        word.plain = false;
        i = j;
      } else if (c === '\\') {
        word.text += cmd[++i] ?? '';
        word.plain = false;
      } else {
        word.text += c;
      }
    }
  }
  end(cmd.length);
  return commands.filter((words) => words.length);
}

// Returns [offset, flag, label] for one simple command, or null when it stays as it is.
function insertion(words) {
  let i = 0;
  while (i < words.length && (LEADING_WORDS.has(words[i].text) || /^\w+=/.test(words[i].text))) i++;
  const head = words[i];
  if (!head?.plain || words.some((w) => COLOR_FLAG.test(w.text))) return null;
  const name = basename(head.text);
  if (['ls', 'grep', 'egrep', 'fgrep'].includes(name)) return [head.end, '--color=never', name];
  if (name === 'npm') return [head.end, '--no-color', name];
  if (name !== 'git') return null;
  for (i++; i < words.length && words[i].text.startsWith('-'); i++) {
    if (GIT_OPTS_WITH_VALUE.has(words[i].text)) {
      if (words[i].text === '-c' && /^colou?r\./.test(words[i + 1]?.text ?? '')) return null;
      i++;
    }
  }
  const sub = words[i];
  return sub?.plain && GIT_SUBCOMMANDS.has(sub.text) ? [sub.end, '--color=never', `git ${sub.text}`] : null;
}

function main() {
  let event;
  try {
    event = JSON.parse(readFileSync(0, 'utf8'));
  } catch {
    return;
  }
  const tool = process.env.HOOKS_TOOL || event?.tool_name;
  const input = event?.tool_input;
  if (!SHELL_TOOLS.has(tool) || typeof input?.command !== 'string' || input.command.includes('<<')) return;

  const edits = simpleCommands(input.command).map(insertion).filter(Boolean);
  if (!edits.length) return;
  const tools = [...new Set(edits.map((e) => e[2]))].join(', ');
  let command = input.command;
  // Insert from the end so earlier offsets stay valid.
  for (const [at, flag] of [...edits].sort((a, b) => b[0] - a[0])) {
    command = `${command.slice(0, at)} ${flag}${command.slice(at)}`;
  }
  process.stdout.write(
    JSON.stringify({
      decision: 'modify',
      updatedInput: { ...input, command },
      reason: `Turned colour off for ${tools}: ANSI escape codes would garble the output the agent reads.`,
    }) + '\n',
  );
}

main();
