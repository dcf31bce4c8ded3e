// Whether a home already holds a catalog: a command that only reads refuses a home without one (and creates
// nothing), one that may pull opens it to write instead.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_FILE } from '../catalog/index.js';

/** Whether `home` holds a catalog file. */
export function hasCatalog(home: string): boolean {
  return existsSync(path.join(home, CATALOG_FILE));
}
