// splitCatalog: time-aware splits over a catalog, queued behind every other use of it in a read-only
// transaction (as studyCatalog runs the event study).

import { readMarketEvents, type Catalog } from '../catalog/index.js';
import { runSplitMethod, type SplitMethodOptions } from './split-methods.js';
import type { TimeSplits } from './time-splits.js';

/** Which splits and their options: `{ method: 'purged-k-fold', folds: 5 }`, `{ method: 'walk-forward', trainDays: 30 }`. */
export type SplitCatalogOptions = SplitMethodOptions;

/**
 * Runs the split method named (SPLIT_METHODS: purged k-fold, walk-forward, row k-fold) over the catalog's
 * Market Events rows, read-only.
 * @throws AnalysisOptionError for an unknown method; the errors of the method chosen
 */
export function splitCatalog(catalog: Catalog, options: SplitCatalogOptions): Promise<TimeSplits> {
  return readMarketEvents(catalog, (source) => runSplitMethod(source, options));
}
