// The foreign server's releases: rows -> Parquet/CSV (written by DuckDB), the JSON release document, the
// bundled schema and the manifest (the spec's release object), each with its SHA-256 from node:crypto.

import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { CONTRACT_FIELDS, DATASET_ID, OUTCOME_WINDOWS, PAIRS, type ColumnKind } from './contract-fields.js';
import { dayRows, type SpecRow } from './day-rows.js';
import type { ResolvedVariation } from './spec-variation.js';
import { makeTemporaryFolder, removeTree } from '../../../src/base/index.js';

/** Downloadable formats of a release (spec: `/download/<RELEASE_ID>/<FORMAT>`). */
export type FileFormat = 'json' | 'csv' | 'parquet' | 'schema' | 'manifest';

export interface BuiltFile {
  bytes: Buffer;
  sha256: string;
  contentType: string;
}

/** One published release, with the exact bytes the server serves. */
export interface BuiltRelease {
  id: string;
  day: string;
  rows: SpecRow[];
  /** The release object (spec: Release), also the manifest's content. */
  release: Record<string, unknown>;
  files: Partial<Record<FileFormat, BuiltFile>>;
}

const LIMITATIONS = [
  'Six spot pairs on one spot exchange; not a raw exchange feed.',
  'Controls are scheduled comparison observations, not matched negative signals.',
  'Outcome fields are future labels and must never be used as predictor inputs.',
];

export const sha256Hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

const built = (bytes: Buffer, contentType: string): BuiltFile => ({ bytes, sha256: sha256Hex(bytes), contentType });

/** The release ID of `day`'s `revision`: 64 characters in the variation's alphabet. */
export function releaseId(day: string, variation: ResolvedVariation, revision = 1): string {
  const hex = sha256Hex(`${DATASET_ID}:${day}:${variation.productVersion}:revision-${revision}`);
  if (variation.idStyle === 'upper') return hex.toUpperCase();
  if (variation.idStyle === 'mixed') {
    const tail = [...hex].map((char, index) => (index % 3 === 0 ? char.toUpperCase() : char)).join('');
    return `Rel_${day}-${tail}`.slice(0, 64);
  }
  return hex;
}

/** DuckDB column type of a contract column under the variation. */
function duckType(kind: ColumnKind, variation: ResolvedVariation): string {
  if (kind === 'string') return 'VARCHAR';
  if (kind === 'boolean') return 'BOOLEAN';
  if (kind === 'time') return variation.integerColumns ? 'BIGINT' : 'DOUBLE';
  if (kind === 'count') return variation.integerColumns || variation.typeWords === 'arrow' ? 'BIGINT' : 'DOUBLE';
  return 'DOUBLE';
}

/** The bundled schema's type word of a column. */
function typeWord(kind: ColumnKind, variation: ResolvedVariation): string {
  if (variation.typeWords === 'spec') return kind === 'time' || kind === 'count' ? 'number' : kind;
  return { string: 'utf8', boolean: 'bool', number: 'float64', time: 'float64', count: 'int64' }[kind];
}

/** Columns of the data files, spec order, then the extra field if any. */
function columns(variation: ResolvedVariation): { name: string; kind: ColumnKind; nullable: boolean; description: string }[] {
  const list = CONTRACT_FIELDS.map(({ name, kind, nullable, description }) => ({ name, kind, nullable, description }));
  if (variation.extraField !== undefined) {
    list.push({ name: variation.extraField.name, kind: 'number', nullable: true, description: 'A field this server adds beyond the spec.' });
  }
  return list;
}

/** Counts of `values` by value. */
function countBy(values: readonly unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

/** The bundled schema document (one per product version): dataset, version, fields, limitations. */
export function schemaDocument(variation: ResolvedVariation, version = variation.productVersion): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const column of columns(variation)) {
    fields[column.name] = { type: typeWord(column.kind, variation), description: column.description, nullable: column.nullable };
  }
  return { dataset: DATASET_ID, version, fields, limitations: LIMITATIONS };
}

const builtReleases = new Map<string, Promise<BuiltRelease[]>>();

/**
 * Every release of the variation (days ending the day before `now`, oldest first; a revision of the
 * newest day last), built once per distinct set of data choices and shared read-only by the servers.
 */
export function buildReleases(variation: ResolvedVariation, now: number): Promise<BuiltRelease[]> {
  const { days, productVersion, newestDayVersion, idStyle, integerColumns, typeWords, extraField, oldReleaseWithoutSchema, revisedNewestDay, unknownFields, csvColumnOrder } = variation;
  const key = JSON.stringify({ now, days, productVersion, newestDayVersion, idStyle, integerColumns, typeWords, extraField, oldReleaseWithoutSchema, revisedNewestDay, unknownFields, csvColumnOrder });
  let pending = builtReleases.get(key);
  if (pending === undefined) {
    pending = (async () => {
      const dir = await makeTemporaryFolder('rdw-spec-server-');
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      try {
        const releases: BuiltRelease[] = [];
        for (let back = variation.days; back >= 1; back -= 1) {
          const day = new Date((Math.floor(now / 86_400) - back) * 86_400_000).toISOString().slice(0, 10);
          const withoutSchema = variation.oldReleaseWithoutSchema && releases.length === 0;
          const version = back === 1 ? (variation.newestDayVersion ?? variation.productVersion) : variation.productVersion;
          releases.push(await writeRelease(connection, dir, variation, { day, version, revision: 1, rowsNow: now, withoutSchema }));
        }
        const last = releases[releases.length - 1];
        if (variation.revisedNewestDay && last !== undefined) {
          // Re-checked later: more outcomes computed, a new release ID, the first revision still served.
          const version = String(last.release.version);
          releases.push(await writeRelease(connection, dir, variation, { day: last.day, version, revision: 2, rowsNow: now + 2 * 86_400, withoutSchema: false }));
        }
        return releases;
      } finally {
        connection.closeSync();
        instance.closeSync();
        await removeTree(dir);
      }
    })();
    builtReleases.set(key, pending);
  }
  return pending;
}

interface ReleasePlan {
  day: string;
  /** Product version string of the release and its rows. */
  version: string;
  /** 1 for the first publication of the day; each revision gets a new ID. */
  revision: number;
  /** The clock the outcomes were computed at (Unix seconds). */
  rowsNow: number;
  withoutSchema: boolean;
}

/** Writes one release's files into `dir` with DuckDB and reads back their exact bytes. */
async function writeRelease(connection: DuckDBConnection, dir: string, variation: ResolvedVariation, plan: ReleasePlan): Promise<BuiltRelease> {
  const { day, revision, version } = plan;
  const list = columns(variation);
  const rows = dayRows(day, {
    productVersion: version,
    now: plan.rowsNow,
    integerColumns: variation.integerColumns,
    ...(variation.extraField === undefined ? {} : { extraField: variation.extraField.name }),
  });
  const id = releaseId(day, { ...variation, productVersion: version }, revision);
  const base = path.join(dir, `${day}-r${revision}`);
  await writeFile(`${base}.ndjson`, rows.map((row) => JSON.stringify(row)).join('\n'));
  const spec = list.map((column) => `'${column.name}': '${duckType(column.kind, variation)}'`).join(', ');
  await connection.run(`CREATE OR REPLACE TABLE day_rows AS SELECT * FROM read_json('${base}.ndjson', format = 'newline_delimited', columns = {${spec}})`);
  await connection.run(`COPY day_rows TO '${base}.parquet' (FORMAT parquet)`);
  const csvColumns = (variation.csvColumnOrder === 'reversed' ? [...list].reverse() : list).map((column) => `"${column.name}"`).join(', ');
  await connection.run(`COPY (SELECT ${csvColumns} FROM day_rows) TO '${base}.csv' (FORMAT csv, HEADER true, DELIMITER ',')`);
  const parquet = built(await readFile(`${base}.parquet`), 'application/vnd.apache.parquet');
  const csv = built(await readFile(`${base}.csv`), 'text/csv; charset=utf-8');
  const sampleTimes = rows.map((row) => Number(row.sample_time));
  const generatedAt = Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400 + (revision - 1) * 2 * 86_400 + (variation.integerColumns ? 1800 : 1800.5);
  const summary: Record<string, unknown> = {
    id,
    dataset: DATASET_ID,
    version,
    day,
    generated_at: generatedAt,
    rows: rows.length,
    coverage: {
      symbols: [...PAIRS],
      samples: countBy(rows.map((row) => row.sample_type)),
      feature_status: countBy(rows.map((row) => row.feature_status)),
      taker_status: countBy(rows.map((row) => row.taker_status)),
      outcomes: Object.fromEntries(OUTCOME_WINDOWS.map(([window]) => [window, countBy(rows.map((row) => row[`status_${window}`]))])),
    },
    min_sample_time: Math.min(...sampleTimes),
    max_sample_time: Math.max(...sampleTimes),
    limitations: LIMITATIONS,
  };
  if (variation.unknownFields) Object.assign(summary, { license: 'CC-BY-4.0', links: { self: `/v1/download/${id}/manifest` }, revision });
  const document = {
    dataset: DATASET_ID,
    version,
    status: 'ready',
    limitations: LIMITATIONS,
    fields: schemaDocument(variation, version).fields,
    release: summary,
    items: rows,
    stale: false,
  };
  const json = built(Buffer.from(`${JSON.stringify(document)}\n`), 'application/json');
  const files: Partial<Record<FileFormat, BuiltFile>> = { json, csv, parquet };
  if (!plan.withoutSchema) files.schema = built(Buffer.from(`${JSON.stringify(schemaDocument(variation, version), null, 2)}\n`), 'application/json');
  const digests = Object.fromEntries(
    (['json', 'csv', 'parquet', 'schema'] as const)
      .filter((format) => files[format] !== undefined)
      .map((format) => [
        format,
        {
          sha256: files[format]!.sha256,
          bytes: files[format]!.bytes.length,
          ...(variation.unknownFields ? { media_type: files[format]!.contentType } : {}),
        },
      ]),
  );
  const release = { ...summary, files: digests };
  files.manifest = built(Buffer.from(`${JSON.stringify(release, null, 2)}\n`), 'application/json');
  return { id, day, rows, release, files };
}
