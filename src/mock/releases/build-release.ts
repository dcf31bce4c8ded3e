// Builds one release from a day's rows: the five files, their digests, the ID and the release object.

import {
  MARKET_EVENTS_DATASET,
  MARKET_EVENTS_LIMITATIONS,
  PRODUCT_VERSION,
  schemaDocument,
  schemaFields,
  type DownloadFormat,
  type MarketEventRow,
  type Release,
  type ReleaseDocument,
} from '../../contract/index.js';
import { sha256Digest } from '../../base/index.js';
import { canonicalJsonBytes } from './canonical-json.js';
import { releaseCoverage } from './release-coverage.js';
import { releaseCsv } from './release-csv.js';
import { releaseId } from './release-id.js';
import { releaseParquet } from './release-parquet.js';

/** Extra limitation of a release that predates its bundled schema (DESIGN.md 3). */
export const NO_BUNDLED_SCHEMA_LIMITATION =
  'This release predates its bundled schema file; use the current /schema response for field definitions.';

/** A built release: the release object (the manifest) and the bytes of every file. */
export interface ReleaseBundle {
  release: Release;
  /** File bytes by download format; `schema` is undefined for a release without a bundled schema. */
  files: Record<DownloadFormat, Uint8Array | undefined>;
}

let schemaBytes: Uint8Array | undefined;
/** The bundled schema file: `schemaDocument()` as canonical JSON (the same for every release of a version). */
export function schemaFileBytes(): Uint8Array {
  schemaBytes ??= canonicalJsonBytes(schemaDocument(PRODUCT_VERSION));
  return schemaBytes;
}

/**
 * Builds the release of `day` whose content is `rows` (ordered by `orderedRow`, in file order),
 * generated at check time `generatedAt` (UTC Unix seconds). `withSchema` is false for days before
 * the simulator's `schemaSince`.
 */
export function buildRelease(day: string, generatedAt: number, rows: readonly MarketEventRow[], withSchema: boolean): ReleaseBundle {
  // 1. content files and their digests
  const csv = releaseCsv(rows);
  const parquet = releaseParquet(rows);
  const schema = withSchema ? schemaFileBytes() : undefined;
  const contentFiles = {
    csv: sha256Digest(csv),
    parquet: sha256Digest(parquet),
    ...(schema ? { schema: sha256Digest(schema) } : {}),
  };
  // 2. the ID, from content only
  const id = releaseId({ dataset: MARKET_EVENTS_DATASET, version: PRODUCT_VERSION, day, files: contentFiles });
  // 3. the release object without `json` (it cannot hold its own checksum) -> the json document
  let minSampleTime: number | null = null;
  let maxSampleTime: number | null = null;
  for (const row of rows) {
    if (minSampleTime === null || row.sample_time < minSampleTime) minSampleTime = row.sample_time;
    if (maxSampleTime === null || row.sample_time > maxSampleTime) maxSampleTime = row.sample_time;
  }
  const coverage = releaseCoverage(rows);
  const limitations = [...MARKET_EVENTS_LIMITATIONS, ...(withSchema ? [] : [NO_BUNDLED_SCHEMA_LIMITATION])];
  const body = <F extends ReleaseDocument['release']['files']>(files: F) => ({
    id,
    dataset: MARKET_EVENTS_DATASET,
    version: PRODUCT_VERSION,
    day,
    generated_at: generatedAt,
    rows: rows.length,
    files,
    coverage,
    min_sample_time: minSampleTime,
    max_sample_time: maxSampleTime,
    limitations,
  });
  const document: ReleaseDocument = {
    dataset: MARKET_EVENTS_DATASET,
    version: PRODUCT_VERSION,
    status: 'ready',
    limitations,
    fields: schemaFields(),
    release: body(contentFiles),
    items: rows as MarketEventRow[],
    stale: false,
  };
  const json = canonicalJsonBytes(document);
  // 4. the manifest: the full release object, json digest first as in the spec's key list
  const release: Release = body({
    json: sha256Digest(json),
    csv: contentFiles.csv,
    parquet: contentFiles.parquet,
    ...(contentFiles.schema ? { schema: contentFiles.schema } : {}),
  });
  const manifest = canonicalJsonBytes(release);
  return { release, files: { json, csv, parquet, schema, manifest } };
}
