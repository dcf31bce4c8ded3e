// Canonical JSON of release files: keys in the fixed order the builders create them, no spaces, `\n` at the end.

/**
 * `JSON.stringify(value)` plus a trailing newline. Builders construct every object in a fixed key order
 * (spec order for rows and fields), so the text, and hence its SHA-256, is stable.
 */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of `canonicalJson(value)`. */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value));
}
