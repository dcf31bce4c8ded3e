import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReleaseArchive, releaseId } from '../../../src/mock/releases/index.js';
import {
  MARKET_EVENT_FIELDS,
  MARKET_EVENT_FIELD_NAMES,
  MARKET_EVENTS_DATASET,
  PRODUCT_VERSION,
  RELEASE_FILE_FORMATS,
  schemaDocument,
  schemaFields,
  type MarketEventRow,
  type Release,
  type ReleaseDocument,
} from '../../../src/contract/index.js';
import { sqlString, withDuckDbFiles } from '../../support/duckdb-files.js';
import { smallSimulator } from './small-simulator.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const DUCKDB_TYPE = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN' } as const;

describe('release files', () => {
  let archive: ReleaseArchive;
  let release: Release;
  let rows: readonly MarketEventRow[];

  beforeAll(() => {
    archive = new ReleaseArchive(smallSimulator({ days: 2 }));
    release = archive.currentReleases(1)[0]!;
    rows = archive.rows(release.id);
  });

  it('has file checksums and sizes equal to the manifest, and the manifest is the release object', () => {
    const manifest = JSON.parse(text(archive.file(release.id, 'manifest'))) as Release;
    expect(manifest).toEqual(release);
    expect(Object.keys(manifest.files)).toEqual([...RELEASE_FILE_FORMATS]);
    for (const format of RELEASE_FILE_FORMATS) {
      const bytes = archive.file(release.id, format)!;
      expect(sha256(bytes), format).toBe(manifest.files[format]!.sha256);
      expect(bytes.byteLength, format).toBe(manifest.files[format]!.bytes);
    }
    expect(text(archive.file(release.id, 'manifest')).endsWith('}\n')).toBe(true);
  });

  it('derives the ID from dataset, version, day and the csv, parquet and schema digests', () => {
    const { csv, parquet, schema } = release.files;
    expect(release.id).toMatch(/^[0-9a-f]{64}$/);
    expect(release.id).toBe(releaseId({ dataset: MARKET_EVENTS_DATASET, version: PRODUCT_VERSION, day: release.day, files: { csv, parquet, schema } }));
    const input = `{"dataset":"${MARKET_EVENTS_DATASET}","version":"${PRODUCT_VERSION}","day":"${release.day}","files":${JSON.stringify({ csv, parquet, schema })}}\n`;
    expect(release.id).toBe(createHash('sha256').update(input).digest('hex'));
  });

  it('writes the release document shape into the json file, without its own checksum', () => {
    const document = JSON.parse(text(archive.file(release.id, 'json'))) as ReleaseDocument;
    expect(Object.keys(document)).toEqual(['dataset', 'version', 'status', 'limitations', 'fields', 'release', 'items', 'stale']);
    expect(document.status).toBe('ready');
    expect(document.stale).toBe(false);
    expect(document.fields).toEqual(schemaFields());
    const { json: _json, ...filesWithoutJson } = release.files;
    expect(document.release).toEqual({ ...release, files: filesWithoutJson });
    expect(Object.keys(document.release.files)).toEqual(['csv', 'parquet', 'schema']);
    expect(document.items).toEqual(rows);
    for (const item of document.items) expect(Object.keys(item)).toEqual([...MARKET_EVENT_FIELD_NAMES]);
  });

  it('bundles the schema document as the schema file', () => {
    expect(JSON.parse(text(archive.file(release.id, 'schema')))).toEqual(schemaDocument());
  });

  it('counts coverage, rows and the sample time range from the rows', () => {
    expect(release.rows).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(0);
    const count = (predicate: (row: MarketEventRow) => boolean) => rows.filter(predicate).length;
    expect(release.coverage.samples).toEqual({ event: count((r) => r.sample_type === 'event'), control: count((r) => r.sample_type === 'control') });
    expect(release.coverage.feature_status.locally_known).toBe(count((r) => r.feature_status === 'locally_known'));
    expect(release.coverage.taker_status.usable).toBe(count((r) => r.taker_status === 'usable'));
    expect(release.coverage.outcomes['1h'].complete).toBe(count((r) => r.status_1h === 'complete'));
    expect(release.coverage.outcomes['7d'].pending).toBe(count((r) => r.status_7d === 'pending'));
    expect(release.coverage.symbols).toEqual([...new Set(rows.map((r) => r.symbol))].sort((a, b) => symbolOrder(a) - symbolOrder(b)));
    expect(release.min_sample_time).toBe(Math.min(...rows.map((r) => r.sample_time)));
    expect(release.max_sample_time).toBe(Math.max(...rows.map((r) => r.sample_time)));
    const start = Date.parse(`${release.day}T00:00:00Z`) / 1000;
    expect(release.min_sample_time!).toBeGreaterThanOrEqual(start);
    expect(release.max_sample_time!).toBeLessThan(start + 86400);
  });

  it('holds the same rows in CSV, JSON items, Parquet and rows(), read back with DuckDB', async () => {
    await withDuckDbFiles(async (duck) => {
      const csvPath = await duck.write('release.csv', archive.file(release.id, 'csv')!);
      const parquetPath = await duck.write('release.parquet', archive.file(release.id, 'parquet')!);
      // 1. Parquet columns are typed from the spec, nullable per spec
      const described = await duck.query(`DESCRIBE SELECT * FROM read_parquet(${sqlString(parquetPath)})`);
      expect(described.map((c) => [c.column_name, c.column_type])).toEqual(MARKET_EVENT_FIELDS.map((f) => [f.name, DUCKDB_TYPE[f.type]]));
      const schema = await duck.query(`SELECT name, repetition_type FROM parquet_schema(${sqlString(parquetPath)}) WHERE name <> 'arrow_schema'`);
      expect(schema.map((c) => [c.name, c.repetition_type])).toEqual(MARKET_EVENT_FIELDS.map((f) => [f.name, f.nullable ? 'OPTIONAL' : 'REQUIRED']));
      // 2. Parquet rows equal rows() value for value
      const parquetRows = await duck.query(`SELECT * FROM read_parquet(${sqlString(parquetPath)})`);
      expect(parquetRows).toEqual(rows.map((row) => ({ ...row })));
      // 3. CSV header is the spec order; read with the spec's types it equals the Parquet file exactly
      expect(text(archive.file(release.id, 'csv')).split('\n')[0]).toBe(MARKET_EVENT_FIELD_NAMES.join(','));
      const columns = `{${MARKET_EVENT_FIELDS.map((f) => `${sqlString(f.name)}: ${sqlString(DUCKDB_TYPE[f.type])}`).join(', ')}}`;
      const csvRows = await duck.query(`SELECT * FROM read_csv(${sqlString(csvPath)}, header = true, columns = ${columns})`);
      expect(csvRows).toEqual(parquetRows);
    });
  });
});

function symbolOrder(symbol: string): number {
  return ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT'].indexOf(symbol);
}
