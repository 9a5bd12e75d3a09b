// doctor's "locked:" answer, on real files: a claude-code managed settings file as install --managed
// writes it is locked; each way it can fall short is one reason naming the file.
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockReport } from '../../src/doctor/locked.js';
import { managedSettings } from '../../src/install/managed.js';

const asRoot = process.geteuid?.() === 0;
const LOCKED = { locked: true, reasons: [] };

let dir: string;
let file: string;
let bin: string;
let node: string;

function write(text: string, mode = 0o644): void {
  writeFileSync(file, text);
  chmodSync(file, mode);
}

function report(over: { lock?: { locked: boolean; reasons: string[] } } = {}) {
  return lockReport({ lock: over.lock ?? LOCKED, files: { 'claude-code': file }, bin });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-doctor-lock-'));
  chmodSync(dir, 0o755);
  file = path.join(dir, 'managed-settings.json');
  bin = path.join(dir, 'opt', 'bin', 'hooks.js');
  node = path.join(dir, 'node');
  writeFileSync(node, '', { mode: 0o755 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!asRoot)('lockReport (claude-code)', () => {
  it('is locked with the settings install --managed writes and a locked runner', () => {
    write(managedSettings('claude-code', undefined, file, { node, bin }));
    expect(report()).toEqual({ locked: true, reasons: [], agents: { 'claude-code': { locked: true, reasons: [] } } });
  });

  it('is not locked when the runner is not, with the runner\'s reasons first', () => {
    write(managedSettings('claude-code', undefined, file, { node, bin }));
    const r = report({ lock: { locked: false, reasons: ['node /home/u/.nvm/node: is yours'] } });
    expect(r.locked).toBe(false);
    expect(r.agents['claude-code']!.locked).toBe(false);
    expect(r.reasons).toEqual(['node /home/u/.nvm/node: is yours']);
  });

  it('names an absent file', () => {
    expect(report().reasons).toEqual([`claude-code: ${file} absent`]);
  });

  it('names a settings file without allowManagedHooksOnly', () => {
    const settings = JSON.parse(managedSettings('claude-code', undefined, file, { node, bin })) as Record<string, unknown>;
    delete settings.allowManagedHooksOnly;
    write(JSON.stringify(settings));
    expect(report().reasons).toEqual([`claude-code: ${file}: allowManagedHooksOnly is not true, so the user's own Claude Code hooks settings (and their disableAllHooks) still count`]);
  });

  it('names entries that look node up on PATH, or run another runner', () => {
    write(managedSettings('claude-code', undefined, file, { node: 'node', bin }));
    expect(report().reasons[0]).toContain('does not start with an absolute interpreter path');
    write(managedSettings('claude-code', undefined, file, { node, bin: '/home/u/agent-hooks/bin/hooks.js' }));
    expect(report().reasons[0]).toContain(`runs /home/u/agent-hooks/bin/hooks.js, not this runner (${bin})`);
  });

  it('names a node a user could replace', () => {
    chownSync(node, 4321, 4321);
    write(managedSettings('claude-code', undefined, file, { node, bin }));
    expect(report().reasons[0]).toContain(`runs node ${node}, which is owned by uid 4321, not root`);
  });

  it('names a settings file a user could change, and one with no entries of ours', () => {
    write(managedSettings('claude-code', undefined, file, { node, bin }), 0o666);
    expect(report().reasons).toEqual([`claude-code: ${file} is writable by everyone (mode 0666)`]);
    write('{"hooks":{}}');
    expect(report().reasons).toEqual([`claude-code: ${file} has no agent-hooks entries`]);
  });

  it('names PreToolUse without onFailure block', () => {
    write(managedSettings('claude-code', undefined, file, { node, bin }).replaceAll('"onFailure": "block"', '"onFailure": "continue"'));
    expect(report().reasons).toEqual([`claude-code: ${file}: PreToolUse is not onFailure "block", so a runner that is missing or fails lets the call go on`]);
  });
});
