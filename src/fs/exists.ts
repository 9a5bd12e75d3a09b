// Whether a name is there at all (a dangling link counts), for files that must be refused rather than replaced.
import { lstatSync } from 'node:fs';

export function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
