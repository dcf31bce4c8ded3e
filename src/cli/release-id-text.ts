// Release IDs as the CLI prints them for people: the first 12 characters, as git shows a hash, so a table or
// a line with an ID fits a 100-column terminal; `--full-ids` (and every --json output) gives whole IDs.
// Locks store whole IDs; rdw pull and rdw lock also take such a prefix back when one known release starts with it
// (src/workbench/resolve-release-ids.ts).

import { MIN_RELEASE_ID_PREFIX } from '../contract/index.js';

/**
 * Characters shown of a release ID: the fewest the commands take back as a prefix (contract). 12 hex characters are 48 bits: among 100,000 random IDs the chance of
 * two sharing a prefix is about 2 in 100,000, and a shared prefix only lengthens the IDs of that output.
 */
export const SHORT_ID_LENGTH = MIN_RELEASE_ID_PREFIX;

/**
 * A function that prints each of `ids` as a short ID: the shortest prefix of at least SHORT_ID_LENGTH
 * characters that tells apart every distinct ID of this output (a service whose IDs share a long prefix gets
 * longer ones, up to whole IDs). `full`: whole IDs, unchanged.
 */
export function releaseIdText(ids: readonly string[], full: boolean): (id: string) => string {
  if (full) return (id) => id;
  const distinct = [...new Set(ids)].sort();
  let length = SHORT_ID_LENGTH;
  // Sorted, two IDs that share a prefix are neighbours: the longest shared prefix of neighbours decides.
  for (let i = 1; i < distinct.length; i++) length = Math.max(length, sharedPrefix(distinct[i - 1]!, distinct[i]!) + 1);
  return (id) => id.slice(0, length);
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
