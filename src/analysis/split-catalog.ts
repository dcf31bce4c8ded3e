// splitCatalog: time-aware splits over a catalog, queued behind every other use of it in a read-only
// transaction (as studyCatalog runs the event study).

import { readMarketEvents, type Catalog } from '../catalog/index.js';
import { purgedKFoldSplits, type PurgedKFoldOptions } from './purged-k-fold-splits.js';
import type { TimeSplits } from './time-splits.js';
import { walkForwardSplits, type WalkForwardOptions } from './walk-forward-splits.js';

/** Which splits and their options: `{ method: 'purged-k-fold', folds: 5 }`, `{ method: 'walk-forward', trainDays: 30 }`. */
export type SplitCatalogOptions =
  | ({ method: 'purged-k-fold' } & PurgedKFoldOptions)
  | ({ method: 'walk-forward' } & WalkForwardOptions);

/**
 * Runs purgedKFoldSplits or walkForwardSplits over the catalog's Market Events rows, read-only.
 * @throws the errors of the method chosen
 */
export function splitCatalog(catalog: Catalog, options: SplitCatalogOptions): Promise<TimeSplits> {
  return readMarketEvents(catalog, (source) =>
    options.method === 'walk-forward' ? walkForwardSplits(source, options) : purgedKFoldSplits(source, options),
  );
}
