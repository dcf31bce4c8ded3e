// Text read from a file or another machine, made safe to print on one terminal line: a sync lock's host name
// may hold a newline or an escape sequence that would forge output or move the cursor.

/**
 * `text` with every control character (C0, DEL, C1, and the Unicode line and bidi controls) written as a JSON-style
 * escape (`\n`, `\u001b`), cut to `max` characters with `…` when longer. Printable text is returned unchanged.
 */
export function printableText(text: string, max = 80): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const escaped = text.replace(CONTROL_CHARACTERS, (character) => named[character] ?? unicodeEscape(character));
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped;
}

/**
 * `text` with its control characters written as `\uXXXX`, but tab and line breaks (LF, CR) kept: for text of many
 * lines (CSV rows) bound for a terminal, so it shows what the bytes say and obeys none of them.
 */
export function controlCharactersEscaped(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => (character === '\t' || character === '\n' || character === '\r' ? character : unicodeEscape(character)));
}

/** C0, DEL, C1, and the Unicode line and bidi controls: what moves a terminal's cursor or reorders what it shows. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
