// An aligned plain-text table: cells padded to their column's width, two spaces between columns.

export interface TextTableOptions {
  /** Per column, true to right-align it (numbers). Default: every column left-aligned. */
  rightAligned?: readonly boolean[];
  /** A line of dashes, as wide as each column, under the header. Default false. */
  rule?: boolean;
}

/**
 * The lines of a text table: the header, the rule when asked for, then one line per row; trailing spaces
 * are trimmed. Cells are text already (each layer decides how a null or a number reads).
 */
export function textTableLines(header: readonly string[], rows: readonly (readonly string[])[], options: TextTableOptions = {}): string[] {
  const right = options.rightAligned ?? [];
  // A loop, not Math.max(...): a spread of 200,000 rows overflows the call stack.
  const widths = header.map((title, i) => rows.reduce((width, cells) => Math.max(width, cells[i]!.length), title.length));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (right[i] === true ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  const rule = options.rule === true ? [line(widths.map((width) => '-'.repeat(width)))] : [];
  return [line(header), ...rule, ...rows.map(line)];
}
