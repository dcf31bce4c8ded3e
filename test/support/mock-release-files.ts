// Test helper: the embedded mock's real files of its newest releases (manifest, parquet, bundled schema),
// the material that tests build foreign-server variants from, and the set-up of a file that rewrites them.

import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import type { Release, SchemaDocument } from '../../src/contract/index.js';
import { createTempHome } from './temp-home.js';
import { mockClient } from './with-catalog.js';
import { withMockServer } from './with-mock-server.js';

/** One real release of the mock: its manifest's release object, its parquet file and its bundled schema. */
export interface MockReleaseFiles {
  release: Release;
  /** Path of the downloaded parquet file, under `dir`. */
  parquet: string;
  schema: SchemaDocument;
}

/** Downloads the newest `count` releases of a 2-day mock into `dir`, newest first. */
export async function downloadMockReleases(dir: string, count: 1 | 2): Promise<MockReleaseFiles[]> {
  return withMockServer({ days: 2 }, async (mock) => {
    const client = mockClient(mock, path.join(dir, 'client'));
    try {
      const files: MockReleaseFiles[] = [];
      for (const item of await client.releases({ limit: count })) {
        const { release } = await client.manifest(item.id);
        const parquet = path.join(dir, `original-${release.day}.parquet`);
        await client.download(release.id, 'parquet', parquet);
        files.push({ release, parquet, schema: (await client.bundledSchema(release.id))!.document });
      }
      return files;
    } finally {
      await client.close();
    }
  });
}

/** What useMockReleaseMaterial hands a test file once its beforeAll ran. */
export interface MockReleaseMaterial {
  /** A temporary folder of this file's own (removed after all its tests), holding the originals. */
  home: string;
  /** The newest `count` releases' real files, newest first. */
  originals: MockReleaseFiles[];
  /** An in-memory DuckDB connection to rewrite them with (`COPY (SELECT … FROM read_parquet(…)) TO …`). */
  sql: DuckDBConnection;
}

/**
 * Registers the beforeAll/afterAll of a test file that serves variants of the mock's real releases: a temporary
 * home with the newest `count` releases downloaded, and an in-memory DuckDB. The returned object is filled in
 * beforeAll; read it inside tests and later hooks.
 */
export function useMockReleaseMaterial(prefix: string, count: 1 | 2): MockReleaseMaterial {
  const material = {} as MockReleaseMaterial;
  let scratch: { home: string; remove(): Promise<void> } | undefined;
  let duck: DuckDBInstance | undefined;
  beforeAll(async () => {
    scratch = await createTempHome(prefix);
    material.home = scratch.home;
    material.originals = await downloadMockReleases(scratch.home, count);
    duck = await DuckDBInstance.create(':memory:');
    material.sql = await duck.connect();
  }, 60_000);
  afterAll(async () => {
    material.sql?.closeSync();
    duck?.closeSync();
    await scratch?.remove();
  });
  return material;
}
