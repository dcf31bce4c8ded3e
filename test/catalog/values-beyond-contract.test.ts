// What a second, independent server sent that the spec does not quite say, pulled by the real client into a real
// catalog: JSON with a byte order mark (accepted), a manifest whose status is not `ready` (refused), numbers that
// are not finite (imported as NULL, said), values outside a closed value set (kept, said). The server is the small
// release-variant server (no src/mock code); the material is the mock's real files, rewritten by DuckDB.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedNotices, checkReleaseRows, ManifestInvalidError, pullRelease, pullReleases, type Catalog } from '../../src/catalog/index.js';
import { reimportReleaseRows } from '../../src/catalog/reimport-release-rows.js';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { EXIT_CODES, type Release } from '../../src/contract/index.js';
import { withCatalog } from '../support/with-catalog.js';
import { useMockReleaseMaterial, type MockReleaseFiles } from '../support/mock-release-files.js';
import { digestOf, startReleaseVariantServer, VARIANT_SERVER_KEY, type ServedRelease } from './release-variant-server.js';

const material = useMockReleaseMaterial('rdw-beyond-contract-', 1);
let original: MockReleaseFiles;
let sql: DuckDBConnection;
beforeAll(() => {
  [original] = material.originals as [MockReleaseFiles];
  sql = material.sql;
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

interface VariantOptions {
  name: string;
  /** SQL producing the data file from the original rows, read as `src`. Default: unchanged. */
  select?: string;
  /** Edits the manifest's release object (after its checksums are set). */
  edit?: (release: Release & { coverage: Record<string, any> }) => void;
  /** The manifest's bytes from the finished release object. Default: its JSON. */
  manifest?: (release: Release) => Buffer;
  /** The bundled schema's bytes from its JSON text. Default: the text. */
  schema?: (text: string) => Buffer;
}

/** The original release rewritten by DuckDB, its manifest consistent with the rows (checksums, rows) unless edited. */
async function variant(options: VariantOptions): Promise<ServedRelease> {
  const id = createHash('sha256').update(`beyond-contract:${options.name}`).digest('hex');
  const dataPath = path.join(material.home, `${id}.parquet`);
  await sql.run(`COPY (${(options.select ?? 'SELECT * FROM src').replaceAll('src', `read_parquet('${original.parquet}')`)}) TO '${dataPath}' (FORMAT parquet)`);
  const parquet = await readFile(dataPath);
  const text = JSON.stringify(original.schema, null, 2);
  const schema = options.schema?.(text) ?? Buffer.from(text);
  const release = structuredClone(original.release) as Release & { coverage: Record<string, any> };
  Object.assign(release, { id, files: { parquet: digestOf(parquet), schema: digestOf(schema) } });
  options.edit?.(release);
  return { release, files: { parquet, schema }, ...(options.manifest === undefined ? {} : { manifest: options.manifest(release) }) };
}

async function withVariants<T>(served: readonly ServedRelease[], fn: (catalog: Catalog, client: RdwClient) => Promise<T>): Promise<T> {
  const server = await startReleaseVariantServer();
  for (const release of served) server.add(release);
  try {
    return await withCatalog(async (catalog, home) => {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        await client.releases({ limit: 100 });
        return await fn(catalog, client);
      } finally {
        await client.close();
      }
    });
  } finally {
    await server.close();
  }
}

const one = async (catalog: Catalog, query: string): Promise<number> => Number((await catalog.query(`SELECT (${query})::DOUBLE AS n`))[0]!.n);

describe('JSON with a byte order mark', () => {
  it("imports a release whose manifest and bundled schema start with one; the recorded checksums are the bytes' own", async () => {
    const served = await variant({
      name: 'bom',
      manifest: (release) => Buffer.concat([BOM, Buffer.from(JSON.stringify(release))]),
      schema: (text) => Buffer.concat([BOM, Buffer.from(text)]),
    });
    await withVariants([served], async (catalog, client) => {
      expect(await pullRelease(catalog, client, served.release.id)).toMatchObject({ status: 'imported', rows: original.release.rows });
      const files = await catalog.query<{ format: string; sha256: string }>(`SELECT format, sha256 FROM release_files WHERE release_id = '${served.release.id}' ORDER BY format`);
      expect(files).toEqual([
        { format: 'manifest', sha256: digestOf(served.manifest!).sha256 },
        { format: 'parquet', sha256: served.release.files.parquet!.sha256 },
        { format: 'schema', sha256: served.release.files.schema!.sha256 },
      ]);
    });
  });
});

describe('a release that is not ready', () => {
  const documentShape = (status: unknown) => (release: Release) =>
    Buffer.from(JSON.stringify({ dataset: release.dataset, version: release.version, status, limitations: [], fields: {}, release, items: [], stale: false }));

  it('refuses a manifest document whose status is "building" (exit 3, one sentence), nothing imported; "ready" imports', async () => {
    const building = await variant({ name: 'building', manifest: documentShape('building') });
    const ready = await variant({ name: 'ready', manifest: documentShape('ready') });
    await withVariants([building, ready], async (catalog, client) => {
      const error = await pullRelease(catalog, client, building.release.id).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ManifestInvalidError);
      expect(error).toMatchObject({ code: 'RDW_MANIFEST_INVALID', exitCode: EXIT_CODES.integrity });
      expect((error as Error).message).toBe(
        `The manifest of release ${building.release.id.slice(0, 12)}… is not usable: its status is "building", not "ready", so the release is not complete yet (pull it again later). Nothing was imported.`,
      );
      expect(await one(catalog, `SELECT count(*) FROM releases WHERE id = '${building.release.id}'`)).toBe(0);
      expect(await one(catalog, `SELECT count(*) FROM market_events WHERE release_id = '${building.release.id}'`)).toBe(0);
      expect(await pullRelease(catalog, client, ready.release.id)).toMatchObject({ status: 'imported', rows: original.release.rows });
    });
  });

  it('refuses a release object that carries a status other than "ready" itself', async () => {
    const served = await variant({ name: 'object status', edit: (release) => Object.assign(release, { status: 'pending' }) });
    await withVariants([served], async (catalog, client) => {
      await expect(pullRelease(catalog, client, served.release.id)).rejects.toThrow(/its status is "pending", not "ready"/);
    });
  });
});

describe('numbers that are not finite', () => {
  // three rows' price NaN, one complete 1h return +Infinity, one event_time -Infinity (the smallest row_ids, so fixed)
  const select = `WITH ranked AS (SELECT *, row_number() OVER (ORDER BY row_id) AS k FROM src)
    SELECT * EXCLUDE (k) REPLACE (
      CASE WHEN k <= 3 THEN 'NaN'::DOUBLE ELSE price END AS price,
      CASE WHEN k = (SELECT min(k) FROM ranked WHERE status_1h = 'complete') THEN 'Infinity'::DOUBLE ELSE return_pct_1h END AS return_pct_1h,
      CASE WHEN k = 4 THEN '-Infinity'::DOUBLE ELSE event_time END AS event_time,
      CAST(trigger_value AS FLOAT) AS trigger_value)
    FROM ranked`;

  it('imports them as NULL (missing, never a value), records and reports them, and verify holds the rows to that; a re-import keeps the record whole', async () => {
    const served = await variant({ name: 'non-finite', select });
    await withVariants([served], async (catalog, client) => {
      const pulled = await pullRelease(catalog, client, served.release.id);
      expect(pulled.accepted?.nonFinite).toEqual([
        { field: 'event_time', rows: 1 },
        { field: 'price', rows: 3 },
        { field: 'return_pct_1h', rows: 1 },
      ]);
      const where = `release_id = '${served.release.id}'`;
      expect(await one(catalog, `SELECT count(*) FROM market_events WHERE ${where} AND (isnan(price) OR isinf(price) OR isinf(return_pct_1h) OR isinf(event_time))`)).toBe(0);
      // the file's NULL prices plus the three NaN ones
      const fileNulls = Number((await sql.runAndReadAll(`SELECT count(*) FILTER (WHERE price IS NULL)::DOUBLE AS n FROM read_parquet('${original.parquet}')`)).getRowObjectsJson()[0]!.n);
      expect(await one(catalog, `SELECT count(*) FILTER (WHERE price IS NULL) FROM market_events WHERE ${where}`)).toBe(fileNulls + 3);
      const recorded = async () => JSON.parse((await catalog.query<{ accepted: string }>(`SELECT accepted::VARCHAR AS accepted FROM releases WHERE id = '${served.release.id}'`))[0]!.accepted);
      // The file's finding (trigger_value stored as FLOAT) and the rows' (non-finite numbers), both recorded.
      expect(await recorded()).toEqual({ widened: [{ field: 'trigger_value', type: 'FLOAT' }], nonFinite: pulled.accepted!.nonFinite });
      expect(pulled.accepted).toEqual(await recorded());
      expect(acceptedNotices([pulled]).map((notice) => notice.message)).toEqual([
        '1 release stores number fields in other numeric types (trigger_value FLOAT); imported as DOUBLE.',
        '1 release holds numbers that are not finite (NaN or ±Infinity) in event_time, price, return_pct_1h; imported as NULL (missing, never a value).',
      ]);
      expect((await checkReleaseRows(catalog)).map((check) => check.ok)).toEqual([true]);
      // rdw verify --repair's re-import (items without the files' findings) leaves the record as it was.
      const parquet = served.release.files.parquet!;
      await reimportReleaseRows(catalog, [{ releaseId: served.release.id, format: 'parquet' }], parquet, catalog.store.pathOf(parquet.sha256));
      expect(await recorded()).toEqual({ widened: [{ field: 'trigger_value', type: 'FLOAT' }], nonFinite: pulled.accepted!.nonFinite });
      expect((await checkReleaseRows(catalog)).map((check) => check.ok)).toEqual([true]);
    });
  });

  it('says so in a batch pull too (the writer reads what the import found)', async () => {
    const served = await variant({ name: 'non-finite batch', select });
    const honest = await variant({ name: 'honest batch' });
    await withVariants([served, honest], async (catalog, client) => {
      const { pulled, failed } = await pullReleases(catalog, client, [served.release.id, honest.release.id]);
      expect(failed).toEqual([]);
      expect(pulled.map((result) => result.accepted?.nonFinite?.map((entry) => entry.field))).toEqual([['event_time', 'price', 'return_pct_1h'], undefined]);
    });
  });
});

describe('values outside a closed value set', () => {
  it('keeps a new outcome status as it is and says so; the manifest counting it is not contradicted', async () => {
    const served = await variant({
      name: 'delayed',
      select: `SELECT * REPLACE (CASE WHEN status_24h = 'pending' THEN 'delayed' ELSE status_24h END AS status_24h) FROM src`,
      edit: (release) => {
        const counts = release.coverage.outcomes['24h'] as Record<string, number>;
        counts.delayed = counts.pending!;
        delete counts.pending;
      },
    });
    const pending = (original.release.coverage as any).outcomes['24h'].pending as number;
    expect(pending).toBeGreaterThan(0);
    await withVariants([served], async (catalog, client) => {
      const pulled = await pullRelease(catalog, client, served.release.id);
      expect(pulled.accepted?.otherValues).toEqual([{ field: 'status_24h', value: 'delayed', rows: pending }]);
      expect(await one(catalog, `SELECT count(*) FROM market_events WHERE status_24h = 'delayed'`)).toBe(pending);
      expect(acceptedNotices([pulled]).map((notice) => notice.message)).toEqual([
        `1 release holds values outside the spec's value sets (status_24h "delayed"); kept as they are (an outcome status other than complete is missing).`,
      ]);
    });
  });

  it('keeps a seventh pair as it is and says so (the spec names six; a second server\'s adversary, session 35)', async () => {
    const served = await variant({
      name: 'seventh-pair',
      select: `SELECT * REPLACE (CASE WHEN symbol = 'DOGEUSDT' THEN 'ADAUSDT' ELSE symbol END AS symbol) FROM src`,
      edit: (release) => {
        const symbols = release.coverage.symbols as string[] | undefined;
        if (symbols !== undefined) release.coverage.symbols = symbols.map((symbol) => (symbol === 'DOGEUSDT' ? 'ADAUSDT' : symbol));
      },
    });
    await withVariants([served], async (catalog, client) => {
      const pulled = await pullRelease(catalog, client, served.release.id);
      const rows = await one(catalog, `SELECT count(*) FROM market_events WHERE symbol = 'ADAUSDT'`);
      expect(rows).toBeGreaterThan(0);
      expect(pulled.accepted?.otherValues).toEqual([{ field: 'symbol', value: 'ADAUSDT', rows }]);
      expect(acceptedNotices([pulled]).map((notice) => notice.message)).toEqual([
        `1 release holds values outside the spec's value sets (symbol "ADAUSDT"); kept as they are.`,
      ]);
    });
  });
});
