// checkLockedRows: a study's locked rows against the fingerprints verified when it was opened, on the connection
// the computation then reads, so no writer can change the rows between the check and the numbers (Study).

import { readRowsFingerprints, type MarketEventsSource } from '../catalog/index.js';
import { LockMismatchError, NotInCatalogError } from './study-errors.js';
import { studyMessages } from './messages.js';

/** A locked release's rows as verified: exact ID and the rows fingerprint they had. */
export interface VerifiedRows {
  id: string;
  /** The lock's `rowsFingerprint`, else the one the verification measured (64 hex). */
  rowsFingerprint: string;
}

/**
 * Recomputes the fingerprint of the rows of every release of `verified` on `source`'s connection (one statement,
 * as checkReleaseRows) and compares it with the verified one. Run it first inside the hold of the computation.
 * @throws LockMismatchError (exit 3, `file: 'rows'`) naming the first release whose rows differ, in the order given;
 *   NotInCatalogError (exit 6) when a release's record is gone from the catalog.
 */
export async function checkLockedRows(source: MarketEventsSource, verified: readonly VerifiedRows[]): Promise<void> {
  const actual = await readRowsFingerprints(source.connection, verified);
  for (const release of verified) {
    const found = actual.get(release.id);
    if (found === undefined) throw new NotInCatalogError(studyMessages.notInCatalog(release.id), { releaseId: release.id });
    if (found !== release.rowsFingerprint) {
      throw new LockMismatchError(studyMessages.rowsDiffer(release.id, release.rowsFingerprint, found), { releaseId: release.id, file: 'rows' });
    }
  }
}
