// Issue 31 items 8-9, the two readers on their own, over real files: the csv header as rdw reads it (BOM, quoted
// names with commas and line breaks, CRLF/LF/CR, a header-only file, a header too long), and which parquet columns
// are of Parquet's Null type (top-level only: a struct's Null-typed field of the same name is not one).
// Parquet bytes: parquet-wasm from Arrow tables with Null-typed fields (INT32 + logical type Null, as pyarrow writes).

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Field, Null, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { PARQUET_SCHEMA_COLUMNS, parquetNullColumns } from '../../src/catalog/parquet-null-columns.js';
import { CSV_HEADER_MAX_BYTES, everyFieldQuoted, readCsvHeader } from '../../src/catalog/read-csv-header.js';

const ID = 'a'.repeat(64);
let dir: string;

beforeAll(async () => {
  dir = await makeTemporaryFolder('rdw-dialects-');
});

afterAll(async () => {
  await removeTree(dir);
});

async function headerOf(name: string, bytes: Buffer | string): Promise<string[]> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return (await readCsvHeader(ID, file)).names;
}

describe('the csv header', () => {
  it('reads quoted names holding commas, quotes and line breaks, after a BOM, with CRLF, LF or CR line ends', async () => {
    const header = 'row_id,"a,b","say ""hi""","two\r\nlines", spaced ,last';
    const expected = ['row_id', 'a,b', 'say "hi"', 'two\r\nlines', 'spaced', 'last'];
    for (const end of ['\r\n', '\n', '\r']) {
      expect(await headerOf('crlf.csv', `${header}${end}1,"x${end}y",z,w,v,u${end}`)).toEqual(expected);
      expect(await headerOf('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${header}${end}`)]))).toEqual(expected);
    }
  });

  it('says whether every name is quoted (QUOTE_ALL / QUOTE_NONNUMERIC writers), whatever the names hold', async () => {
    expect(everyFieldQuoted('"row_id","a,b","say ""hi""","two\r\nlines"')).toBe(true);
    expect(everyFieldQuoted(' "a" , "b" ')).toBe(true);
    expect(everyFieldQuoted('"a",b')).toBe(false);
    expect(everyFieldQuoted('a,"b"')).toBe(false);
    expect(everyFieldQuoted('"a",')).toBe(false);
    expect(everyFieldQuoted('a')).toBe(false);
    expect(everyFieldQuoted('')).toBe(false);
    const file = path.join(dir, 'all.csv');
    await writeFile(file, '"row_id","venue"\r\n"1",""\r\n');
    expect(await readCsvHeader(ID, file)).toEqual({ names: ['row_id', 'venue'], everyFieldQuoted: true });
  });

  it('reads a file that is only its header (no line end), and refuses a header longer than 1 MiB (exit 3)', async () => {
    expect(await headerOf('only.csv', 'a,b')).toEqual(['a', 'b']);
    const long = `${'x'.repeat(CSV_HEADER_MAX_BYTES)},y\r\n1,2\r\n`;
    await expect(headerOf('long.csv', long)).rejects.toMatchObject({ code: 'RDW_SCHEMA_MISMATCH', exitCode: 3 });
  });
});

describe("parquet columns of Parquet's Null type", () => {
  it('are the top-level Null-typed columns only (a struct field of the same name is not one)', async () => {
    const rows = 3;
    const nulls = () => makeData({ type: new Null(), length: rows, nullCount: rows });
    const text = () => vectorFromArray(['p', 'q', 'r'], new Utf8()).data[0]!;
    const inner = new Struct([new Field('b', new Null(), true), new Field('c', new Utf8(), true)]);
    const schema = new Schema([new Field('a', new Null(), true), new Field('s', inner, true), new Field('b', new Utf8(), true)]);
    const children = [nulls(), makeData({ type: inner, length: rows, nullCount: 0, children: [nulls(), text()] }), text()];
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children }));
    const file = path.join(dir, 'nested.parquet');
    await writeFile(file, parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(new Table(batch), 'stream'))));

    const instance = await DuckDBInstance.create(':memory:');
    try {
      const connection = await instance.connect();
      const elements = (await connection.runAndReadAll(`SELECT ${PARQUET_SCHEMA_COLUMNS} FROM parquet_schema('${file}')`)).getRowObjectsJS();
      // Independent: the file's schema does hold two Null-typed elements named a and b.
      expect(elements.filter((row) => row.is_null === 'true').map((row) => row.name).sort()).toEqual(['a', 'b']);
      const found = parquetNullColumns(
        elements.map((row) => ({ columnId: Number(row.column_id), name: String(row.name), children: Number(row.children), isNull: row.is_null === 'true' })),
      );
      expect([...found]).toEqual(['a']);
      connection.closeSync();
    } finally {
      instance.closeSync();
    }
  });
});
