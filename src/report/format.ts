// `hooks report` as text, and doctor's one line. Every string from a log goes through `printable` first: the
// log is untrusted, and a reason holding terminal escapes must reach the terminal as visible text.
import { printable, printableCut } from './printable.js';
import { unreadable, type FileSummary, type Report } from './report.js';
import type { Counts, Row } from './tally.js';

/** The colours the text uses (the CLI passes its kleur style, or pass-throughs). */
export interface Paints {
  bold(t: string): string;
  dim(t: string): string;
  red(t: string): string;
  yellow(t: string): string;
  cyan(t: string): string;
  magenta(t: string): string;
}

const KEY_WIDTH = 48;
const num = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

/** "1,204 events, 12 blocked, 3 asked, 1 rewritten, 2 hook failures" (halts and shadow answers when there are any). */
export function countsLine(c: Counts): string {
  const parts = [plural(c.events, 'event'), `${num(c.blocked)} blocked`, `${num(c.asked)} asked`, `${num(c.rewritten)} rewritten`];
  if (c.halted > 0) parts.push(`${num(c.halted)} halted`);
  parts.push(plural(c.failed, 'hook failure'));
  if (c.shadow > 0) parts.push(`${num(c.shadow)} in shadow mode`);
  return parts.join(', ');
}

function fileLine(f: FileSummary): string {
  const where = printable(f.path);
  if (f.status === 'missing') return `not found ${where}`;
  if (f.status === 'refused') return `refused ${where}: ${printable(f.why ?? '')}`;
  const bad = unreadable(f);
  const notes = [plural(f.lines, 'line')];
  if (f.bytesRead !== undefined && f.size !== undefined && f.bytesRead < f.size) notes.push(`the last ${bytes(f.bytesRead)} of ${bytes(f.size)}`);
  if (bad > 0) {
    const why = Object.entries(f.skipped).filter(([r, n]) => r !== 'empty' && n > 0).map(([r, n]) => `${num(n)} ${r}`);
    notes.push(`${num(bad)} skipped as unreadable: ${why.join(', ')}`);
  }
  if (f.skipped.empty > 0) notes.push(plural(f.skipped.empty, 'empty line'));
  return `read ${where} (${notes.join('; ')})`;
}

function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** A table: the first column left-aligned (cut to KEY_WIDTH), the others right-aligned; paints after padding. */
function table(head: string[], rows: string[][], paint: (col: number, cell: string, padded: string) => string, s: Paints): string[] {
  const cells = rows.map((r) => [printableCut(r[0]!, KEY_WIDTH), ...r.slice(1)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const pad = (cell: string, i: number) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!));
  const out = [s.bold(`  ${head.map(pad).join('  ')}`.trimEnd())];
  for (const r of cells) out.push(`  ${r.map((cell, i) => paint(i, cell, pad(cell, i))).join('  ')}`.trimEnd());
  return out;
}

function groupTable(title: string, unit: string, rows: Row[], top: number, s: Paints): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, top);
  const halts = rows.some((r) => r.halted > 0);
  const shadows = rows.some((r) => r.shadow > 0);
  const head = [title, unit, 'blocked', 'asked', 'rewritten', ...(halts ? ['halted'] : []), 'failed', ...(shadows ? ['shadow'] : [])];
  const body = shown.map((r) => [r.key, num(r.events), num(r.blocked), num(r.asked), num(r.rewritten), ...(halts ? [num(r.halted)] : []), num(r.failed), ...(shadows ? [num(r.shadow)] : [])]);
  const colour: Record<string, (t: string) => string> = { blocked: s.red, halted: s.red, asked: s.yellow, rewritten: s.cyan, failed: s.magenta };
  const lines = table(head, body, (col, cell, padded) => (col > 1 && cell !== '0' ? (colour[head[col]!] ?? ((t: string) => t))(padded) : padded), s);
  if (rows.length > top) lines.push(s.dim(`  … and ${num(rows.length - top)} more (--top N, or --json for all)`));
  return ['', ...lines];
}

export interface TextOptions {
  /** How the window is said: "last 7 days". */
  window: string;
  /** Rows shown per table. */
  top: number;
}

/** The whole report as text. */
export function formatReport(report: Report, options: TextOptions, s: Paints): string {
  const out: string[] = [s.bold(`hooks report: ${options.window} (since ${report.since.slice(0, 16).replace('T', ' ')} UTC)`)];
  for (const f of report.files) out.push(s.dim(fileLine(f)));
  const read = report.files.filter((f) => f.status === 'read');
  if (read.length === 0) {
    out.push('no audit log to read: add the audit-log guard to record events (docs/guards/audit-log.md), or name one with --log FILE');
    return `${out.join('\n')}\n`;
  }
  out.push('', countsLine(report.totals));
  out.push(...groupTable('hook', 'runs', report.byHook, options.top, s));
  out.push(...groupTable('tool', 'events', report.byTool, options.top, s));
  out.push(...groupTable('project', 'events', report.byProject, options.top, s));
  out.push(...groupTable('session', 'events', report.bySession, options.top, s));
  if (report.slowest.length > 0) {
    const rows = report.slowest.slice(0, options.top).map((t) => [t.hook, num(t.count), ms(t.p50), ms(t.p95), ms(t.max)]);
    out.push('', ...table(['slowest hooks', 'count', 'p50 ms', 'p95 ms', 'max ms'], rows, (_c, _cell, padded) => padded, s));
    if (report.slowest.length > options.top) out.push(s.dim(`  … and ${num(report.slowest.length - options.top)} more`));
  }
  if (report.latest.length > 0) {
    out.push('', s.bold('  latest decisions'));
    for (const n of report.latest) {
      const paint = n.decision === 'ask' ? s.yellow : n.decision === 'modify' ? s.cyan : s.red;
      const who = [n.decidedBy, n.tool ?? n.event].filter((x): x is string => x !== undefined).map((x) => printableCut(x, KEY_WIDTH)).join(' on ');
      const reason = n.reason === undefined ? '' : `: ${printableCut(n.reason, 160)}`;
      out.push(`  ${s.dim(n.ts.slice(0, 19).replace('T', ' '))} ${paint(n.decision.padEnd(6))} ${who}${reason}`);
    }
  }
  if (report.overflow > 0) out.push('', s.dim(`${num(report.overflow)} records counted under "(other)": too many distinct hooks, tools, projects or sessions`));
  return `${out.join('\n')}\n`;
}

function ms(n: number): string {
  return n >= 100 ? num(Math.round(n)) : String(Math.round(n * 10) / 10);
}

/** Doctor's line: "last 7 days: 1,204 events, 12 blocked, … (slowest: no-force-push p95 41 ms)". */
export function summaryLine(report: Report, window: string): string {
  const read = report.files.filter((f) => f.status === 'read');
  const refused = report.files.filter((f) => f.status === 'refused').map((f) => `${printable(f.path)} refused: ${printable(f.why ?? '')}`);
  if (read.length === 0) return `${window}: no audit log found${refused.length > 0 ? ` (${refused.join('; ')})` : ''} (the audit-log guard records events: docs/guards/audit-log.md)`;
  const notes: string[] = [];
  const slowest = report.slowest[0];
  if (slowest !== undefined) notes.push(`slowest: ${printableCut(slowest.hook, KEY_WIDTH)} p95 ${ms(slowest.p95)} ms`);
  const bad = read.reduce((n, f) => n + unreadable(f), 0);
  if (bad > 0) notes.push(`${num(bad)} unreadable line${bad === 1 ? '' : 's'} skipped`);
  if (report.partial) notes.push(`partial: only the end of a big log was read; "hooks report" reads it all`);
  notes.push(...refused);
  return `${window}: ${countsLine(report.totals)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}
