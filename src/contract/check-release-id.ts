// The one check of a caller's release ID: the spec's pattern, exactly (no trimming, no case folding), and one
// sentence. Each layer throws its own typed error with that sentence, so codes and exit codes stay its own.

import type { RdwError } from '../base/index.js';
import { isReleaseId } from './market-event-row.js';
import { releaseIdMessages } from './release-id-messages.js';

/**
 * Returns when `value` is a release ID (RELEASE_ID_PATTERN); otherwise throws what `refuse` builds from the
 * sentence, e.g. `(sentence) => new CatalogOptionError(sentence, { option: 'releaseId' })`.
 */
export function checkReleaseId(value: unknown, refuse: (sentence: string) => RdwError): asserts value is string {
  if (!isReleaseId(value)) throw refuse(releaseIdMessages.badReleaseId(String(value)));
}
