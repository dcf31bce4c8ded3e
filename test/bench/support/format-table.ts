// Plain-text table for benchmark output: left-aligned first column, right-aligned others.

/**
 * Formats `rows` under `header`; every cell is stringified; columns are padded to their widest cell.
 * @param align one letter per column, `l` (text) or `r` (numbers). Default: the first `l`, the others `r`.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly unknown[])[], align = `l${'r'.repeat(header.length - 1)}`): string {
  const cells = [header, ...rows].map((row) => header.map((_, i) => (row[i] === undefined || row[i] === null ? '' : String(row[i]))));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (align[i] === 'l' ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
