// Hostile review (issue 24 item 6): Kiro's fs_read names its files in `operations[].path` (batch form of
// Amazon Q Developer CLI / Kiro CLI's fs_read), which the kiro dialect does not alias to `file_path`.
// NOTE: the operations[] shape is from Amazon Q CLI's fs_read schema; check it against a real Kiro CLI.
import { describe, expect, it } from 'vitest';
import { getDialect } from '../../src/dialects/index.js';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';

const HOME = '/home/dev';

describe('review: kiro fs_read in its batch form', () => {
  it.each([
    ['single form (control)', { path: `${HOME}/.aws/credentials`, mode: 'Line' }],
    ['batch form', { operations: [{ mode: 'Line', path: `${HOME}/.aws/credentials` }] }],
  ])('%s: a read of ~/.aws/credentials is refused', (_what, toolInput) => {
    const event = getDialect('kiro').toEvent({ hook_event_name: 'preToolUse', cwd: `${HOME}/project`, tool_name: 'fs_read', tool_input: toolInput }, undefined);
    const j = judgeToolCall(event.payload as never, {}, { tool: 'read', home: HOME, env: { HOME }, realpath: false });
    expect(j.verdict).not.toBe('allow');
  });
});
