// Quoting of SQL identifiers and string literals, for the few statements that cannot take parameters
// (view and column names, file paths in COPY ... TO).

/** `"name"`: a double-quoted SQL identifier, embedded double quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'`: a single-quoted SQL string literal, embedded single quotes doubled. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
