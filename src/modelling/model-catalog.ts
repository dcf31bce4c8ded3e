// modelCatalog: modelStudy over a catalog, queued behind every other use of it in a read-only transaction
// (as studyCatalog runs the event study).

import { readMarketEvents, type Catalog } from '../catalog/index.js';
import { modelStudy, type ModelStudyOptions, type ModelStudyResult } from './model-study.js';

/**
 * Runs modelStudy over the catalog's Market Events rows, read-only.
 * @throws the errors of modelStudy
 */
export function modelCatalog(catalog: Catalog, options: ModelStudyOptions = {}): Promise<ModelStudyResult> {
  return readMarketEvents(catalog, (source) => modelStudy(source, options));
}
