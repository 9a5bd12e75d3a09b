// The service units `hooks serve --print-unit` writes: the PATH and the port a service manager does not give.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { servePaths } from '../../src/serve/paths.js';
import { serviceUnit, unitPath } from '../../src/serve/lifecycle.js';
import { isolatedEnv, tmpProject } from '../helpers.js';

/** A folder holding executables that only log (never run here), as Homebrew or nvm would lay them out. */
function binDir(root: string, name: string, programs: string[], mode = 0o755): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
  for (const program of programs) {
    const file = path.join(dir, program);
    writeFileSync(file, '#!/bin/sh\necho fake\n');
    chmodSync(file, 0o755);
  }
  return dir;
}

describe('unitPath', () => {
  it("holds the folders where the shell finds node and python3 (node's own first), then the system's", () => {
    const root = tmpProject();
    const nvm = binDir(root, 'nvm/bin', ['node']);
    const brew = binDir(root, 'brew/bin', ['python3', 'git']);
    const empty = binDir(root, 'empty', []);
    const dirs = unitPath({ PATH: [empty, nvm, brew, '/usr/bin'].join(':') }, path.join(nvm, 'node'), 'linux');
    expect(dirs.slice(0, 2)).toEqual([nvm, brew]);
    expect(dirs).not.toContain(empty);
    for (const system of ['/usr/local/bin', '/usr/bin', '/bin']) expect(dirs).toContain(system);
    expect(new Set(dirs).size).toBe(dirs.length);
    expect(unitPath({ PATH: '' }, '/opt/node/bin/node', 'darwin')).toContain('/opt/homebrew/bin');
  });

  it('leaves out relative folders, folders others can write, and folders inside the project it was printed from', () => {
    const root = tmpProject();
    const project = path.join(root, 'repo');
    const shims = binDir(project, 'node_modules/.bin', ['python3']);
    const open = binDir(root, 'open', ['git'], 0o777);
    const dirs = unitPath({ PATH: ['bin', shims, open].join(':') }, '/usr/bin/node', 'linux', project);
    expect(dirs).toEqual(['/usr/bin', '/usr/local/bin', '/bin']);
  });
});

describe('serviceUnit', () => {
  const paths = servePaths(isolatedEnv(tmpProject(), {}, { trust: false }));
  const options = { path: ['/home/dev/.nvm/versions/node/v22.1.0/bin', '/opt/homebrew/bin', '/usr/bin'], port: 41234 };

  it('systemd: Environment=PATH and the port on ExecStart', () => {
    const unit = serviceUnit('linux', '/usr/lib/node_modules/agent-hooks/bin/hooks.js', paths, options, '/usr/bin/node');
    expect(unit).toMatch(/^Environment=PATH=\/home\/dev\/\.nvm\/versions\/node\/v22\.1\.0\/bin:\/opt\/homebrew\/bin:\/usr\/bin$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/usr\/lib\/node_modules\/agent-hooks\/bin\/hooks\.js serve --idle 0 --port 41234$/m);
    expect(serviceUnit('linux', '/b/hooks.js', paths, { path: ['/usr/bin'], port: undefined }, '/usr/bin/node')).toMatch(/^ExecStart=\/usr\/bin\/node \/b\/hooks\.js serve --idle 0 --no-http$/m);
  });

  it('systemd: a folder with a space or a quote is quoted as systemd reads it', () => {
    const unit = serviceUnit('linux', '/b/hooks.js', paths, { path: ['/Users/a b/bin', '/usr/bin'], port: 1 }, '/usr/bin/node');
    expect(unit).toMatch(/^Environment="PATH=\/Users\/a b\/bin:\/usr\/bin"$/m);
  });

  it('launchd: EnvironmentVariables PATH and the port in ProgramArguments, XML-escaped', () => {
    const unit = serviceUnit('darwin', '/opt/homebrew/lib/node_modules/agent-hooks/bin/hooks.js', paths, { path: ['/Users/me/R&D/bin', '/usr/bin'], port: 41234 }, '/opt/homebrew/bin/node');
    expect(unit).toContain('<key>EnvironmentVariables</key>\n  <dict><key>PATH</key><string>/Users/me/R&amp;D/bin:/usr/bin</string></dict>');
    expect(unit).toContain('<string>serve</string><string>--idle</string><string>0</string><string>--port</string><string>41234</string></array>');
  });
});

/** systemd's reading of one Environment= value: quotes off, backslash escapes undone, %% back to %. */
function systemdValue(raw: string): string {
  const unquoted = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  return unquoted.replace(/%%/g, '%');
}

describe('units from untrusted PATH entries (property)', () => {
  const paths = servePaths(isolatedEnv(tmpProject(), {}, { trust: false }));
  const control = /[\u0000-\u001f\u007f]/;

  it('unitPath never throws, and gives unique absolute folders without control characters, node\'s first', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('/usr/bin', '/bin', '.', '', 'a\nb', '/tmp/%h', '/x:y')), { maxLength: 8 }), (entries) => {
        const dirs = unitPath({ PATH: entries.join(':') }, '/opt/node/bin/node', 'linux', '/work/project');
        expect(dirs[0]).toBe('/opt/node/bin');
        expect(new Set(dirs).size).toBe(dirs.length);
        for (const dir of dirs) {
          expect(dir.startsWith('/')).toBe(true);
          expect(control.test(dir)).toBe(false);
        }
      }),
      { seed: 2811, numRuns: 200, interruptAfterTimeLimit: 10_000 },
    );
  });

  it('systemd: whatever the folders hold, Environment= is one line that reads back as the PATH', () => {
    const folder = fc.string({ minLength: 1 }).filter((d) => !control.test(d) && !d.includes(':')).map((d) => `/${d}`);
    fc.assert(
      fc.property(fc.array(folder, { minLength: 1, maxLength: 5 }), (dirs) => {
        const unit = serviceUnit('linux', '/b/hooks.js', paths, { path: dirs, port: 1 }, '/usr/bin/node');
        const lines = unit.split('\n').filter((l) => l.startsWith('Environment='));
        expect(lines).toHaveLength(1);
        expect(systemdValue(lines[0]!.slice('Environment='.length))).toBe(`PATH=${dirs.join(':')}`);
      }),
      { seed: 2812, numRuns: 200, interruptAfterTimeLimit: 10_000 },
    );
  });

  it('a control character in the runner\'s own path is refused in one line, not written into the unit', () => {
    expect(() => serviceUnit('linux', '/b/x\nExecStartPre=/bin/true/hooks.js', paths, { path: ['/usr/bin'], port: 1 }, '/usr/bin/node')).toThrow(/^cannot print a unit: the path of the runner holds a control character/);
    expect(serviceUnit('linux', '/b/50%/hooks.js', paths, { path: ['/usr/bin'], port: 1 }, '/usr/bin/node')).toMatch(/^ExecStart=\/usr\/bin\/node \/b\/50%%\/hooks\.js serve/m);
    // ExecStart= expands $VAR (Environment= does not): a literal $ is $$ there only.
    const dollar = serviceUnit('linux', '/b/$HOME/hooks.js', paths, { path: ['/a$b'], port: 1 }, '/usr/bin/node');
    expect(dollar).toContain('ExecStart=/usr/bin/node "/b/$$HOME/hooks.js" serve');
    expect(dollar).toContain('Environment="PATH=/a$b"');
  });
});
