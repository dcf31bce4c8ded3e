// Quoting of SQL identifiers and string literals for the few statements that cannot take parameters.

/** `"name"` with embedded quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'` with embedded quotes doubled (file paths in COPY ... TO). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A list of release IDs as one text parameter, for `list_contains($ids::VARCHAR[], id)`. Only for IDs
 * already checked by isReleaseId (letters, digits, `.`, `_`, `~`, `-`: no commas, brackets, quotes or spaces to escape).
 */
export function releaseIdListParameter(ids: readonly string[]): string {
  return `[${ids.join(',')}]`;
}
