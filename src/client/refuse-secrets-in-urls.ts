// Keys stay in the Authorization header: a base or site URL that carries one is refused before anything else.
// Its own file, importing only the client's sentences and errors, so `rdw openapi` (which writes the URLs into
// its document) refuses the same URLs without loading the client's transport.

import { CredentialsInUrlError } from './client-errors.js';
import { messages } from './messages.js';
import { urlSecret } from './url-secret.js';

/**
 * Keys stay in the header: throws CredentialsInUrlError (exit 2; the URL is never repeated) when the base
 * or site URL carries the key, a key-shaped token, a user@ part, a query or a fragment. resolveClientOptions
 * runs it first; a caller that refuses for another reason before creating a client (no key set) runs it
 * before that, so a key put in the URL is named as such whatever else is missing.
 */
export function refuseSecretsInUrls(options: { baseUrl?: unknown; siteUrl?: unknown; apiKey?: unknown }): void {
  const key = typeof options.apiKey === 'string' ? options.apiKey : undefined;
  refuseSecretInUrl(options.baseUrl, key, 'baseUrl', 'base URL');
  refuseSecretInUrl(options.siteUrl, key, 'siteUrl', 'site URL');
}

function refuseSecretInUrl(value: unknown, key: string | undefined, option: string, setting: 'base URL' | 'site URL'): void {
  if (typeof value !== 'string') return;
  const carried = urlSecret(value, key);
  if (carried !== undefined) throw new CredentialsInUrlError(messages.urlCarriesSecret(setting, carried), { option, carried });
}
