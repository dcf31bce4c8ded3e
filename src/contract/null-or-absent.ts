// The spec: "Missing values are null or absent, never zero." A document's null member is read as an absent
// one, so each check that accepts an absent field accepts a null one with the same result (issue 31).

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` without its null members when it is a plain object (a copy); anything else unchanged. Not recursive. */
export function withoutNullMembers<T>(value: T): T {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null)) as T;
}

/**
 * A release object (a manifest, a `/releases` item) with every null read as absent: its own members, the
 * entries of `files` and their `sha256`/`bytes`, the parts of `coverage` and the windows of
 * `coverage.outcomes`. A count inside a count object (`coverage.samples.event: null`) stays null: there it
 * says "this value's count is missing", which the import does not check (an absent value counts 0).
 */
export function releaseWithoutNulls<T>(release: T): T {
  if (!isObject(release)) return release;
  const result = withoutNullMembers(release) as Record<string, unknown>;
  if (isObject(result.files)) {
    result.files = Object.fromEntries(Object.entries(withoutNullMembers(result.files)).map(([format, digest]) => [format, withoutNullMembers(digest)]));
  }
  if (isObject(result.coverage)) {
    const coverage = withoutNullMembers(result.coverage);
    if (isObject(coverage.outcomes)) coverage.outcomes = withoutNullMembers(coverage.outcomes);
    result.coverage = coverage;
  }
  return result as T;
}
