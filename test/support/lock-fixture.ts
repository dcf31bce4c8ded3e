// Shared set-up of the study tests: a small in-test mock, homes with pulled releases, tampering helpers.

import { chmod, open } from 'node:fs/promises';
import { openCatalog, pullReleases, type Catalog } from '../../src/catalog/index.js';
import type { RdwClient } from '../../src/client/index.js';
import type { MockServer } from '../../src/mock/index.js';
import type { StudyLock } from '../../src/locks/index.js';
import { mockClient } from './with-catalog.js';

/** Small mock: 12 days keep the suite fast. */
export const MOCK_OPTIONS = { days: 12 } as const;

/** The IDs of the newest `n` listed releases. */
export async function latestIds(client: RdwClient, n: number): Promise<string[]> {
  return (await client.releases({ limit: n })).map((release) => release.id);
}

/** Opens a catalog in `home`, pulls `ids` with a fresh client on `mock`, runs `fn`, closes both. */
export async function withPulled<T>(mock: MockServer, home: string, ids: readonly string[], fn: (catalog: Catalog, client: RdwClient) => Promise<T>): Promise<T> {
  const catalog = await openCatalog(home);
  const client = mockClient(mock, home);
  try {
    const result = await pullReleases(catalog, client, ids);
    if (result.failed.length > 0) throw result.failed[0]!.error;
    return await fn(catalog, client);
  } finally {
    await client.close();
    await catalog.close();
  }
}

/** Flips one byte of a (read-only) stored file at `offset`, as a careless editor would. */
export async function flipByte(file: string, offset = 100): Promise<void> {
  await chmod(file, 0o644);
  const handle = await open(file, 'r+');
  try {
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, offset);
    buffer[0] = buffer[0]! ^ 0xff;
    await handle.write(buffer, 0, 1, offset);
  } finally {
    await handle.close();
  }
}

/** A deep copy of `lock` with `edit` applied to it. */
export function editedLock(lock: StudyLock, edit: (copy: StudyLock) => void): StudyLock {
  const copy = structuredClone(lock);
  edit(copy);
  return copy;
}

/** A SHA-256-shaped hex string that differs from `sha256`. */
export const otherSha = (sha256: string): string => (sha256[0] === 'a' ? 'b' : 'a') + sha256.slice(1);
