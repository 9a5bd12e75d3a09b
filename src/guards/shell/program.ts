// How a command word names a program, whatever path or spelling was used.

/** `/usr/bin/RM` → `rm`, `./tools/git.exe` → `git`. */
export function programName(value: string): string {
  const base = value.slice(value.lastIndexOf('/') + 1).toLowerCase();
  return base.endsWith('.exe') ? base.slice(0, -4) : base;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'csh', 'tcsh', 'rbash', 'pdksh', 'oksh']);

export function isShell(program: string): boolean {
  return SHELLS.has(program) || /^bash\d/.test(program);
}

/** Interpreters that read a program from stdin when given no script. */
export function isInterpreter(program: string): boolean {
  return /^(python[\d.]*|pypy[\d.]*|node|nodejs|perl[\d.]*|ruby[\d.]*|php[\d.]*|lua[\d.]*|bun|deno|osascript|tclsh|wish|R|rscript|pwsh|powershell)$/i.test(program);
}
