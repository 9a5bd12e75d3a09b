// The normalized view of a shell command that guards judge instead of raw text.

/** One shell word after quote removal and whatever expansion could be done statically. */
export interface ShellWord {
  /**
   * Quotes removed; `~`, `$HOME` and `${HOME}` at the start become `~`; known variables and
   * `$(echo …)`-style substitutions replaced by their value; anything unknown kept as its source
   * text (`$X`, `$(cmd)`).
   */
  value: string;
  /** Every part was known statically. */
  literal: boolean;
  /**
   * What the word becomes if every unknown expansion is empty (or takes its `${X:-default}`), or
   * `undefined` when an unknown part cannot be empty (`${X:?}`). Equal to `value` for literals.
   * `rm -rf "$DIR"/` is dangerous because its collapsed value is `/`.
   */
  collapsed: string | undefined;
  /** Contains an unknown variable or parameter expansion. */
  unknownVars: boolean;
  /** Contains a command or process substitution whose output is not known. */
  unknownCommands: boolean;
  /** Contains a process substitution `<( )` / `>( )`. */
  processSubstitution: boolean;
  /** Commands run by substitutions inside the word (already judged on their own too). */
  subCommands: SimpleCommand[];
  /** The word as written. */
  text: string;
  /**
   * Set when the word is computed from a dangerous value in a way the walker does not evaluate
   * (`${HOME%/}`, `${HOME:0:1}`, `$(realpath ~)`, `${!NAME}`, `"${arr[@]}"`): why it cannot be
   * verified. A rule that would act on the word treats it as unverifiable.
   */
  opaque?: string;
  /** Holds an unquoted glob (`*`, `?`, `[…]`, extglob). */
  glob?: boolean;
  /** The words an unquoted brace expansion produces (`{rm,-rf}` → `rm`, `-rf`). */
  alternatives?: string[];
  /**
   * Set when the whole word (give or take a trailing `/`) is the output of a command whose output
   * is not known (`"$(tool)"`, `"$d"` after `d=$(tool)`): it could be any path, a home included.
   */
  output?: CommandOutput;
  /** For a process substitution `<(…)`: what it prints, when known. */
  prints?: string;
}

/** The output of a command the walker could not compute. */
export interface CommandOutput {
  /** The substitution or command it comes from, for messages (`$(tool)`). */
  from: string;
  /** Only names paths inside the working directory (`find . -name x`, `git ls-files`). */
  confined: boolean;
}

/** Known text, or what is known about an output that is not (output.ts; here so word-value needs no import of it). */
export type Produced = { value: string } | { output: CommandOutput };

export interface ShellRedirect {
  op: string;
  /** Target as a normalized value (`/etc/passwd`, `&1`, heredoc delimiter). */
  target: string;
  word?: ShellWord;
  /** Heredoc body or here-string text: data unless it is fed to a shell. */
  body?: string;
  /** An unquoted heredoc's body as the shell expands it (`$HOME` → `~`); unknown parts kept as written. */
  expanded?: ShellWord;
  fd?: number;
}

/** A command as the shell runs it, with wrappers (`sudo`, `env`, `xargs`, …) peeled off. */
export interface SimpleCommand {
  /** Values of the words; `argv[0]` is the program basename, lower-cased. Empty for a bare redirection. */
  argv: string[];
  /** The words behind `argv`, same indexes. */
  words: ShellWord[];
  /** The program as written after unwrapping (`/usr/bin/rm`). */
  programPath: string;
  /** The program name is not a literal (`$X -rf /`, `$(…) -rf /`). */
  dynamicProgram: boolean;
  /** Wrappers peeled off, outermost first (`sudo`, `env`, `xargs`, `find -exec`, `bash -c`, …). */
  wrappers: string[];
  /** Environment assignments that apply to this command (`VAR=1 cmd`, `env VAR=1 cmd`). */
  assignments: { name: string; value: string }[];
  redirects: ShellRedirect[];
  /** Commands of the earlier stages of the same pipeline (not those inside substitutions). */
  pipedFrom: SimpleCommand[];
  /** Commands of the later stages of the same pipeline. */
  pipedTo: SimpleCommand[];
  /** Run by xargs with arguments read from stdin that could not be known. */
  stdinArguments: boolean;
  /** With `stdinArguments`: the command whose output xargs reads, as far as it is known. */
  stdinOutput?: CommandOutput;
  /** Words that are run as shell code by this command (`bash -c X`, `eval X`, `su -c X`). */
  codeWords: ShellWord[];
  /** Runs in the background or next to other stages of a pipeline. */
  concurrent: boolean;
  /** Name of the function whose body holds this command. */
  inFunction?: string;
  /**
   * Runs the function's own arguments as its program (`"$@"` in a function body): judged at each
   * call of the function instead.
   */
  runsFunctionArguments?: boolean;
  /** Came from a `$( )`, backticks or `<( )`. */
  inSubstitution: boolean;
  /** Working directory when known statically (after `cd /`), with `~` for home. */
  cwd?: string;
  /** Nesting level of code strings (`bash -c`, `eval`): 0 for the command as given. */
  depth: number;
  /** The simple command's own text, in the script it was parsed from. */
  source: string;
  /** The part of the original command that holds this one, for messages. */
  anchor: string;
}

export interface FunctionDefinition {
  name: string;
  source: string;
  anchor: string;
}

export interface ShellAnalysis {
  commands: SimpleCommand[];
  functions: FunctionDefinition[];
}

export type AnalysisResult = ({ ok: true } & ShellAnalysis) | { ok: false; error: string };
