// JSON text as a service may send it: RFC 8259 lets a parser ignore a leading UTF-8 byte order mark, and
// JSON.parse does not (a Windows-made manifest or schema starts with one). Checksums stay those of the bytes.

const BYTE_ORDER_MARK = 0xfeff;

/** JSON.parse of `text` (or of UTF-8 `bytes`) after a leading byte order mark, if any; throws as JSON.parse does. */
export function parseJsonText<T = unknown>(text: string | Uint8Array): T {
  const decoded = typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
  return JSON.parse(decoded.charCodeAt(0) === BYTE_ORDER_MARK ? decoded.slice(1) : decoded) as T;
}
