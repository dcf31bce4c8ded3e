// A small RFC 4180 CSV reader: quoted fields, doubled quotes, CRLF or LF, header line first.

/** Header and records of a CSV text; every record has the header's width (missing cells are ''). */
export interface CsvText {
  header: string[];
  records: string[][];
}

/** Parses CSV text; `quoted[i][j]` is not tracked: an empty cell is '' whether quoted or not. */
export function parseCsv(text: string): CsvText {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  while (i < source.length) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
    } else cell += ch;
    i += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  const header = rows.shift() ?? [];
  const records = rows
    .filter((record) => !(record.length === 1 && record[0] === ''))
    .map((record) => header.map((_, j) => record[j] ?? ''));
  return { header, records };
}
