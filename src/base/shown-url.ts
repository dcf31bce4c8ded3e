// The text of a URL given to rdw (RDW_BASE_URL, --base-url, RDW_SITE_URL), fit to print: without the parts that may
// carry a secret (a user:password@ part, a query, a fragment), also when the text does not parse as a URL.

/**
 * `text` without its userinfo (`user:password@`), query (`?…`) or fragment (`#…`): `http://u:s@host:1/v1?key=s` is
 * shown as `http://host:1/v1`. A URL with a host keeps its scheme, host and path as parsed; other text (a scheme
 * left out or mistyped: `u:s@host/v1`, `http//u:s@host/v1`) loses everything up to its last `@`, so a secret is
 * never shown even where the URL cannot be read. Text with none of these parts is returned as it is.
 */
export function shownUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const withoutQuery = text.replace(/[?#][\s\S]*$/, '');
  if (url !== undefined && url.host !== '') {
    const parsed = `${url.protocol}//${url.host}${url.pathname}`;
    // Unchanged when nothing was left out, so the text reads as it was given (no added slash).
    return url.username === '' && url.password === '' && withoutQuery === text ? text : parsed;
  }
  const at = withoutQuery.lastIndexOf('@');
  if (at === -1) return withoutQuery;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(withoutQuery)?.[0] ?? '';
  return `${scheme}${withoutQuery.slice(at + 1)}`;
}
