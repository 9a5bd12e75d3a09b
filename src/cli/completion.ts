// `hooks completion <shell>`: a completion script for bash, zsh or fish, written from the command table
// and each command's own flags, so it cannot go stale. Pure: the caller gathers the table.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** One command as completion sees it: its name, one line on it, its flags, and words for its first argument. */
export interface CompletionEntry {
  name: string;
  summary: string;
  flags: string[];
  words: string[];
}

export const COMPLETION_HELP = `Usage: hooks completion <bash|zsh|fish>

Prints a completion script for the shell: commands, each command's options, guard ids after
"hooks guard", actions after "hooks serve". It completes both names, hooks and agent-hooks.

  bash   echo 'source <(hooks completion bash)' >> ~/.bashrc
  zsh    hooks completion zsh > "\${fpath[1]}/_hooks"   (or: source <(hooks completion zsh) in ~/.zshrc)
  fish   hooks completion fish > ~/.config/fish/completions/hooks.fish
         hooks completion fish > ~/.config/fish/completions/agent-hooks.fish
`;

export function completionScript(shell: Shell, entries: readonly CompletionEntry[]): string {
  switch (shell) {
    case 'bash':
      return bash(entries);
    case 'zsh':
      return zsh(entries);
    case 'fish':
      return fish(entries);
  }
}

// --- internal ---

const NAMES = ['hooks', 'agent-hooks'];
const TOP_FLAGS = ['--help', '--version'];

/** A word every shell takes in single quotes as it is (ids and flags are [a-z0-9-]; anything else is dropped). */
function safe(words: readonly string[]): string[] {
  return words.filter((w) => /^[A-Za-z0-9_.:=+-]+$/.test(w));
}

function bash(entries: readonly CompletionEntry[]): string {
  const cases = entries
    .map((e) => `    ${e.name}) flags='${safe(e.flags).join(' ')}'; words='${safe(e.words).join(' ')}' ;;`)
    .join('\n');
  return `# agent-hooks completion for bash: source <(hooks completion bash)
_agent_hooks() {
  local cur=\${COMP_WORDS[COMP_CWORD]} flags='' words=''
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W '${safe(entries.map((e) => e.name)).join(' ')} ${TOP_FLAGS.join(' ')}' -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags --help" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 2 ] && [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _agent_hooks ${NAMES.join(' ')}
`;
}

function zsh(entries: readonly CompletionEntry[]): string {
  const commands = entries.map((e) => `    '${e.name}:${e.summary.replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`).join('\n');
  const cases = entries
    .map((e) => `    ${e.name}) flags=(${safe(e.flags).join(' ')} --help); choices=(${safe(e.words).join(' ')}) ;;`)
    .join('\n');
  return `#compdef ${NAMES.join(' ')}
# agent-hooks completion for zsh: hooks completion zsh > "\${fpath[1]}/_hooks"
_agent_hooks() {
  # words is zsh's own array of the line being completed: the first argument's choices get another name.
  local -a commands flags choices
  commands=(
${commands}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'hooks command' commands
    compadd -- ${TOP_FLAGS.join(' ')}
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
  if [[ "\${PREFIX}" == -* ]]; then
    compadd -- $flags
  elif (( CURRENT == 3 )) && (( \${#choices} > 0 )); then
    compadd -- $choices
  else
    _files
  fi
}
# Autoloaded from fpath (as _hooks), this file is the completion function; sourced, it registers one.
if [[ "\${funcstack[1]}" == _hooks ]]; then
  _agent_hooks "$@"
else
  compdef _agent_hooks ${NAMES.join(' ')}
fi
`;
}

function fish(entries: readonly CompletionEntry[]): string {
  const lines: string[] = ['# agent-hooks completion for fish: hooks completion fish > ~/.config/fish/completions/hooks.fish'];
  const all = safe(entries.map((e) => e.name)).join(' ');
  for (const name of NAMES) {
    lines.push(`complete -c ${name} -f`);
    lines.push(`complete -c ${name} -n 'not __fish_seen_subcommand_from ${all}' -l help -d 'show help'`);
    lines.push(`complete -c ${name} -n 'not __fish_seen_subcommand_from ${all}' -l version -s V -d 'print the version'`);
    for (const e of entries) {
      const summary = e.summary.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
      lines.push(`complete -c ${name} -n 'not __fish_seen_subcommand_from ${all}' -a ${e.name} -d '${summary}'`);
      for (const flag of safe(e.flags)) lines.push(`complete -c ${name} -n '__fish_seen_subcommand_from ${e.name}' -l ${flag.replace(/^--/, '')}`);
      const words = safe(e.words);
      if (words.length > 0) lines.push(`complete -c ${name} -n '__fish_seen_subcommand_from ${e.name}' -a '${words.join(' ')}'`);
      // Paths for the commands that take files (hooks test, --config ...).
      lines.push(`complete -c ${name} -n '__fish_seen_subcommand_from ${e.name}' -F`);
    }
  }
  return `${lines.join('\n')}\n`;
}
