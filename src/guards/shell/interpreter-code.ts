// Shell commands hidden in interpreter code (`python3 -c 'os.system("rm -rf /")'`, `node -e`,
// `perl -e`, heredocs fed to `python3 -`). This reads the interpreter's code, not the shell:
// string literals passed to the usual shell-out, delete and write calls are turned into the shell
// commands they amount to (`os.remove('/etc/passwd')` is `rm '/etc/passwd'`), and the rules judge
// those. Code that builds what it runs at run time (base64, chr(), a variable) cannot be read; when
// it also shells out, deletes or evaluates code, it comes back as an unverifiable command.

const STRING = String.raw`(["'])((?:\\.|(?!\1)[^\\])*)\1`;
const SHELL_OUT = new RegExp(String.raw`\b(?:system|popen|exec|execSync|spawnSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open|shell-command(?:-to-string)?)\s*\(?\s*` + STRING, 'g');
const LIST_CALL = /\b(?:run|call|check_call|check_output|Popen|spawnSync|execFileSync|execvp|execv|spawn)\s*\(\s*\[([^\]]*)\]/g;
const PROGRAM_AND_LIST = new RegExp(String.raw`\b(?:spawn|spawnSync|execFile|execFileSync)\s*\(\s*` + STRING + String.raw`\s*,\s*\[([^\]]*)\]`, 'g');
const BACKTICKS = /`([^`$]*)`|%x\(([^)]*)\)|\bqx\s*[({/]([^)}/]*)[)}/]/g;
const RMTREE = new RegExp(String.raw`\b(?:shutil\.rmtree|rmtree|remove_tree|rmdirSync|rm_rf|rm_r|remove_dir_all|remove_entry(?:_secure)?|FileUtils\.rm_rf|FileUtils\.remove_dir|rimraf(?:\.sync)?)\s*\(?\s*` + STRING, 'g');
const NODE_RM = new RegExp(String.raw`\b(?:rmSync|promises\.rm|fs\.rm|fsp\.rm)\s*\(\s*` + STRING, 'g');
const DELETE = new RegExp(String.raw`\b(?:os\.remove|os\.unlink|os\.rmdir|os\.removedirs|unlinkSync|unlink|File\.delete|File\.unlink|FileUtils\.rm_f|FileUtils\.rm|rmdir)\s*\(?\s*` + STRING, 'g');
const PATH_DELETE = new RegExp(String.raw`\bPath\s*\(\s*` + STRING + String.raw`\s*\)\s*\.\s*(?:unlink|rmdir|write_text|write_bytes)\b`, 'g');
const WRITE = new RegExp(String.raw`\b(?:open|writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|File\.write|IO\.write|file_put_contents|fopen)\s*\(\s*` + STRING + String.raw`(?:\s*,\s*(["'])([^"']*)\3)?`, 'g');
const PERL_WRITE = /\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:["']\s*(>>?|\+<)\s*["']\s*,\s*)?["']\s*(>>?|\+<)?\s*([^"']+)["']/g;
/** Calls that run or evaluate code, and ways of building strings at run time. */
const RUNS_CODE = /\b(?:system|popen|exec|execSync|spawn|spawnSync|execFile|check_output|check_call|Popen|getoutput|shell_exec|passthru|proc_open|eval|compile|shell-command|rmtree|rmSync|unlink|remove)\s*\(|`[^`]*\$|%x\(|\bqx\b/;
const RUNTIME_STRING = /\b(?:b64decode|b32decode|a85decode|fromhex|unhexlify|atob|fromCharCode|codecs\.decode|decode\s*\(\s*["'](?:base64|hex|rot13|rot_13)|Buffer\.from\s*\([^)]*,\s*["'](?:base64|hex)|chr\s*\(|\bpack\s*\(|zlib|gzip\.decompress|marshal\.loads|pickle\.loads|decode64|unpack1?\s*\(|base64_decode|hex2bin|str_rot13|gzinflate)/;
/** Shell-outs whose command is not a string literal: `os.system(cmd)`, `execSync(x)`. */
const DYNAMIC_SHELL_OUT = /(?:\bos\.system|\bos\.popen|\bexecSync|child_process["']?\)?\.exec|(?<![.\w])system|\bshell_exec|\bpassthru|(?<![.\w])popen)\s*\(\s*(?![\s"'[\])]|f["'])/;
const PYTHON_SHELL_TRUE_DYNAMIC = /\bsubprocess\.\w+\s*\(\s*(?![\s"'[])[^)]*shell\s*=\s*True/;

/** The shell command that stands for code an interpreter builds at run time. */
export const OPAQUE_INTERPRETER_CODE = 'eval "$CODE_BUILT_AT_RUN_TIME_BY_AN_INTERPRETER"';

export function interpreterShellCode(program: string, code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(SHELL_OUT)) out.push(unescape(m[2]!));
  for (const m of code.matchAll(LIST_CALL)) out.push(listWords(m[1]!).join(' '));
  for (const m of code.matchAll(PROGRAM_AND_LIST)) out.push([quote(unescape(m[2]!)), ...listWords(m[3]!)].join(' '));
  if (/^(perl|ruby|php)/.test(program)) {
    for (const m of code.matchAll(BACKTICKS)) out.push(unescape(m[1] ?? m[2] ?? m[3] ?? ''));
  }
  for (const m of code.matchAll(RMTREE)) out.push(`rm -rf ${quote(unescape(m[2]!))}`);
  for (const m of code.matchAll(NODE_RM)) out.push(`rm ${/recursive/.test(code) ? '-rf ' : ''}${quote(unescape(m[2]!))}`);
  for (const m of code.matchAll(DELETE)) out.push(`rm ${quote(unescape(m[2]!))}`);
  for (const m of code.matchAll(PATH_DELETE)) out.push(`rm ${quote(unescape(m[2]!))}`);
  for (const m of code.matchAll(WRITE)) {
    const mode = m[4];
    const isOpen = /^(open|fopen)\s*\(/.test(m[0].replace(/^\W+/, ''));
    if (!isOpen || (mode !== undefined && /[wax+]/.test(mode))) out.push(`true > ${quote(unescape(m[2]!))}`);
  }
  if (/^perl/.test(program)) {
    for (const m of code.matchAll(PERL_WRITE)) if (m[1] ?? m[2]) out.push(`true > ${quote(m[3]!.trim())}`);
  }
  if (opaque(code)) out.push(OPAQUE_INTERPRETER_CODE);
  return out.filter((s) => s.trim() !== '');
}

/** Recursive deletes of a path computed at run time: `shutil.rmtree(Path.home())`, `rmSync(dir, …)`. */
const DYNAMIC_DELETE = /\b(?:shutil\.rmtree|rmtree|remove_tree|rmSync|rmdirSync|rm_rf|rm_r|remove_dir_all|rimraf(?:\.sync)?)\s*\(\s*(?![\s"'`])/;

function opaque(code: string): boolean {
  if (RUNS_CODE.test(code) && RUNTIME_STRING.test(code)) return true;
  return DYNAMIC_SHELL_OUT.test(code) || PYTHON_SHELL_TRUE_DYNAMIC.test(code) || DYNAMIC_DELETE.test(code);
}

/** The string literals of a list (`['rm', '-rf', '/']`), quoted for the shell. */
function listWords(list: string): string[] {
  const words: string[] = [];
  for (const m of list.matchAll(/(["'])((?:\\.|(?!\1)[^\\])*)\1/g)) words.push(quote(unescape(m[2]!)));
  return words;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** String-literal escapes as the interpreters read them: `\n` is a newline, `\"` a quote. */
function unescape(text: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
  return text.replace(/\\([\s\S])/g, (_, c: string) => simple[c] ?? c);
}
