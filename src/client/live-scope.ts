// The public live scope: `{site_url}/api/research/live/<key>[.csv]`, never with the key, paced by the
// per-IP limiter and cached for each page's refresh interval.

import { liveDataset } from '../contract/index.js';
import { checkSegment } from './check-input.js';
import type { ClientCore } from './client-core.js';
import type { RdwClient, ResearchSnapshot } from './client-types.js';
import { DocumentCache, UNDECLARED_REFRESH_SECONDS } from './document-cache.js';
import { displayPath } from './http-transport.js';
import { researchTableFromCsv } from './research-table.js';

/** `client.live` of one client: live pages as JSON (as sent, any shape) and as typed CSV tables. */
export function liveScope(core: ClientCore): RdwClient['live'] {
  const cache = new DocumentCache(core.options.clock);
  const pageUrl = (pageKey: string, suffix = '') => `${core.options.siteUrl}/api/research/live/${pageKey}${suffix}`;
  const publicRequest = (url: string) => ({ url, auth: false, limiter: core.publicLimiter });
  return {
    /** A live page as sent, cached for its refresh interval. */
    async json(pageKey) {
      checkSegment(pageKey);
      const load = () => core.transport.json<ResearchSnapshot>(publicRequest(pageUrl(pageKey)));
      return cache.document(pageKey, liveDataset(pageKey)?.refresh_seconds, load);
    },
    /** A live page's CSV as typed rows and an Arrow table. */
    async csv(pageKey) {
      checkSegment(pageKey);
      const spec = liveDataset(pageKey);
      return cache.table(pageKey, spec?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS, async () => {
        const url = pageUrl(pageKey, '.csv');
        const response = await core.transport.send(publicRequest(url));
        return researchTableFromCsv(await core.transport.readText(response, displayPath(url), 'csv'), spec?.columns);
      });
    },
  };
}
