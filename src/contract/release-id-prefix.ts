// A release ID as people copy it from rdw's tables: the first 12 or more characters (tables show 12, as git shows
// a hash). Commands that take IDs accept such a prefix when exactly one release the catalog knows starts with it
// (src/workbench/resolve-release-ids.ts); locks and catalogs always hold whole IDs.

/** The fewest characters of an ID rdw takes as its prefix: what its tables show. */
export const MIN_RELEASE_ID_PREFIX = 12;

const PREFIX_PATTERN = new RegExp(`^[A-Za-z0-9._~-]{${MIN_RELEASE_ID_PREFIX},63}$`);

/** True for 12 to 63 characters of the release-ID alphabet: a prefix of an ID, never a whole one. */
export function isReleaseIdPrefix(value: unknown): value is string {
  return typeof value === 'string' && PREFIX_PATTERN.test(value);
}
