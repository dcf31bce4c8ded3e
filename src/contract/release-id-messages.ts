// The sentence of a malformed release ID (src/contract/check-release-id.ts): one for every layer that takes IDs.

import { printableText } from '../base/index.js';

export const releaseIdMessages = {
  /** `value` (escaped, cut to 80 characters) is not a release ID: what one is and where to copy it from. */
  badReleaseId: (value: string) =>
    `"${printableText(value)}" is not a release ID (the whole 64 letters, digits or . _ ~ -, exactly as listed: rdw releases --full-ids prints them, tables show the first 12); name releases exactly by ID.`,
};
