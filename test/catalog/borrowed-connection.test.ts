// The catalog's `connection` without a Proxy (issue 30): held always, it is DuckDB's own connection; on a lease it is
// a BorrowedConnection whose async methods open the let-go file and keep it; members that need the open connection
// at once are refused with a typed error; on a catalog refusing user writes, only the read methods run.

import { types } from 'node:util';
import { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { CatalogOptionError, CatalogReadOnlyError, openCatalog, type Catalog } from '../../src/catalog/index.js';
import { withTempHome } from '../support/temp-home.js';
import { thrown } from '../support/thrown.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function letGo(catalog: Catalog): Promise<void> {
  while (catalog.fileOpen) await pause(20);
}
describe("the catalog's connection", () => {
  it('is DuckDB’s connection when held always, and no Proxy in any mode', async () => {
    await withTempHome(async (home) => {
      const held = await openCatalog(home);
      try {
        expect(held.connection).toBeInstanceOf(DuckDBConnection);
        expect(types.isProxy(held.connection)).toBe(false);
        expect((await held.connection.runAndReadAll('SELECT 1 AS x')).getRowObjectsJson()).toEqual([{ x: 1 }]);
      } finally {
        await held.close();
      }
      for (const options of [{ hold: 'while-busy' as const }, { userWrites: 'refused' as const }]) {
        const catalog = await openCatalog(home, options);
        try {
          expect(types.isProxy(catalog.connection)).toBe(false);
          expect(catalog.connection).not.toBeInstanceOf(DuckDBConnection);
        } finally {
          await catalog.close();
        }
      }
    });
  });

  it('on a lease, opens the let-go file for prepare and keeps it; interrupt and progress are refused (exit 2)', async () => {
    await withTempHome(async (home) => {
      const lease = await openCatalog(home, { hold: 'while-busy', leaseIdleMs: 0 });
      try {
        await letGo(lease);
        const opens = lease.fileOpens;
        const prepared = await lease.connection.prepare('SELECT 40 + 2 AS x');
        expect((await prepared.runAndReadAll()).getRowObjectsJson()).toEqual([{ x: 42 }]);
        expect(lease.fileOpens).toBe(opens + 1);
        await pause(100);
        expect(lease.fileOpen).toBe(true);
        for (const refused of [() => lease.connection.interrupt(), () => lease.connection.progress]) {
          const error = thrown(refused);
          expect(error).toBeInstanceOf(CatalogOptionError);
          expect((error as CatalogOptionError).code).toBe('RDW_CATALOG_OPTION');
          expect((error as CatalogOptionError).exitCode).toBe(2);
        }
      } finally {
        await lease.close();
      }
      expect(lease.fileOpen).toBe(false);
      await expect(lease.connection.run('SELECT 1')).rejects.toThrow(/was closed/);
    });
  });

  it('refusing user writes, runs reads in the queue and refuses the other members with CatalogReadOnlyError', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home, { userWrites: 'refused', hold: 'while-busy', leaseIdleMs: 0 });
      try {
        const [row] = (await catalog.connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM releases')).getRowObjectsJson();
        expect(row).toEqual({ n: 0 });
        for (const refused of [() => catalog.connection.interrupt(), () => catalog.connection.runAndRead('SELECT 1')]) {
          const error = thrown(refused);
          expect(error).toBeInstanceOf(CatalogReadOnlyError);
          expect((error as CatalogReadOnlyError).code).toBe('RDW_CATALOG_READ_ONLY');
        }
        await expect(catalog.connection.run('DELETE FROM releases')).rejects.toBeInstanceOf(CatalogReadOnlyError);
      } finally {
        await catalog.close();
      }
    });
  });
});
