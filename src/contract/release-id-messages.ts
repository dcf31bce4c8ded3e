// The sentence of a malformed release ID (src/contract/check-release-id.ts): one for every layer that takes IDs.

import { printableText } from '../base/index.js';

export const releaseIdMessages = {
  /** `value` (escaped, cut to 80 characters) is not a release ID: what one is and where to copy it from. */
  badReleaseId: (value: string) =>
    `"${printableText(value)}" is not a release ID: give the whole ID (64 characters: letters, digits, . _ ~ -; rdw releases --full-ids prints them) or its first 12 or more characters as rdw's tables show them.`,
  /** No release the catalog knows (imported or listed) starts with `prefix`. */
  unknownPrefix: (prefix: string) =>
    `No release this catalog knows starts with "${printableText(prefix)}": run rdw releases (it records what the API lists) and copy an ID from it, or give the whole ID.`,
  /** As unknownPrefix, when one known ID starts with the prefix in another case (IDs are exact: never folded, only said). */
  unknownPrefixOtherCase: (prefix: string, known: string) =>
    `No release this catalog knows starts with "${printableText(prefix)}"; release IDs are exact, letter case too, and one starts with "${known.slice(0, prefix.length)}": give that.`,
  /** Several releases the catalog knows start with `prefix`. */
  ambiguousPrefix: (prefix: string, ids: readonly string[]) =>
    `"${printableText(prefix)}" starts ${ids.length === 2 ? 'two' : 'several'} release IDs (${ids.map((id) => `${id.slice(0, 20)}…`).join(', ')}): give more characters or the whole ID (rdw releases --full-ids).`,
};
