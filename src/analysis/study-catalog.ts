// studyCatalog: the one way to run the event study over a catalog (rdw study, rdw demo, Study.eventStudy
// and so the notebooks): queued behind every other use of the catalog, in a read-only transaction.

import { readMarketEvents, type Catalog } from '../catalog/index.js';
import { eventStudy } from './event-study.js';
import type { EventStudyOptions } from './event-study-options.js';
import type { EventStudyResult } from './event-study-result.js';

/**
 * Runs `eventStudy` over the catalog's Market Events rows (the table and view names the catalog hands
 * over), after every earlier use of the catalog finished; reads only (a read-only transaction).
 * @param options as eventStudy's (default: the current view, window `1h`, event_kind × direction)
 * @throws the errors of eventStudy (exit 2)
 */
export function studyCatalog(catalog: Catalog, options: EventStudyOptions = {}): Promise<EventStudyResult> {
  return readMarketEvents(catalog, (source) => eventStudy(source, options));
}
