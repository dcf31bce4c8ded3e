// Quoting of SQL identifiers and string literals for the few statements that cannot take parameters.

/** `"name"` with embedded quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'` with embedded quotes doubled (file paths in COPY ... TO). */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
