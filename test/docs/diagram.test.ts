// The README's diagram: the committed SVG is what scripts/diagram.mjs writes from its steps (edit the
// steps, run the script), names every step, and is an SVG a renderer takes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpProject } from '../helpers.js';
// @ts-expect-error: a plain .mjs script without types
import { diagram, OUT, STEPS } from '../../scripts/diagram.mjs';

const committed = readFileSync(path.join(ROOT, 'docs', 'event-flow.svg'), 'utf8');

describe('docs/event-flow.svg', () => {
  it('is what scripts/diagram.mjs writes (run it after editing the steps)', () => {
    expect(OUT).toBe(path.join(ROOT, 'docs', 'event-flow.svg'));
    expect(committed).toBe(diagram());
  });

  it('names every step, from the event to the answer, with a title for screen readers', () => {
    for (const step of STEPS as { title: string }[]) expect(committed).toContain(`>${step.title}<`);
    expect(committed).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*role="img"/);
    expect(committed).toContain('<title id="title">');
    // Every element opened is closed (self-closing or with its end tag).
    const opened = [...committed.matchAll(/<([a-z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== '/').map((m) => m[1]);
    const closed = [...committed.matchAll(/<\/([a-z]+)>/g)].map((m) => m[1]);
    expect(closed.sort()).toEqual(opened.sort());
  });

  const rsvg = spawnSync('sh', ['-c', 'command -v rsvg-convert']).status === 0;
  it.skipIf(!rsvg)('renders (rsvg-convert; skipped where it is not installed)', () => {
    const png = path.join(tmpProject(), 'flow.png');
    const r = spawnSync('rsvg-convert', ['-o', png, path.join(ROOT, 'docs', 'event-flow.svg')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
