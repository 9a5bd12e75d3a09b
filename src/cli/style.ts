// Terminal colours. The only module that uses kleur; everything that prints in colour goes through it.
import kleur from 'kleur';

export type Paint = (text: string) => string;

export interface Style {
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
  magenta: Paint;
}

/** Colour functions, or plain pass-throughs when `enabled` is false (not a TTY, NO_COLOR, --json). */
export function createStyle(enabled: boolean): Style {
  const plain: Paint = (text) => text;
  if (!enabled) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  const k = kleur;
  k.enabled = true;
  return {
    bold: (t) => k.bold(t),
    dim: (t) => k.dim(t),
    red: (t) => k.red(t),
    green: (t) => k.green(t),
    yellow: (t) => k.yellow(t),
    cyan: (t) => k.cyan(t),
    magenta: (t) => k.magenta(t),
  };
}
