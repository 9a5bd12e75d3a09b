// One thing doctor found: its own module, so diagnose and the checks it calls (installed, registered, serve)
// all depend on it and the checks not back on diagnose.
export interface Finding {
  level: 'error' | 'warning';
  /** File and key path, or hook id: where to look. */
  where: string;
  message: string;
  fix: string;
}
