// Text read from a file or another machine, made safe to print on one terminal line: a sync lock's host name
// may hold a newline or an escape sequence that would forge output or move the cursor.

/**
 * `text` with every control character (C0, DEL, C1, and the Unicode line and bidi controls) written as a JSON-style
 * escape (`\n`, `\u001b`), cut to `max` characters with `…` when longer. Printable text is returned unchanged.
 */
export function printableText(text: string, max = 80): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (character) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}
