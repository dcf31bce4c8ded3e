// Issue 31 item 7: the spec says "missing values are null or absent, never zero". For each optional field of
// each document rdw parses (the manifest, a `/releases` item, the bundled schema, the paid /catalog's limits,
// a /rows page), one case with the field absent and one with it null, over real HTTP on 127.0.0.1 (servers that
// share no code with src/mock) into a real catalog: both accepted, with the same result. Required manifest
// fields: absent and null both refused, with the same error code.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullRelease } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import type { Release } from '../../src/contract/index.js';
import { digestOf, parquetWithNullColumns, pythonCsvBytes, releaseIdOf, releaseObject, releaseRows, schemaBytes } from '../support/dialect-release.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';
import { CONTRACT_FIELDS } from '../support/spec-server/index.js';
import { withCatalog } from '../support/with-catalog.js';
import { startReleaseVariantServer, VARIANT_SERVER_KEY, type ReleaseVariantServer } from './release-variant-server.js';

const DAY = '2026-10-09';
const ROWS = releaseRows(DAY);
const ID = releaseIdOf('null-or-absent');
const PARQUET = Buffer.from(parquetWithNullColumns(ROWS, []));
const CSV = pythonCsvBytes(ROWS, CONTRACT_FIELDS.map((field) => field.name));
const JSON_FILE = Buffer.from('{}\n');

type Json = Record<string, unknown>;
/** How the field is left out: absent (no member) or null. */
type Missing = 'absent' | 'null';

/** A copy of `document` with the member at dotted `path` absent or null. */
function without(document: Json, path: string, missing: Missing): Json {
  const copy = structuredClone(document);
  const names = path.split('.');
  const last = names.pop()!;
  let parent: Json = copy;
  for (const name of names) parent = parent[name] as Json;
  if (missing === 'absent') delete parent[last];
  else parent[last] = null;
  return copy;
}

const baseSchema = () => JSON.parse(schemaBytes().toString('utf8')) as Json;
const baseManifest = (schema: Buffer = schemaBytes()) => releaseObject(ID, DAY, ROWS, { json: JSON_FILE, csv: CSV, parquet: PARQUET, schema });

let server: ReleaseVariantServer;
let scripted: ScriptedServer;

beforeAll(async () => {
  server = await startReleaseVariantServer();
  scripted = await startScriptedServer();
});

afterAll(async () => {
  await server?.close();
  await scripted?.close();
});

interface PullCase {
  manifest: Json;
  schema?: Buffer;
  /** The `/releases` item's fields over id, day, version, files (undefined drops a member); the listing is read first when given. */
  listed?: Json;
}

/**
 * Serves the case and pulls the release into a fresh catalog with a real client: what the pull returned and what
 * the catalog then holds (the release's row without its import time and checksums, its data files, the row count),
 * or the error's code.
 */
async function pullOutcome(served: PullCase): Promise<unknown> {
  server.add({
    release: served.manifest as unknown as Release,
    files: { parquet: PARQUET, csv: CSV, schema: served.schema ?? schemaBytes() },
    ...(served.listed === undefined ? {} : { listed: served.listed }),
  });
  return withCatalog(async (catalog, home) => {
    const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
    try {
      if (served.listed !== undefined) await client.releases({ limit: 10 });
      const result = await pullRelease(catalog, client, ID);
      const releases = await catalog.query(
        `SELECT id, dataset, version, strftime(day, '%Y-%m-%d') AS day, generated_at, rows::INTEGER AS rows, min_sample_time, max_sample_time,
           schema_sha256 IS NOT NULL AS schema_recorded, coverage::VARCHAR AS coverage, limitations::VARCHAR AS limitations, accepted::VARCHAR AS accepted FROM releases`,
      );
      // The bundled schema's bytes differ between the two cases (a null member is written, an absent one is not):
      // only whether one was recorded is compared.
      const files = await catalog.query(`SELECT format, CASE format WHEN 'schema' THEN 'recorded' ELSE sha256 END AS sha256 FROM release_files WHERE format <> 'manifest' ORDER BY format`);
      const [count] = await catalog.query('SELECT count(*)::INTEGER AS n FROM market_events');
      return { result, releases, files, rows: count?.n };
    } catch (error) {
      return { error: (error as { code?: unknown }).code ?? String(error) };
    } finally {
      await client.close();
    }
  });
}

/** Pulls the case with the field absent and with it null: equal outcomes, and `imported` for an optional field. */
async function expectSameImport(make: (missing: Missing) => PullCase): Promise<void> {
  const absent = await pullOutcome(make('absent'));
  const nulled = await pullOutcome(make('null'));
  expect(nulled).toEqual(absent);
  expect((absent as { result?: { status?: string } }).result?.status, JSON.stringify(absent)).toBe('imported');
}

const OPTIONAL_MANIFEST_FIELDS = [
  'files.json',
  'files.csv',
  'files.schema',
  'coverage',
  'coverage.symbols',
  'coverage.samples',
  'coverage.feature_status',
  'coverage.taker_status',
  'coverage.outcomes',
  'coverage.outcomes.24h',
  'min_sample_time',
  'max_sample_time',
  'limitations',
];

describe('manifest: an optional field absent or null', () => {
  it.each(OPTIONAL_MANIFEST_FIELDS)('%s', async (path) => {
    await expectSameImport((missing) => ({ manifest: without(baseManifest(), path, missing) }));
  }, 30_000);

  it('files.parquet (the csv is imported instead)', async () => {
    await expectSameImport((missing) => ({ manifest: without(baseManifest(), 'files.parquet', missing) }));
    const outcome = (await pullOutcome({ manifest: without(baseManifest(), 'files.parquet', 'null') })) as { result: { format: string } };
    expect(outcome.result.format).toBe('csv');
  }, 30_000);

  it('the release document shape: release.version null or absent, the document says it', async () => {
    const wrapped = (missing: Missing): Json => {
      const { dataset, version, ...inner } = baseManifest();
      return { dataset, version, release: without({ ...inner, version }, 'version', missing) };
    };
    await expectSameImport((missing) => ({ manifest: wrapped(missing) }));
  }, 30_000);

  it.each(['dataset', 'version', 'day', 'rows', 'generated_at', 'files'])('required %s: absent and null both refused, same code', async (path) => {
    const absent = await pullOutcome({ manifest: without(baseManifest(), path, 'absent') });
    const nulled = await pullOutcome({ manifest: without(baseManifest(), path, 'null') });
    expect(nulled).toEqual(absent);
    expect(absent).toHaveProperty('error');
    expect((absent as { error: string }).error).toMatch(/^RDW_(MANIFEST_INVALID|UNEXPECTED_RESPONSE)$/);
  }, 30_000);
});

describe('/releases item: an optional field absent or null (the pull compares the manifest with the listing)', () => {
  const listedFiles = () => structuredClone(baseManifest().files as Json);
  it.each(['version', 'generated_at', 'files'])('%s', async (name) => {
    await expectSameImport((missing) => ({ manifest: baseManifest(), listed: { [name]: missing === 'null' ? null : undefined } }));
  }, 30_000);
  it.each(['files.parquet', 'files.schema', 'files.parquet.sha256', 'files.parquet.bytes'])('%s', async (path) => {
    await expectSameImport((missing) => ({ manifest: baseManifest(), listed: { files: without({ files: listedFiles() }, path, missing).files } }));
  }, 30_000);
});

describe('bundled schema: an optional field absent or null', () => {
  it.each(['version', 'dataset', 'fields.venue.nullable', 'fields.venue.description', 'fields.feature_pit_eligible.nullable'])('%s', async (path) => {
    await expectSameImport((missing) => {
      const schema = Buffer.from(JSON.stringify(without(baseSchema(), path, missing)));
      return { manifest: baseManifest(schema), schema };
    });
  }, 30_000);
});

describe('paid /catalog limits: a limit absent or null', () => {
  const document = { datasets: [], limits: { keys: 5, rpm: 300, daily_bytes: 5 * 2 ** 30 } };
  it.each(['limits', 'limits.rpm', 'limits.daily_bytes', 'limits.keys'])('%s', async (path) => {
    const limitsOf = async (missing: Missing) => {
      const body = without(document, path, missing);
      scripted.handler = (_req, res) => sendJson(res, 200, body);
      const client = createClient({ baseUrl: scripted.baseUrl, apiKey: VARIANT_SERVER_KEY, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        return await client.limits();
      } finally {
        await client.close();
      }
    };
    expect(await limitsOf('null')).toEqual(await limitsOf('absent'));
  });
});

describe('/rows page: a paging field absent or null', () => {
  const items = ROWS.slice(0, 5);
  it.each(['total', 'has_more', 'next_offset'])('%s', async (name) => {
    const pagesOf = async (missing: Missing) => {
      scripted.handler = (_req, res, url) => {
        if (url.pathname.endsWith('/catalog')) return sendJson(res, 200, { datasets: [], limits: { rpm: 6000 } });
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 100);
        const page = items.slice(offset, offset + limit);
        const more = offset + page.length < items.length;
        const body: Json = { items: page, total: items.length, has_more: more, next_offset: more ? offset + page.length : null };
        sendJson(res, 200, without(body, name, missing));
      };
      const client = createClient({ baseUrl: scripted.baseUrl, apiKey: VARIANT_SERVER_KEY, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        const pages: unknown[][] = [];
        for await (const page of client.rows(ID, { pageSize: 2 })) pages.push(page);
        return pages;
      } finally {
        await client.close();
      }
    };
    const absent = await pagesOf('absent');
    expect(await pagesOf('null')).toEqual(absent);
    expect(absent.flat()).toEqual(items);
  });
});

describe('error body: an optional field absent or null', () => {
  it.each([
    [422, 'message'],
    [422, 'parameter'],
    [404, 'message'],
  ])('%i %s', async (status, name) => {
    const errorOf = async (missing: Missing) => {
      const body = without({ error: { status, code: status === 422 ? 'validation_failed' : 'not_found', message: 'said so', parameter: 'limit' } }, `error.${name}`, missing);
      scripted.handler = (_req, res, url) => (url.pathname.endsWith('/catalog') ? sendJson(res, 200, { datasets: [], limits: { rpm: 6000 } }) : sendJson(res, status, body));
      const client = createClient({ baseUrl: scripted.baseUrl, apiKey: VARIANT_SERVER_KEY, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        await client.releases({ limit: 5 });
        return 'no error';
      } catch (error) {
        const { name: kind, code, message, parameter } = error as { name: string; code: string; message: string; parameter?: unknown };
        return { kind, code, message, parameter };
      } finally {
        await client.close();
      }
    };
    const absent = await errorOf('absent');
    expect(await errorOf('null')).toEqual(absent);
    expect(absent).toMatchObject({ code: status === 422 ? 'RDW_API_VALIDATION' : 'RDW_API_NOT_FOUND' });
  });
});
