// An aligned plain-text table: cells padded to their column's width, two spaces between columns; a table wider than
// its reader's terminal in blocks of columns, each repeating the columns that name a row.

export interface TextTableOptions {
  /** Per column, true to right-align it (numbers). Default: every column left-aligned. */
  rightAligned?: readonly boolean[];
  /** A line of dashes, as wide as each column, under the header. Default false. */
  rule?: boolean;
  /**
   * Widest line: a table wider than this is printed in blocks of columns, a blank line between them, each block
   * starting with the first `keyColumns` columns (so every line still says which row it is). A column wider than
   * the rest of a line gets a block of its own. Default: one table, however wide.
   */
  maxWidth?: number;
  /** Columns that name a row, repeated in every block (with maxWidth). Default 1. */
  keyColumns?: number;
}

/** Columns are this far apart. */
const GAP = 2;

/**
 * The lines of a text table: the header, the rule when asked for, then one line per row; trailing spaces
 * are trimmed. Cells are text already (each layer decides how a null or a number reads).
 */
export function textTableLines(header: readonly string[], rows: readonly (readonly string[])[], options: TextTableOptions = {}): string[] {
  const right = options.rightAligned ?? [];
  // A loop, not Math.max(...): a spread of 200,000 rows overflows the call stack.
  const widths = header.map((title, i) => rows.reduce((width, cells) => Math.max(width, cells[i]!.length), title.length));
  const blocks = columnBlocks(widths, options.maxWidth ?? Infinity, Math.min(options.keyColumns ?? 1, header.length));
  const lines: string[] = [];
  for (const block of blocks) {
    const line = (cells: readonly string[]) =>
      block.map((i) => (right[i] === true ? cells[i]!.padStart(widths[i]!) : cells[i]!.padEnd(widths[i]!))).join(' '.repeat(GAP)).trimEnd();
    if (lines.length > 0) lines.push('');
    lines.push(line(header));
    if (options.rule === true) lines.push(line(widths.map((width) => '-'.repeat(width))));
    for (const cells of rows) lines.push(line(cells));
  }
  return lines;
}

/** The column indices of each block: the key columns, then as many of the others, in order, as fit `maxWidth`. */
function columnBlocks(widths: readonly number[], maxWidth: number, keyColumns: number): number[][] {
  const all = widths.map((_, i) => i);
  const lineWidth = (columns: readonly number[]) => columns.reduce((sum, i) => sum + widths[i]!, 0) + GAP * Math.max(0, columns.length - 1);
  if (lineWidth(all) <= maxWidth) return [all];
  const keys = all.slice(0, keyColumns);
  const blocks: number[][] = [];
  let block = [...keys];
  for (const i of all.slice(keyColumns)) {
    if (block.length > keys.length && lineWidth([...block, i]) > maxWidth) {
      blocks.push(block);
      block = [...keys];
    }
    block.push(i);
  }
  if (block.length > keys.length || blocks.length === 0) blocks.push(block);
  return blocks;
}
