// Text from the audit log is untrusted: the agent runs as the user and can write the log, and a hook's reason
// can hold anything. Before it reaches a terminal, every control character is shown as an escape instead of
// acting: an ESC or OSC sequence must not recolour, retitle, hide lines or plant a link in the user's terminal.

// C0 controls (newline and tab too: a record is one line of the report), DEL, C1 controls (0x9b is a one-byte
// CSI on some terminals), the bidirectional overrides and isolates (they reorder what is shown: "Trojan
// Source"), line and paragraph separators, and zero-width characters that hide text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/** `text` with every control character written as a visible escape (`\x1b`, `\u202e`): safe to print. */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Whether `text` holds a character `printable` would escape (one that could act on a terminal or hide text). */
export function holdsControl(text: string): boolean {
  // search(), not test(): CONTROL is global, and test() would carry its lastIndex from call to call.
  return text.search(CONTROL) !== -1;
}

/** `printable`, cut to `max` characters (an ellipsis marks the cut). */
export function printableCut(text: string, max: number): string {
  const shown = printable(text);
  return shown.length > max ? `${shown.slice(0, Math.max(0, max - 1))}…` : shown;
}
