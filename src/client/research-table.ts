// Research and live CSV as typed rows and an Arrow table: column types come from the dataset's columns
// in src/contract (numbers, booleans, strings); unknown columns are kept as strings; empty cells are null.

import { Bool, Float64, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { FieldType, ResearchColumn } from '../contract/index.js';
import { parseCsv } from './parse-csv.js';

/** One cell of a research row. */
export type ResearchValue = string | number | boolean | null;

/** CSV rows of a research dataset or live page. */
export interface ResearchTable {
  /** Column names in header order (the CSV header defines the row schema). */
  columns: string[];
  rows: Record<string, ResearchValue>[];
  /** The same rows as an Arrow table (Float64, Bool, Utf8 columns). */
  table: Table;
}

function convert(cell: string, type: FieldType): ResearchValue {
  if (cell === '') return null;
  if (type === 'number' || type === 'integer') {
    const value = Number(cell);
    return Number.isFinite(value) ? value : null;
  }
  if (type === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : null;
  return cell;
}

/** Parses CSV text into typed rows and an Arrow table using the declared column types. */
export function researchTableFromCsv(text: string, declared: readonly ResearchColumn[] = []): ResearchTable {
  const { header, records } = parseCsv(text);
  const types = header.map((name) => declared.find((column) => column.name === name)?.type ?? 'string');
  const rows = records.map((record) => {
    const row: Record<string, ResearchValue> = {};
    header.forEach((name, j) => {
      row[name] = convert(record[j] ?? '', types[j] ?? 'string');
    });
    return row;
  });
  const vectors: Record<string, Vector> = {};
  header.forEach((name, j) => {
    const type = types[j] ?? 'string';
    const values = rows.map((row) => row[name] ?? null);
    vectors[name] =
      type === 'number' || type === 'integer'
        ? vectorFromArray(values as (number | null)[], new Float64())
        : type === 'boolean'
          ? vectorFromArray(values as (boolean | null)[], new Bool())
          : vectorFromArray(values as (string | null)[], new Utf8());
  });
  return { columns: header, rows, table: new Table(vectors) };
}
