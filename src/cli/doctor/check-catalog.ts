// The catalog check of `rdw doctor`: `<home>/catalog.duckdb` is not held by another process (DuckDB
// allows one writer), found by src/catalog's probe, which opens and closes it at once.

import { probeCatalogLock } from '../../workbench/home-catalog.js';
import { EXIT_CODES } from '../../contract/index.js';
import { doctorMessages as m } from '../messages.js';
import { failed, passed, type DoctorCheck } from './doctor-check.js';

/** Checks the catalog of `home` (absolute); never creates it. */
export async function checkCatalog(home: string): Promise<DoctorCheck> {
  const probe = await probeCatalogLock(home);
  switch (probe.state) {
    case 'absent':
      return passed('catalog', m.catalogAbsent(probe.file), { file: probe.file, exists: false });
    case 'free':
      if (probe.shadowed !== undefined && probe.shadowed.length > 0) {
        return failed('catalog', m.catalogShadowed(probe.file, probe.shadowed), m.catalogShadowedRemedy(probe.shadowed), EXIT_CODES.integrity, {
          file: probe.file,
          shadowed: [...probe.shadowed],
        });
      }
      if (probe.view !== undefined && probe.view !== 'rdw') {
        return failed('catalog', m.catalogViewDiffers(probe.file, probe.view), m.catalogViewDiffersRemedy(), EXIT_CODES.integrity, { file: probe.file, view: probe.view });
      }
      if (probe.columns !== undefined && probe.columns.length > 0) {
        const column = probe.columns[0]!;
        const name = `${column.table}.${column.column}`;
        return failed('catalog', m.catalogColumnDiffers(probe.file, name, probe.columns.length), m.catalogColumnDiffersRemedy(), EXIT_CODES.integrity, {
          file: probe.file,
          columns: probe.columns.map((difference) => `${difference.table}.${difference.column}`),
        });
      }
      return passed('catalog', m.catalogFree(probe.file), { file: probe.file });
    case 'held':
      return failed('catalog', m.catalogHeld(probe.file, probe.pid, probe.program), m.catalogHeldRemedy(probe.pid), EXIT_CODES.failure, {
        file: probe.file,
        pid: probe.pid ?? null,
      });
    case 'unusable':
      return failed('catalog', m.catalogUnusable(probe.file, probe.detail), m.catalogUnusableRemedy(), EXIT_CODES.failure, { file: probe.file });
  }
}
