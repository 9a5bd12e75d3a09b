// An event's text → one JSON value, with the size limit and a one-line error: the same for the CLI's stdin
// (src/cli/read-event.ts) and the server's request bodies (src/serve/answer.ts).
import { HooksError } from '../errors.js';
import { EVENT_LIMITS, eventTooLarge } from '../json.js';

/** The stdin text as one JSON value, or an `EVENT_INVALID` error saying what is wrong. */
export function parseEvent(text: string): unknown {
  // Each character is at least one byte: the exact count is needed only near the limit.
  if (text.length > EVENT_LIMITS.maxBytes || (text.length * 3 > EVENT_LIMITS.maxBytes && Buffer.byteLength(text) > EVENT_LIMITS.maxBytes)) {
    throw eventTooLarge(Buffer.byteLength(text));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 quotes the start of the text in its message, newlines and all: escaped, the error stays one line.
    const message = (error as Error).message.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
    const what = text.trim() === '' ? 'empty' : `not JSON (${message})`;
    throw new HooksError('EVENT_INVALID', `stdin: expected one JSON event, got ${what}`);
  }
}

