// What the import of one release (step 7 of a pull) is given: its verified manifest, stored files and column plan.
// Its own file so the import and the SQL and checks it builds on import it without a circle of files.

import type { FileDigest, Release } from '../contract/index.js';
import type { AcceptedBeyondContract } from './accepted-beyond-contract.js';
import type { ColumnPlan } from './check-data-columns.js';

/** Data file formats a release can be imported from. */
/** The files a release's rows are imported from, in the order a pull prefers them. */
export const DATA_FORMATS = ['parquet', 'csv'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/** What step 7 needs: the verified manifest, the stored data file, and the stored small files. */
export interface ReleaseImport {
  release: Release;
  /** SHA-256 of the exact manifest bytes (what a study lock pins). */
  manifestSha256: string;
  manifestBytes: number;
  /** SHA-256 and size of the bundled schema file, when the release has one. */
  schema: FileDigest | undefined;
  format: DataFormat;
  /** The data file's digest (verified) and its path in the store. */
  data: FileDigest;
  dataPath: string;
  /** How the data file's columns map onto the catalog (`checkDataFile`'s result). Default: exactly the spec's columns and types. */
  columns?: ColumnPlan;
  /** What the release carried beyond the contract, recorded in `releases.accepted`. Default: nothing. */
  accepted?: AcceptedBeyondContract;
}
