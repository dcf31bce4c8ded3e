// Repairing what a store verification found (rdw verify --repair): each bad stored file fetched again by
// release ID, verified and re-imported, then the releases whose rows still differ re-imported from the store.
// The API is connected only when a stored file must be fetched.

import { repairRowsAfterFiles, repairStoredFiles, type Catalog, type ReleaseRowsRepair, type StoreFileRepair, type StoreVerification } from '../catalog/index.js';
import type { RdwClient } from '../client/index.js';

export interface RepairVerifiedStoreOptions {
  /** The API, asked for only when a stored file must be fetched (the caller closes it). */
  connect: () => Promise<RdwClient>;
  /** Called as each file's repair ends. Default: none. */
  onRepair?: (repair: StoreFileRepair) => void;
}

export interface VerifiedStoreRepair {
  repairs: StoreFileRepair[];
  rowRepairs: ReleaseRowsRepair[];
}

/**
 * Repairs `report` (verifyStore's) in `catalog`, opened to write. Never throws for one file or release: see
 * each repair's `error`.
 */
export async function repairVerifiedStore(catalog: Catalog, report: StoreVerification, options: RepairVerifiedStoreOptions): Promise<VerifiedStoreRepair> {
  const repairs =
    report.bad.length === 0 ? [] : await repairStoredFiles(catalog, await options.connect(), report.bad, options.onRepair === undefined ? {} : { onRepair: options.onRepair });
  const rowRepairs = await repairRowsAfterFiles(catalog, report, repairs);
  return { repairs, rowRepairs };
}
