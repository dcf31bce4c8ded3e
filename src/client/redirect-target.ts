// Where a redirect leads: the Location header resolved against the URL that answered, refused when it
// is missing, not http(s), or carries credentials (keys stay in the header, never in a URL).

import { RedirectError } from './client-errors.js';
import { messages } from './messages.js';
import { urlSecret } from './url-secret.js';

/**
 * The next URL of a redirect chain: `location` (relative targets allowed; the fragment dropped) resolved
 * against `from`. Throws RedirectError (reason `no_location`, `scheme` or `credentials`) when it cannot be
 * followed; `path` and `status` name the request in the message; `apiKey` is what must not appear in it.
 */
export function redirectTarget(
  location: string | string[] | undefined,
  from: URL,
  { path, status, apiKey }: { path: string; status: number; apiKey: string | undefined },
): URL {
  const target = resolveLocation(location, from);
  if (target === undefined) throw new RedirectError(messages.redirectNoLocation(path, status), { status, reason: 'no_location' });
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new RedirectError(messages.redirectScheme(path, target.protocol.replace(/:$/, '')), { status, reason: 'scheme' });
  }
  // Keys stay in the header: a target carrying the key or a user:password part is never requested.
  if (urlSecret(target.href, apiKey, { allowQuery: true }) !== undefined) {
    throw new RedirectError(messages.redirectCarriesSecret(path, status), { status, reason: 'credentials' });
  }
  return target;
}

/** A Location header resolved against the URL that answered, or undefined when unusable. */
function resolveLocation(location: string | string[] | undefined, from: URL): URL | undefined {
  const text = Array.isArray(location) ? location[0] : location;
  if (text === undefined || text.trim() === '') return undefined;
  try {
    const target = new URL(text.trim(), from);
    target.hash = '';
    return target;
  } catch {
    return undefined;
  }
}
