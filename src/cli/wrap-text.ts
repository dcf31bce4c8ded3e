// Word-wrapping for terminal output: long sentences break between words under a hanging indent, never
// inside a word, so nothing is cut mid-word at the terminal's edge (pipes and files get the text unwrapped).

/**
 * Wraps `text` (one paragraph) to `columns` characters per line when the text starts at column `indent`
 * (the caller has already written that many characters on the first line); continuation lines begin with
 * `indent` spaces. A word longer than the room left stays whole on a line of its own. `columns`
 * undefined, or too narrow to leave 20 characters after the indent: the text unchanged.
 */
export function wrapText(text: string, columns: number | undefined, indent = 0): string {
  const room = columns === undefined ? 0 : columns - indent;
  if (room < 20) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= room) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** Widest line rdw's printed text is made for (DESIGN: a 100-column terminal). */
export const TEXT_COLUMNS = 100;

/** The width a command's text is made for on `out`: its terminal's columns, at most TEXT_COLUMNS (a pipe or file: TEXT_COLUMNS). */
export function textColumns(out: { columns?: number | undefined }): number {
  return Math.min(out.columns ?? TEXT_COLUMNS, TEXT_COLUMNS);
}
