// A folder that is there (through links), for messages that must say which of a path and its folder is missing.
import { statSync } from 'node:fs';

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
