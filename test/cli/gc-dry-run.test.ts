// `rdw gc --dry-run` changes nothing, so it only reads: it opens the catalog read-only, beside the readers
// of the home (a notebook, rdw sql, a study), as rdw ls does, and on a home it may not write to.

import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

let temp: Awaited<ReturnType<typeof createTempHome>>;
beforeAll(async () => {
  temp = await createTempHome('rdw-gc-dry-');
  await (await openCatalog(temp.home)).close();
  await mkdir(path.join(temp.home, 'store', 'tmp'), { recursive: true });
  await writeFile(path.join(temp.home, 'store', 'tmp', 'left-by-a-kill.part'), 'partial');
});
afterAll(async () => {
  await temp.remove();
});

describe('rdw gc --dry-run', () => {
  it('lists what gc would remove while another process reads the catalog (it waited for a writer lock, then exit 1)', async () => {
    // Another process holding catalog.duckdb read-only (DuckDB's shared lock), as a notebook's connection does.
    const reader = await DuckDBInstance.create(path.join(temp.home, 'catalog.duckdb'), { access_mode: 'READ_ONLY' });
    const connection = await reader.connect();
    try {
      await connection.run('SELECT count(*) FROM releases');
      const run = await runBuiltCli(['gc', '--dry-run', '--home', temp.home], { env: { RDW_CATALOG_WAIT: '1' } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('store/tmp/left-by-a-kill.part\t7\n');
      // A real gc still needs the writer's lock, so it does wait for the reader.
      const gc = await runBuiltCli(['gc', '--home', temp.home], { env: { RDW_CATALOG_WAIT: '1' } });
      expect(gc.code).toBe(1);
    } finally {
      connection.closeSync();
      reader.closeSync();
    }
  });
});
