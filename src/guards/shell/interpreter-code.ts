// Shell commands hidden in interpreter one-liners (`python3 -c 'os.system("rm -rf /")'`).
// This reads the interpreter's code, not the shell: string literals passed to the usual
// shell-out and recursive-delete calls are turned into the shell commands they amount to.
// Anything built at run time (concatenation, chr(), base64) is out of reach by design.

const SHELL_OUT = /\b(?:system|popen|exec|execSync|spawnSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru)\s*\(\s*(?:\[\s*)?(["'])((?:\\.|(?!\1).)*)\1/g;
const BACKTICKS = /`([^`$]*)`|%x\(([^)]*)\)/g;
const RMTREE = /\b(?:shutil\.rmtree|rmtree|rmSync|rmdirSync|rm_rf|rm_r|remove_dir_all|FileUtils\.rm_rf|FileUtils\.remove_dir)\s*\(\s*(["'])((?:\\.|(?!\1).)*)\1/g;

export function interpreterShellCode(program: string, code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(SHELL_OUT)) out.push(unescape(m[2]!));
  if (/^(perl|ruby|php)/.test(program)) {
    for (const m of code.matchAll(BACKTICKS)) out.push(unescape(m[1] ?? m[2] ?? ''));
  }
  for (const m of code.matchAll(RMTREE)) out.push(`rm -rf '${unescape(m[2]!).replace(/'/g, `'\\''`)}'`);
  return out.filter((s) => s.trim() !== '');
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
