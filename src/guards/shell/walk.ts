// Walks an unbash tree and yields every simple command the shell would run, normalized.
import { forEachChild, type CompoundList, type ParsedScript, type Redirection, type Statement, type SyntaxNode, type Word } from 'unbash';
import { type Budget, ShellAnalysisError } from './limits.js';
import { assertClean, parseScript } from './parse.js';
import { normalizePath } from './paths.js';
import { programName } from './program.js';
import type { CommandOutput, FunctionDefinition, ShellRedirect, ShellWord, SimpleCommand } from './types.js';
import { type KnownValue, type WordScope, literalWord, resolveWord } from './word-value.js';
import { unwrap } from './wrappers.js';
import { codeOf, findExecCommands, staticStdout } from './code-runners.js';
import { commandOutput, substitutionOutput } from './output.js';
import { fromWord as known, variablesSetBy } from './variables.js';
import { configDefinition, gitCall, isGitBuiltin, parseGitConfig, runsCommand, splitAlias, type GitEnvLookup } from './git-aliases.js';

/** State that flows through a script in order (`X=/; cd /; rm -rf $X`). */
interface Scope {
  env: Map<string, KnownValue>;
  cwd: string | undefined;
  depth: number;
  subLevel: number;
  anchor: string | undefined;
  inFunction: string | undefined;
  wrappers: string[];
  /** Commands run by `parallel` with inputs that are not known. */
  unknownArguments?: boolean;
}

/** What a command inherits from the pipeline or statement around it. */
interface Flags {
  concurrent: boolean;
  pipedFrom: SimpleCommand[];
  previousStage: SimpleCommand[];
  inPipeline: boolean;
}

/** Most code strings one command may run (`python3 -c` with many `os.system(…)` calls). */
const MAX_CODE_BODIES = 64;

const NO_FLAGS: Flags = { concurrent: false, pipedFrom: [], previousStage: [], inPipeline: false };

interface Collector {
  list: SimpleCommand[];
  /** Only commands at this substitution level (the direct commands of a pipeline stage). */
  level?: number;
}

export class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly functions: FunctionDefinition[] = [];
  private readonly collectors: Collector[] = [];
  /** Functions whose body runs its arguments as a command (`retry(){ "$@" || …; }`). */
  private readonly argumentRunners = new Set<string>();
  private nesting = 0;
  /**
   * Git aliases set by `git config alias.x …` so far (undefined: unset). Written to a config
   * file, they outlive the subshell that set them, so they are not scoped.
   */
  private readonly definedAliases = new Map<string, string | undefined>();
  /** A git config file an earlier command wrote with text not known: any alias may be in it. */
  private configWritten: string | undefined;

  /**
   * `home`, when given, is the user's home as an absolute path: words that start with it are
   * spelled with `~`, so `/home/dev` and `~` are the same directory to the rules. `gitAliases` are
   * those of the user's and the repository's git config.
   */
  constructor(private readonly budget: Budget, private readonly home?: string, private readonly gitAliases?: ReadonlyMap<string, string>) {}

  /** Entry point: the command exactly as the agent sent it, run in `cwd` when known. */
  walkSource(source: string, cwd?: string): void {
    const script = parseScript(source, this.budget);
    this.script(script, source, {
      env: new Map(),
      cwd,
      depth: 0,
      subLevel: 0,
      anchor: undefined,
      inFunction: undefined,
      wrappers: [],
    });
  }

  private script(script: ParsedScript, src: string, scope: Scope): void {
    assertClean(script);
    const source = script.source ?? src;
    for (const statement of script.commands) this.statement(statement, source, scope, NO_FLAGS);
  }

  private list(list: CompoundList, src: string, scope: Scope, flags: Flags): void {
    for (const statement of list.commands) this.statement(statement, src, scope, flags);
  }

  private statement(statement: Statement, src: string, scope: Scope, flags: Flags): void {
    const concurrent = flags.concurrent || statement.background === true;
    this.node(statement.command, src, scope, { ...flags, concurrent });
  }

  private enter(): void {
    this.budget.tick();
    this.nesting += 1;
    if (this.nesting > this.budget.limits.maxDepth) {
      throw new ShellAnalysisError(`syntax nested deeper than ${this.budget.limits.maxDepth}`);
    }
  }

  private node(node: SyntaxNode, src: string, scope: Scope, flags: Flags): void {
    this.enter();
    try {
      this.dispatch(node, src, scope, flags);
    } finally {
      this.nesting -= 1;
    }
  }

  private dispatch(node: SyntaxNode, src: string, scope: Scope, flags: Flags): void {
    switch (node.type) {
      case 'AndOr':
        for (const command of node.commands) this.node(command, src, scope, flags);
        return;
      case 'Pipeline':
        this.pipeline(node, src, scope, flags);
        return;
      case 'Command':
        this.command(node, src, scope, flags);
        return;
      case 'Function': {
        const anchor = scope.anchor ?? text(src, node);
        this.functions.push({ name: node.name.value, source: text(src, node), anchor });
        // The body runs when called, with its own variables; walking it here judges it once.
        this.node(node.body, src, { ...child(scope), inFunction: node.name.value, anchor }, NO_FLAGS);
        return;
      }
      case 'Subshell':
        this.list(node.body, src, child(scope), flags);
        return;
      case 'BraceGroup':
      case 'CompoundList':
        this.list(node.type === 'BraceGroup' ? node.body : node, src, scope, flags);
        return;
      case 'If':
        this.list(node.clause, src, scope, flags);
        this.list(node.then, src, scope, flags);
        for (const elif of node.elif) {
          this.list(elif.clause, src, scope, flags);
          this.list(elif.then, src, scope, flags);
        }
        if (node.else) this.list(node.else, src, scope, flags);
        return;
      case 'While':
        this.list(node.clause, src, scope, flags);
        this.list(node.body, src, scope, flags);
        return;
      case 'For':
      case 'Select':
        this.loop(node.name.value, node.wordlist, node.body, src, scope, flags);
        return;
      case 'Case': {
        this.word(node.word, src, scope);
        for (const item of node.items) {
          for (const pattern of item.pattern) this.word(pattern, src, scope);
          this.list(item.body, src, scope, flags);
        }
        return;
      }
      case 'Redirected': {
        this.node(node.command, src, scope, flags);
        const redirects = this.redirects(node.redirects, src, scope);
        this.emitBare(redirects, src, node, scope, flags);
        return;
      }
      case 'Coproc':
        this.node(node.body, src, child(scope), { ...flags, concurrent: true });
        return;
      default:
        this.generic(node, src, scope);
    }
  }

  /** Test and arithmetic commands only matter for the substitutions inside them. */
  private generic(node: SyntaxNode, src: string, scope: Scope): void {
    forEachChild(node, (childNode) => {
      this.budget.tick();
      if (childNode.type === 'Word') this.word(childNode, src, scope);
      else if (childNode.type === 'ArithmeticCommandExpansion' || childNode.type === 'CommandExpansion' || childNode.type === 'ProcessSubstitution') {
        this.substitute(childNode.script, src, scope);
      } else this.generic(childNode, src, scope);
    });
  }

  private loop(
    name: string,
    wordlist: readonly Word[] | undefined,
    body: CompoundList,
    src: string,
    scope: Scope,
    flags: Flags,
  ): void {
    const words = (wordlist ?? []).map((w) => this.word(w, src, scope));
    const unroll = wordlist !== undefined && words.length > 0 && words.length <= this.budget.limits.maxLoopUnroll
      && words.every((w) => w.literal);
    if (unroll) {
      // `for d in / ~; do rm -rf "$d"; done`: each literal value is walked as if written out.
      for (const w of words) {
        scope.env.set(name, known(w));
        this.list(body, src, scope, flags);
      }
    } else {
      // `for d in $(tool)`: each `$d` is a line of the tool's output, whatever that is.
      const output = words.find((w) => w.output !== undefined && !w.output.confined)?.output ?? (words.length === 1 ? words[0]!.output : undefined);
      if (output) scope.env.set(name, { value: `$${name}`, literal: false, collapsed: '', unknownVars: true, unknownCommands: true, output });
      else scope.env.delete(name);
      this.list(body, src, scope, flags);
    }
    scope.env.delete(name);
  }

  private pipeline(node: Extract<SyntaxNode, { type: 'Pipeline' }>, src: string, scope: Scope, flags: Flags): void {
    const anchored = this.anchored(scope, flags, text(src, node));
    const multi = node.commands.length > 1;
    const stages: SimpleCommand[][] = [];
    let earlier = flags.pipedFrom;
    let previous = flags.previousStage;
    for (const stage of node.commands) {
      const direct = this.collect(
        () =>
          this.node(stage, src, multi ? child(anchored) : anchored, {
            concurrent: flags.concurrent || multi,
            pipedFrom: earlier,
            previousStage: previous,
            inPipeline: flags.inPipeline || multi,
          }),
        anchored.subLevel,
      );
      stages.push(direct);
      earlier = [...earlier, ...direct];
      previous = direct;
    }
    stages.forEach((direct, i) => {
      const later = stages.slice(i + 1).flat();
      for (const command of direct) command.pipedTo.push(...later);
    });
  }

  /** At the top level each pipeline or command is what a message should quote. */
  private anchored(scope: Scope, flags: Flags, own: string): Scope {
    if (scope.depth > 0 || scope.subLevel > 0 || flags.inPipeline) return { ...scope, anchor: scope.anchor ?? own };
    return { ...scope, anchor: own };
  }

  private command(node: Extract<SyntaxNode, { type: 'Command' }>, src: string, outer: Scope, flags: Flags): void {
    const scope = this.anchored(outer, flags, text(src, node));
    const assignments: { name: string; value: string }[] = [];
    const bare = node.name === undefined;
    for (const prefix of node.prefix) {
      if (prefix.type !== 'Assignment') continue;
      const value = this.assignmentValue(prefix, src, scope);
      assignments.push({ name: prefix.name, value: value.value });
      // `X=/ rm $X` expands $X before the assignment, so only bare assignments set variables.
      if (bare) outer.env.set(prefix.name, known(value));
    }
    const redirects = this.redirects(node.redirects, src, scope);
    if (bare) {
      this.emitBare(redirects, src, node, scope, flags);
      return;
    }
    const words: ShellWord[] = [];
    const declaring = /^(export|declare|local|typeset|readonly)$/.test(node.name!.value);
    // `declare -n ref=HOME`: `$ref` reads HOME.
    const nameref = declaring && node.args.some((a) => a.type === 'Word' && /^-[a-zA-Z]*n/.test(a.text));
    for (const item of [node.name!, ...node.args]) {
      if (item.type === 'Assignment') {
        const value = this.assignmentValue(item, src, scope);
        if (nameref) {
          const target = value.literal ? (value.value === 'HOME' ? HOME_VALUE : outer.env.get(value.value)) : undefined;
          if (target) outer.env.set(item.name, target);
          else outer.env.set(item.name, { value: `\${!${item.name}}`, literal: false, collapsed: '', unknownVars: true, unknownCommands: false });
        } else if (declaring) outer.env.set(item.name, known(value));
        words.push({ ...value, value: `${item.name}=${value.value}`, collapsed: undefined, text: item.text });
      } else words.push(...splitUnquoted(item, this.word(item, src, scope), scope));
    }
    if (words[0]?.literal && words[0].value === 'set') setPositional(words, outer);
    this.emitWords(words, redirects, assignments, outer, scope, flags, text(src, node));
  }

  /** Emits a command from its words, after unwrapping; recurses into what it runs. */
  private emitWords(
    input: ShellWord[],
    redirects: ShellRedirect[],
    prefixAssignments: { name: string; value: string }[],
    outer: Scope,
    scope: Scope,
    flags: Flags,
    source: string,
  ): void {
    const unwrapped = unwrap(input);
    let words = unwrapped.words;
    let stdinArguments = scope.unknownArguments === true;
    if (unwrapped.parallel) {
      this.parallel(words, unwrapped, redirects, scope, flags);
      return;
    }
    let stdinOutput: CommandOutput | undefined;
    if (unwrapped.xargs) {
      const items = stdinItems(flags.previousStage, redirects);
      if (items === undefined) {
        stdinArguments = true;
        stdinOutput = pipedOutput(flags.previousStage, redirects);
      } else words = applyXargs(words, items, unwrapped.xargs.replace);
    }
    const first = words[0];
    if (!first && redirects.length === 0 && unwrapped.splitString === undefined) return;
    const argv = words.map((w) => w.value);
    if (first?.literal && !first.glob) argv[0] = programName(first.value);
    const command: SimpleCommand = {
      ...placed(redirects, scope, flags, source),
      argv,
      words,
      programPath: first?.value ?? '',
      dynamicProgram: first !== undefined && (!first.literal || first.glob === true || first.opaque !== undefined),
      wrappers: [...scope.wrappers, ...unwrapped.wrappers],
      assignments: [...prefixAssignments, ...unwrapped.assignments],
      stdinArguments,
      ...(stdinOutput !== undefined ? { stdinOutput } : {}),
      ...(scope.inFunction !== undefined ? { inFunction: scope.inFunction } : {}),
    };
    if (unwrapped.notRun) {
      this.emit(command, scope);
      return;
    }
    if (scope.inFunction !== undefined && first?.opaque !== undefined && /positional/.test(first.opaque)) {
      this.argumentRunners.add(scope.inFunction);
      command.runsFunctionArguments = true;
    }
    const code = codeOf(command, unwrapped.splitString);
    command.codeWords = code?.words ?? [];
    this.emit(command, scope);

    if (argv[0] === 'cd' || argv[0] === 'pushd') {
      const previous = outer.cwd;
      outer.cwd = changeDirectory(words, outer.cwd, outer.env.get('OLDPWD'));
      // `~-` and `cd -` read OLDPWD.
      if (previous !== undefined) outer.env.set('OLDPWD', knownPath(previous));
      else outer.env.delete('OLDPWD');
    }
    for (const set of variablesSetBy(command, flags.previousStage)) {
      if (set.value) outer.env.set(set.name, set.value);
      else outer.env.delete(set.name);
    }
    if (first?.literal && words.length > 1 && this.argumentRunners.has(first.value)) {
      // `retry rm -rf /` with `retry(){ "$@"; }`: the arguments are the command it runs.
      const callScope = { ...child(scope), wrappers: [...command.wrappers, first.value] };
      this.emitWords(words.slice(1), [], [], callScope, callScope, flags, source);
    }
    if (code) {
      const runner = code.runner;
      const bodies = code.bodies(flags.previousStage);
      if (bodies.length > MAX_CODE_BODIES) {
        throw new ShellAnalysisError(`${runner} runs ${bodies.length} code strings, over the ${MAX_CODE_BODIES} limit`);
      }
      // `eval` runs in this shell: its `cd` and variables hold after it.
      const shared = runner === 'eval' ? outer : undefined;
      for (const body of bodies) {
        this.code(body, { ...scope, wrappers: [...command.wrappers, runner] }, code.positional, shared);
      }
    }
    if (argv[0] === 'git' && !command.dynamicProgram) this.gitAlias(words, command, scope, flags, source);
    else this.gitConfigWrites(command, scope);
    if (argv[0] === 'find') {
      for (const exec of findExecCommands(words)) {
        const execScope = { ...child(scope), wrappers: [...command.wrappers, 'find -exec'] };
        this.emitWords(exec, [], [], execScope, execScope, { ...NO_FLAGS, concurrent: flags.concurrent }, source);
      }
    }
  }

  /**
   * `git config alias.x …` records an alias (and judges a `!shell` body where it is defined: it runs
   * later, whenever `git x` does); `git x` with an alias `x` is judged as what it expands to. Config
   * values git runs as commands (`core.pager`, …) are judged as shell code where they are given.
   */
  private gitAlias(words: ShellWord[], command: SimpleCommand, scope: Scope, flags: Flags, source: string): void {
    const argv = words.map((w) => w.value);
    const call = gitCall(argv, gitEnv(command, scope), (i) => words[i]?.literal === true);
    if (!call) return;
    const sub = argv[call.at]!;
    const wrappers = [...command.wrappers, 'git alias'];
    const aliasScope: Scope = { ...child(scope), wrappers };
    for (const { key, value } of call.settings) this.gitSetting(key, value, aliasScope);
    if (sub === 'config') {
      const defined = configDefinition(argv, call.at);
      if (!defined) return;
      const alias = /^alias\.(.+)$/i.exec(defined.key);
      if (alias) {
        this.definedAliases.set(alias[1]!.toLowerCase(), defined.value);
        if (defined.value?.trimStart().startsWith('!')) this.code(defined.value.trimStart().slice(1), aliasScope, undefined);
      } else if (defined.value !== undefined) this.gitSetting(defined.key, defined.value, aliasScope);
      return;
    }
    if (!words[call.at]!.literal || isGitBuiltin(sub)) return;
    const name = sub.toLowerCase();
    if (call.aliases.has(name) && call.aliases.get(name) === undefined) throw new ShellAnalysisError(`git alias ${sub} is set from a value that is not known`);
    const value = call.aliases.get(name) ?? (this.definedAliases.has(name) ? this.definedAliases.get(name) : this.gitAliases?.get(name));
    // Config files other than those the guard read: their aliases are not known.
    const elsewhere = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_DIR'].find((v) => gitEnv(command, scope)(v) !== undefined);
    if (value === undefined && elsewhere !== undefined) throw new ShellAnalysisError(`git ${sub} may be an alias from the config ${elsewhere} names`);
    if (value === undefined) {
      if (this.configWritten !== undefined) throw new ShellAnalysisError(`git ${sub} may be an alias from ${this.configWritten}, written earlier in the command`);
      return;
    }
    // An alias that expands to another is walked again by emitWords; git stops at a loop, so do we.
    if (command.wrappers.filter((w) => w === 'git alias').length >= 8) throw new ShellAnalysisError(`git alias ${sub} expands more than 8 times`);
    const rest = words.slice(call.at + 1);
    const trimmed = value.trimStart();
    if (trimmed.startsWith('!')) {
      // Git runs `sh -c '<body> "$@"' <body> args…`.
      this.code(`${trimmed.slice(1)} "$@"`, aliasScope, [literalWord(trimmed.slice(1)), ...rest]);
      return;
    }
    const expanded = splitAlias(value);
    if (expanded === undefined) throw new ShellAnalysisError(`git alias ${sub} has an unclosed quote`);
    const next = [...words.slice(0, call.at), ...expanded.map(literalWord), ...rest];
    this.emitWords(next, [], [], aliasScope, aliasScope, flags, source);
  }

  /** A config setting given to git: one whose value git runs is judged as shell code. */
  private gitSetting(key: string, value: string | undefined, scope: Scope): void {
    // gitCall's placeholders for settings whose key itself is not known (`GIT_CONFIG_PARAMETERS=$x`).
    if (/^GIT_CONFIG_/.test(key)) throw new ShellAnalysisError(`git is given config settings that are not known (${key})`);
    // An included file may hold any alias.
    if (/^include(if\..+)?\.path$/i.test(key)) this.configWritten ??= `the file ${key} names`;
    if (!runsCommand(key)) return;
    if (value === undefined) throw new ShellAnalysisError(`git ${key} is set from a value that is not known`);
    this.gitCommand(value, scope);
  }

  /** A config value git runs (`core.pager`, `credential.helper = !…`): through `sh -c` when it holds shell syntax. */
  private gitCommand(value: string, scope: Scope): void {
    const trimmed = value.trimStart();
    this.code(trimmed.startsWith('!') ? trimmed.slice(1) : trimmed, scope, undefined);
  }

  /**
   * A command that writes a git config file (`printf '[alias]…' >> .git/config`): literal text is
   * read like the file would be; other text makes any later `git x` an alias not known.
   */
  private gitConfigWrites(command: SimpleCommand, scope: Scope): void {
    const targets = command.redirects.filter((r) => /^(>|>>|>\||&>|&>>|<>)$/.test(r.op)).map((r) => r.target);
    const writer = command.argv[0] ?? '';
    if (/^(tee|cp|mv|install|ln|rsync|dd)$/.test(writer) || (/^(sed|perl|ruby)$/.test(writer) && command.argv.some((a) => /^(-[a-zA-Z]*i|--in-place)/.test(a)))) {
      targets.push(...command.argv.slice(1).map((a) => a.replace(/^of=/, '')));
    }
    const file = targets.find(isGitConfigFile);
    if (file === undefined) return;
    const text = command.redirects.some((r) => r.target === file) ? staticStdout(command) : undefined;
    if (text === undefined) {
      this.configWritten ??= file;
      return;
    }
    const parsed = parseGitConfig(text);
    for (const [name, value] of parsed.aliases) {
      this.definedAliases.set(name, value);
      if (value.trimStart().startsWith('!')) this.code(value.trimStart().slice(1), { ...child(scope), wrappers: [...command.wrappers, 'git alias'] }, undefined);
    }
    for (const value of parsed.commands) this.gitCommand(value, { ...child(scope), wrappers: [...command.wrappers, 'git config'] });
    // An include may bring anything.
    if (parsed.includes.length > 0) this.configWritten ??= file;
  }

  /** `parallel cmd ::: a b`: the command line, with each input, is run by the shell. */
  private parallel(words: ShellWord[], unwrapped: ReturnType<typeof unwrap>, redirects: ShellRedirect[], scope: Scope, flags: Flags): void {
    const inputs = unwrapped.parallel?.inputs ?? stdinItems(flags.previousStage, redirects, words.length === 0);
    if (words.length === 0) {
      // Without a command, each input line is itself a command line.
      for (const line of (inputs ?? []).slice(0, this.budget.limits.maxLoopUnroll)) this.code(line, { ...scope, wrappers: [...scope.wrappers, ...unwrapped.wrappers] }, undefined);
      return;
    }
    const template = words.map((w) => w.value).join(' ');
    const inner: Scope = { ...scope, wrappers: [...scope.wrappers, ...unwrapped.wrappers] };
    const REPLACE = /\{(?:\.|\/|\/\/|\/\.|#|%)?\}/g;
    if (inputs === undefined || inputs.length === 0) {
      this.code(template.replace(REPLACE, ''), { ...inner, unknownArguments: true }, undefined);
      return;
    }
    for (const item of inputs.slice(0, this.budget.limits.maxLoopUnroll)) {
      const quoted = `'${item.replace(/'/g, `'\\''`)}'`;
      this.code(template.search(REPLACE) !== -1 ? template.replace(REPLACE, quoted) : `${template} ${quoted}`, inner, undefined);
    }
  }

  /** Parses and walks a string the command runs as shell code (`bash -c`, `eval`, …). */
  private code(body: string, scope: Scope, positional: ShellWord[] | undefined, shared?: Scope): void {
    if (scope.depth + 1 > this.budget.limits.maxCodeNesting) {
      throw new ShellAnalysisError(`code strings nested deeper than ${this.budget.limits.maxCodeNesting}`);
    }
    const script = parseScript(body, this.budget);
    const env = shared ? shared.env : new Map(scope.env);
    if (positional) {
      positional.forEach((w, i) => env.set(String(i), known(w)));
      const rest = positional.slice(1);
      if (rest.length > 0) {
        const all = rest.map((w) => w.value).join(' ');
        env.set('@', { value: all, literal: rest.every((w) => w.literal), collapsed: all, unknownVars: false, unknownCommands: false });
        env.set('*', env.get('@')!);
      }
    }
    const inner: Scope = { ...scope, env, cwd: shared ? shared.cwd : scope.cwd, depth: scope.depth + 1, inFunction: scope.inFunction };
    this.script(script, body, inner);
    if (shared) shared.cwd = inner.cwd;
  }

  private emitBare(redirects: ShellRedirect[], src: string, node: SyntaxNode & { pos: number; end: number }, scope: Scope, flags: Flags): void {
    if (redirects.length === 0) return;
    const source = text(src, node);
    this.emit(
      { ...placed(redirects, scope, flags, source), argv: [], words: [], programPath: '', dynamicProgram: false, wrappers: scope.wrappers, assignments: [], stdinArguments: false },
      scope,
    );
  }

  private redirects(list: readonly Redirection[], src: string, scope: Scope): ShellRedirect[] {
    return list.map((r): ShellRedirect => {
      const fd = r.descriptor?.type === 'FileDescriptor' ? { fd: r.descriptor.value } : {};
      if (r.type === 'HereDoc') {
        if (!r.delimiter?.quoted && r.body.parts) {
          // An unquoted heredoc expands `$( )` and variables in its body when the shell reads it.
          const expanded = this.word({ type: 'Word', text: r.body.text, value: r.body.text, parts: r.body.parts, pos: r.body.pos, end: r.body.end }, src, scope);
          return { op: r.operator, target: r.delimiter?.value ?? '', body: r.body.text, expanded, ...fd };
        }
        return { op: r.operator, target: r.delimiter?.value ?? '', body: r.body.text, ...fd };
      }
      if (!r.target) return { op: r.operator, target: '', ...fd };
      const word = this.word(r.target, src, scope);
      if (r.type === 'HereString') return { op: r.operator, target: word.value, word, body: word.value, ...fd };
      return { op: r.operator, target: word.value, word, ...fd };
    });
  }

  private assignmentValue(node: Extract<SyntaxNode, { type: 'Assignment' }>, src: string, scope: Scope): ShellWord {
    // `a[$(rm -rf ~)]=1`: the subscript is expanded, so its substitutions run.
    if (node.index) this.word(node.index, src, scope);
    if (node.value.type === 'Word') return this.word(node.value, src, scope);
    const elements = node.value.elements.map((w) => this.word(w, src, scope));
    const value = elements.map((w) => w.value).join(' ');
    return { ...literalWord(value), literal: elements.every((w) => w.literal), text: node.text };
  }

  private word(word: Word, src: string, scope: Scope): ShellWord {
    this.budget.tick();
    const resolved = resolveWord(word, this.wordScope(src, scope));
    return this.home === undefined ? resolved : homeSpelled(resolved, this.home);
  }

  private wordScope(src: string, scope: Scope): WordScope {
    return {
      lookup: (name) => scope.env.get(name),
      cwd: scope.cwd,
      substitute: (script) => this.substitute(script, src, scope),
      produced: substitutionOutput,
    };
  }

  /** `$( )`, backticks and `<( )` run in a subshell: their commands are judged like any other. */
  private substitute(script: ParsedScript | undefined, src: string, scope: Scope): SimpleCommand[] {
    assertClean(script);
    return this.collect(() =>
      // The outer shell runs a substitution, not the wrappers of the command it sits in
      // (`sudo rm $(x)` runs x as the user), so its commands start without them.
      this.script(script, script.source ?? src, { ...child(scope), subLevel: scope.subLevel + 1, wrappers: [] }),
    );
  }

  private collect(fn: () => void, level?: number): SimpleCommand[] {
    const collector: Collector = level === undefined ? { list: [] } : { list: [], level };
    this.collectors.push(collector);
    try {
      fn();
    } finally {
      this.collectors.splice(this.collectors.indexOf(collector), 1);
    }
    return collector.list;
  }

  private emit(command: SimpleCommand, scope: Scope): void {
    this.commands.push(command);
    for (const c of this.collectors) {
      if (c.level === undefined || c.level === scope.subLevel) c.list.push(command);
    }
  }
}

/** The environment a git command runs in, as far as the command shows it: its own assignments, then the script's variables. */
function gitEnv(command: SimpleCommand, scope: Scope): GitEnvLookup {
  return (name) => {
    const own = command.assignments.findLast((a) => a.name === name);
    if (own !== undefined) return { value: own.value, known: true };
    const set = scope.env.get(name);
    return set === undefined ? undefined : { value: set.value, known: set.literal };
  };
}

/** Files git reads its config from: the repository's, a worktree's, the user's and the system's. */
function isGitConfigFile(file: string): boolean {
  return /(^|\/)(\.git\/(.+\/)?config(\.worktree)?|\.gitconfig|git\/config|gitconfig)$/.test(file);
}

/**
 * An unquoted `$X` whose value is known is split on IFS like the shell does: `c="rm -rf /"; $c`
 * runs rm. Only whole-word expansions are split; that is where the trick lives.
 */
function splitUnquoted(node: Word, word: ShellWord, scope: Scope): ShellWord[] {
  if (word.alternatives) {
    // `{rm,-rf,~}` is three words; `rm -rf {/,}` is `rm -rf /` (bash drops the empty word).
    return word.alternatives.filter((a) => a !== '').map((a) => ({ ...literalWord(a), literal: word.literal, unknownVars: word.unknownVars, unknownCommands: word.unknownCommands, subCommands: word.subCommands, text: word.text, ...(word.opaque ? { opaque: word.opaque } : {}) }));
  }
  let part: { type: string; text: string; operation?: unknown; index?: { text: string } | undefined } | undefined = node.parts?.length === 1 ? node.parts[0] : undefined;
  let quoted = false;
  const outerPart = node.parts?.[0];
  if (node.parts?.length === 1 && outerPart?.type === 'DoubleQuoted' && outerPart.parts.length === 1) {
    part = outerPart.parts[0];
    quoted = true;
  }
  // `"$@"` and `"${arr[@]}"` split into fields even when quoted.
  const arrayFields = part !== undefined && (/^\$[@*]$|^\$\{[@*]\}$/.test(part.text) || (part.type === 'ParameterExpansion' && part.operation === undefined && (part.index?.text === '@' || part.index?.text === '*')));
  const expansion = arrayFields || (!quoted && (part?.type === 'SimpleExpansion' || (part?.type === 'ParameterExpansion' && part.operation === undefined)));
  if (!expansion || !word.literal) return [word];
  const ifs = scope.env.get('IFS')?.value ?? ' \t\n';
  const fields = [...word.value].reduce<string[]>((acc, ch) => {
    if (ifs.includes(ch)) acc.push('');
    else acc[acc.length - 1] += ch;
    return acc;
  }, ['']).filter((f) => f !== '');
  return fields.length > 1 ? fields.map(literalWord) : [word];
}

const HOME_VALUE: KnownValue = { value: '~', literal: true, collapsed: '~', unknownVars: false, unknownCommands: false };

/** `set -- a b c` sets the positional parameters that `"$@"` and `$1` read later. */
function setPositional(words: ShellWord[], outer: Scope): void {
  const at = words.findIndex((w, i) => i > 0 && (w.value === '--' || !w.value.startsWith('-')));
  if (at === -1) return;
  const rest = words.slice(words[at]!.value === '--' ? at + 1 : at);
  for (let i = 1; i <= 9; i += 1) outer.env.delete(String(i));
  rest.forEach((w, i) => outer.env.set(String(i + 1), known(w)));
  const all = rest.map((w) => w.value).join(' ');
  const value: KnownValue = { value: all, literal: rest.every((w) => w.literal), collapsed: all, unknownVars: false, unknownCommands: false };
  outer.env.set('@', value);
  outer.env.set('*', value);
}

function homeSpelled(word: ShellWord, home: string): ShellWord {
  const swap = (v: string | undefined): string | undefined =>
    v !== undefined && (v === home || v.startsWith(`${home}/`)) ? `~${v.slice(home.length)}` : v;
  if (!word.value.startsWith(home) && !(word.collapsed ?? '').startsWith(home)) return word;
  return { ...word, value: swap(word.value)!, collapsed: swap(word.collapsed), ...(word.alternatives ? { alternatives: word.alternatives.map((a) => swap(a)!) } : {}) };
}

function child(scope: Scope): Scope {
  return { ...scope, env: new Map(scope.env) };
}

function knownPath(path: string): KnownValue {
  return { value: path, literal: true, collapsed: path, unknownVars: false, unknownCommands: false };
}

function text(src: string, node: { pos: number; end: number }): string {
  return src.slice(node.pos, node.end);
}

/**
 * The words fed to `xargs` when they are known: a literal here-string or heredoc (expanded when
 * unquoted), `< <(printf …)`, or `echo`. Split on NUL too: `xargs -0` reads those.
 */
function stdinItems(previous: SimpleCommand[], redirects: ShellRedirect[], lines = false): string[] | undefined {
  const split = (text: string): string[] => text.split(lines ? /[\n\0]+/ : /[\s\0]+/).filter((s) => s.trim() !== '');
  const input = redirects.find((r) => r.body !== undefined && (r.word === undefined || r.word.literal) && (r.expanded === undefined || r.expanded.literal));
  if (input) return split(input.expanded?.value ?? input.body!);
  const substituted = redirects.find((r) => r.op === '<' && r.word?.processSubstitution);
  if (substituted) return substituted.word!.prints !== undefined ? split(substituted.word!.prints) : undefined;
  if (previous.length !== 1) return undefined;
  const [source] = previous;
  if (!source) return undefined;
  const out = staticStdout(source);
  if (out === undefined) return undefined;
  return split(out);
}

/** What `xargs` reads when it is not known: the stage piped in, `< <(tool)` or a file. */
function pipedOutput(previous: SimpleCommand[], redirects: ShellRedirect[]): CommandOutput {
  const input = redirects.find((r) => r.op === '<' && (r.fd === undefined || r.fd === 0));
  if (input?.word?.processSubstitution) {
    const produced = substitutionOutput(input.word.subCommands, input.word.text);
    return 'output' in produced ? produced.output : { from: input.word.text, confined: false };
  }
  if (input) return { from: `< ${input.target}`, confined: false };
  const source = previous[previous.length - 1];
  if (!source || previous.length !== 1) return { from: 'its input', confined: false };
  const produced = commandOutput(source, source.source);
  return 'output' in produced ? produced.output : { from: source.source, confined: false };
}

function applyXargs(words: ShellWord[], items: string[], replace: string | undefined): ShellWord[] {
  if (replace === undefined) return [...words, ...items.map(literalWord)];
  const item = items[0] ?? '';
  return words.map((w) => (w.value.includes(replace) ? { ...w, value: w.value.split(replace).join(item), collapsed: w.collapsed?.split(replace).join(item) } : w));
}

function changeDirectory(words: ShellWord[], cwd: string | undefined, oldpwd: KnownValue | undefined): string | undefined {
  const args = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value));
  const target = args[0];
  if (!target) return '~';
  if (target.value === '-') return oldpwd?.literal ? oldpwd.value : undefined;
  if (!target.literal) return undefined;
  if (!target.value.startsWith('/') && !target.value.startsWith('~') && cwd === undefined) return undefined;
  return normalizePath(target.value, cwd);
}

/** The parts of a simple command that come from where it stands: pipeline, scope, source text. */
function placed(redirects: ShellRedirect[], scope: Scope, flags: Flags, source: string) {
  return {
    redirects,
    pipedFrom: flags.pipedFrom,
    pipedTo: [] as SimpleCommand[],
    codeWords: [] as ShellWord[],
    concurrent: flags.concurrent,
    inSubstitution: scope.subLevel > 0,
    depth: scope.depth,
    source,
    anchor: scope.anchor ?? source,
    ...(scope.cwd !== undefined ? { cwd: scope.cwd } : {}),
  };
}
