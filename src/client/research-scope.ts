// The free Research scope (any valid key): the research catalog, dataset snapshots and their CSV tables,
// each cached for its refresh interval.

import { UsageError, researchDataset } from '../contract/index.js';
import { checkSegment } from './check-input.js';
import type { ClientCore } from './client-core.js';
import type { RdwClient, ResearchCatalog, ResearchSnapshot } from './client-types.js';
import { DocumentCache, UNDECLARED_REFRESH_SECONDS } from './document-cache.js';
import { messages } from './messages.js';
import { researchTableFromCsv } from './research-table.js';

/** `client.research` of one client: `/research/catalog`, `/research/<id>` and `/research/<id>/csv`. */
export function researchScope(core: ClientCore): RdwClient['research'] {
  const cache = new DocumentCache(core.options.clock);
  return {
    /** The research catalog; its `limits.rpm` sizes the key's limiter. */
    async catalog() {
      const catalog = await core.getJson<ResearchCatalog>(core.apiUrl('/research/catalog'));
      const rpm = catalog?.limits?.rpm;
      if (typeof rpm === 'number') core.setAccountRpm(rpm, true);
      return catalog;
    },
    /** A dataset's snapshot as sent (any JSON shape), cached for its refresh interval or a longer `maxAgeSeconds`. */
    async snapshot(datasetId, options = {}) {
      checkSegment(datasetId);
      if (options.maxAgeSeconds !== undefined && !(options.maxAgeSeconds >= 0)) {
        throw new UsageError(messages.badOption('maxAgeSeconds', 'a number of seconds >= 0'), { option: 'maxAgeSeconds' });
      }
      const load = () => core.getJson<ResearchSnapshot>(core.apiUrl(`/research/${datasetId}`));
      return cache.document(datasetId, researchDataset(datasetId)?.refresh_seconds, load, options.maxAgeSeconds);
    },
    /** A dataset's CSV as typed rows and an Arrow table (types from the dataset's columns in src/contract). */
    async csv(datasetId) {
      checkSegment(datasetId);
      const spec = researchDataset(datasetId);
      return cache.table(datasetId, spec?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS, async () => {
        const text = await core.getCsvText(core.apiUrl(`/research/${datasetId}/csv`));
        return researchTableFromCsv(text, spec?.columns);
      });
    },
  };
}
