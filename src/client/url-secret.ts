// Keys stay in the header: finds what in a URL given to rdw (base, site, redirect target) could carry a
// secret — the key itself, a key-shaped token, a user:password part, a query or a fragment.

import { API_KEY_PREFIX } from '../contract/index.js';

/** What a URL carries that rdw refuses to send: see urlSecret. */
export type UrlSecret = 'key' | 'userinfo' | 'query' | 'fragment';

/** `rdw_sk_` followed by secret-looking characters (the mock's prefix; a real service's may differ, hence also the key itself). */
const KEY_SHAPED = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{4,}`, 'i');

/**
 * What `raw` carries that could leak a secret, or undefined. Checked on the text as given (and decoded), so
 * a `?` with an empty query or a key anywhere (path, host, userinfo) counts. `apiKey`: RDW_API_KEY, when set.
 * `allowQuery`: a redirect target may carry a query (signed download URLs), never a key or userinfo.
 */
export function urlSecret(raw: string, apiKey?: string, options: { allowQuery?: boolean } = {}): UrlSecret | undefined {
  const decoded = safeDecode(raw);
  if (apiKey !== undefined && apiKey !== '' && (raw.includes(apiKey) || decoded.includes(apiKey))) return 'key';
  if (KEY_SHAPED.test(raw) || KEY_SHAPED.test(decoded)) return 'key';
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.username !== '' || url.password !== '')) return 'userinfo';
  if (url === undefined && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) return 'userinfo';
  if (options.allowQuery === true) return undefined;
  if (raw.includes('?')) return 'query';
  if (raw.includes('#')) return 'fragment';
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
