// Test helper: the embedded mock's real files of its newest releases (manifest, parquet, bundled schema),
// the material that tests build foreign-server variants from.

import path from 'node:path';
import type { Release, SchemaDocument } from '../../src/contract/index.js';
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
