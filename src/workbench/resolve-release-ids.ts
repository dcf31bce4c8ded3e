// Release IDs as a person gives them: whole IDs as they are, or the first 12+ characters copied from a table of
// rdw's (releases, ls, pull), taken when exactly one release this catalog knows (imported or listed) starts with
// them. What is resolved is always a whole ID: locks and catalogs never hold a prefix.

import { CatalogOptionError, checkReleaseIds, releaseIdsWithPrefix, type Catalog } from '../catalog/index.js';
import { isReleaseId, isReleaseIdPrefix, releaseIdMessages } from '../contract/index.js';

/**
 * Refuses what is neither a whole release ID nor a prefix of 12+ of its characters (CatalogOptionError, exit 2;
 * the contract's one sentence), before anything opens.
 */
export function checkReleaseIdsOrPrefixes(inputs: readonly string[]): void {
  checkReleaseIds(inputs.filter((input) => !isReleaseIdPrefix(input)));
}

/**
 * `inputs` as whole IDs, in the order given: a whole ID unchanged (known or not: a pull by ID needs no listing);
 * a prefix replaced by the one known ID starting with it.
 * @throws CatalogOptionError (exit 2) for a malformed input, a prefix no known release starts with, or one that
 * several start with (the sentence names them and says what to give instead).
 */
export async function resolveReleaseIds(catalog: Catalog, inputs: readonly string[]): Promise<string[]> {
  checkReleaseIdsOrPrefixes(inputs);
  const resolved: string[] = [];
  for (const input of inputs) {
    if (isReleaseId(input)) {
      resolved.push(input);
      continue;
    }
    const found = await releaseIdsWithPrefix(catalog, input);
    if (found.length === 1) resolved.push(found[0]!);
    else if (found.length === 0) throw new CatalogOptionError(await unknownPrefixSentence(catalog, input), { option: 'releaseId' });
    else throw new CatalogOptionError(releaseIdMessages.ambiguousPrefix(input, found), { option: 'releaseId' });
  }
  return resolved;
}

/** The sentence of a prefix no known ID starts with; one that another letter case of it matches is named (not taken). */
async function unknownPrefixSentence(catalog: Catalog, prefix: string): Promise<string> {
  const cases = [...new Set([prefix.toLowerCase(), prefix.toUpperCase()])].filter((other) => other !== prefix);
  const near = (await Promise.all(cases.map((other) => releaseIdsWithPrefix(catalog, other)))).flat();
  return near.length === 1 ? releaseIdMessages.unknownPrefixOtherCase(prefix, near[0]!) : releaseIdMessages.unknownPrefix(prefix);
}
