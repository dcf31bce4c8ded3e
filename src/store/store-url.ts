// The team store's address: `s3://bucket[/prefix]` parsed into a bucket and a key prefix, refused with one
// sentence (StoreUrlError, exit 2) when it is anything else. The endpoint and credentials never go here.

import { storeMessages } from './messages.js';
import { StoreUrlError } from './store-errors.js';

/** A parsed `s3://bucket[/prefix]`. */
export interface StoreUrl {
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** The canonical form `s3://bucket/prefix` (or `s3://bucket`), for messages. */
  href: string;
}

// S3's rules for bucket names (virtual-host safe); path-style endpoints allow more, but a desk's bucket
// that works everywhere is the one to accept.
const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Parses `s3://bucket[/prefix]`; throws StoreUrlError (exit 2, option 'RDW_STORE_URL' unless told) otherwise,
 * with the sentence `describe(given, why)` (default: the one about RDW_STORE_URL; `rdw export s3://…` says its own).
 */
export function parseStoreUrl(
  text: string,
  options: { option?: string; describe?: (given: string, why: string) => string } = {},
): StoreUrl {
  const option = options.option ?? 'RDW_STORE_URL';
  const describe = options.describe ?? storeMessages.badStoreUrl;
  const refuse = (why: string): never => {
    // Credentials typed into the URL are never repeated in the sentence.
    throw new StoreUrlError(describe(text.replace(/\/\/[^/]*@/, '//[redacted]@'), why), { option });
  };
  const trimmed = text.trim();
  if (!/^s3:\/\//i.test(trimmed)) refuse(storeMessages.notS3Scheme());
  const rest = trimmed.slice('s3://'.length);
  if (/[?#]/.test(rest)) refuse(storeMessages.queryInUrl());
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  if (authority.includes('@') || authority.includes(':')) refuse(storeMessages.credentialsInUrl());
  if (authority === '') refuse(storeMessages.noBucket());
  if (!BUCKET_PATTERN.test(authority) || authority.includes('..')) refuse(storeMessages.badBucket(authority));
  const prefix = (slash === -1 ? '' : rest.slice(slash + 1)).replace(/^\/+|\/+$/g, '');
  if (prefix !== '') {
    const segments = prefix.split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..') || /[\\\u0000-\u001f\u007f]/.test(prefix)) {
      refuse(storeMessages.badPrefix(prefix));
    }
  }
  return { bucket: authority, prefix, href: prefix === '' ? `s3://${authority}` : `s3://${authority}/${prefix}` };
}

/** The object key of `relative` (e.g. `sha256/ab/ab12…`) under the store's prefix. */
export function storeKey(url: StoreUrl, relative: string): string {
  return url.prefix === '' ? relative : `${url.prefix}/${relative}`;
}
