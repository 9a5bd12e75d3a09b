// A tool output as text, for agents whose only way to replace a result is a string.

/** Strings stay as they are; Claude/Gemini/MCP result shapes give their text; anything else is JSON. */
export function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    if (typeof v.llmContent === 'string') return v.llmContent;
    if (typeof v.textResultForLlm === 'string') return v.textResultForLlm;
    if (typeof v.text_result_for_llm === 'string') return v.text_result_for_llm;
    if (Array.isArray(v.content)) {
      const texts = v.content.flatMap((c) => (typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string' ? [(c as { text: string }).text] : []));
      if (texts.length === v.content.length && texts.length > 0) return texts.join('\n');
    }
    if (typeof v.stdout === 'string' && Object.keys(v).every((k) => ['stdout', 'stderr', 'interrupted', 'isImage', 'noOutputExpected'].includes(k))) {
      return [v.stdout, typeof v.stderr === 'string' ? v.stderr : ''].filter(Boolean).join('\n');
    }
  }
  return JSON.stringify(value) ?? '';
}
