// package.json's engines says what CI tests: the Node lines .ci/run runs the unit suite on, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

describe('engines', () => {
  it("names exactly the Node lines .ci/run tests", () => {
    const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    const majors = /^node_majors='([\d ]+)'$/m.exec(ci)?.[1]?.split(' ');
    expect(majors).toEqual(['20', '22', '24', '26']);
    const engines: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
    const ranges = engines.split('||').map((r) => r.trim());
    expect(ranges.map((r) => /^\^(\d+)\.\d+\.\d+$/.exec(r)?.[1])).toEqual(majors);
  });
});
