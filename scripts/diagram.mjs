#!/usr/bin/env node
// Writes docs/event-flow.svg, the README's picture of an event's way through the runner, from the steps
// below (the source: edit them, then run `node scripts/diagram.mjs`). Plain SVG, no network, no
// dependencies; test/docs/diagram.test.ts checks the committed file is what this script writes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The way, in order: the room of src/ that does it, a title, and one line on what happens there. */
export const STEPS = [
  { room: 'agent', title: 'event', text: 'Claude Code, Codex, Gemini CLI, Cursor, Copilot: JSON on stdin' },
  { room: 'dialects', title: 'normalize', text: "the agent's payload read in its dialect: one event, one tool name" },
  { room: 'config + trust + match', title: 'select hooks', text: 'managed, user, project, local; untrusted files skipped, said' },
  { room: 'run', title: 'run', text: 'processes in their own group, in-process guards; real timeouts' },
  { room: 'reply', title: 'read replies', text: 'exit 2 blocks; JSON decides; anything else is a named failure' },
  { room: 'decide', title: 'combine', text: 'block > ask > modify > allow; rewrites chain; a block is final' },
  { room: 'dialects', title: 'answer', text: "in the agent's own format, with its exit code" },
];

const WIDTH = 760;
const BOX = { x: 170, w: 560, h: 46, gap: 18 };
const TOP = 56;

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function diagram(steps = STEPS) {
  const height = TOP + steps.length * (BOX.h + BOX.gap) + 10;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="title desc">`,
    `<title id="title">An event's way through agent-hooks</title>`,
    `<desc id="desc">${esc(steps.map((s) => `${s.title}: ${s.text}`).join('. '))}</desc>`,
    '<style>text{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;fill:#1f2328}.t{font-size:15px;font-weight:600}.d{font-size:13px;fill:#424a53}.r{font-size:12px;fill:#59636e;text-anchor:end}.h{font-size:17px;font-weight:600}rect{fill:#f6f8fa;stroke:#8c959f;stroke-width:1.2}.e{fill:#ddf4ff;stroke:#54aeff}line{stroke:#8c959f;stroke-width:1.6}</style>',
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="#8c959f"/></marker></defs>',
    `<text class="h" x="${BOX.x}" y="30">An event's way through the runner</text>`,
  ];
  steps.forEach((step, i) => {
    const y = TOP + i * (BOX.h + BOX.gap);
    const ends = i === 0 || i === steps.length - 1;
    parts.push(`<text class="r" x="${BOX.x - 14}" y="${y + BOX.h / 2 + 4}">${esc(step.room)}</text>`);
    parts.push(`<rect${ends ? ' class="e"' : ''} x="${BOX.x}" y="${y}" width="${BOX.w}" height="${BOX.h}" rx="6"/>`);
    parts.push(`<text class="t" x="${BOX.x + 14}" y="${y + 19}">${esc(step.title)}</text>`);
    parts.push(`<text class="d" x="${BOX.x + 14}" y="${y + 37}">${esc(step.text)}</text>`);
    if (i < steps.length - 1) {
      const x = BOX.x + BOX.w / 2;
      parts.push(`<line x1="${x}" y1="${y + BOX.h}" x2="${x}" y2="${y + BOX.h + BOX.gap - 2}" marker-end="url(#arrow)"/>`);
    }
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'event-flow.svg');

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(OUT, diagram());
  process.stdout.write(`wrote ${path.relative(process.cwd(), OUT)}\n`);
}
