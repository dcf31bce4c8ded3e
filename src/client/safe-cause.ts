// Turns a low-level error (undici, fs) into a plain Error safe to attach as `cause`: its name, code and
// message only, with the key redacted, so request options and headers are never reachable from it.

/** A detached copy of `error` holding no references to requests, sockets or headers. */
export function safeCause(error: unknown, redact: (text: string) => string): Error {
  const source = error as { name?: unknown; code?: unknown; message?: unknown } | null;
  const message = typeof source?.message === 'string' ? source.message : String(error);
  const copy = new Error(redact(message));
  copy.name = typeof source?.name === 'string' ? source.name : 'Error';
  if (typeof source?.code === 'string') Object.defineProperty(copy, 'code', { value: source.code, enumerable: true });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** A redactor that replaces every occurrence of `secret` (when given) with `[redacted]`. */
export function redactor(secret: string | undefined): (text: string) => string {
  if (secret === undefined || secret === '') return (text) => text;
  return (text) => text.split(secret).join('[redacted]');
}
