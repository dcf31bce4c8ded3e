// Sentences of src/store (the team store on S3-compatible object storage): what failed, on which store, and
// what to do. Never a credential, never the API key: a store is named by its s3:// URL only.

export const storeMessages = {
  /** RDW_STORE_URL (or a `s3://` target) is not `s3://bucket[/prefix]`. */
  badStoreUrl: (given: string, why: string) =>
    `RDW_STORE_URL ${JSON.stringify(given)} is not a store URL: ${why}. Give s3://bucket or s3://bucket/prefix (e.g. s3://desk-data/rdw), or unset it to keep the store on this machine.`,
  notS3Scheme: () => 'it must start with s3://',
  noBucket: () => 'it names no bucket',
  badBucket: (bucket: string) =>
    `the bucket name ${JSON.stringify(bucket)} is not 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit`,
  badPrefix: (prefix: string) =>
    `the prefix ${JSON.stringify(prefix)} has an empty, "." or ".." segment, a backslash or a control character`,
  credentialsInUrl: () => 'it carries credentials or a port (give them through AWS_ACCESS_KEY_ID, AWS_PROFILE or AWS_ENDPOINT_URL_S3)',
  queryInUrl: () => 'it has a query string or a fragment',
  /** The store could not be reached (connection refused, DNS, timeout, 5xx). */
  storeUnavailable: (url: string, detail: string) =>
    `The team store ${url} could not be reached (${detail}): check AWS_ENDPOINT_URL_S3 and that the server is up, or unset RDW_STORE_URL.`,
  /** The store answered but refused (403, no such bucket, bad signature). */
  storeRefused: (url: string, detail: string) =>
    `The team store ${url} refused the request (${detail}): check the bucket, and AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY and their rights on it.`,
  // The team store's notices: said, never a failure of the pull (the API serves what the store cannot).
  /** A stored object whose bytes are not those they must be: refused, fetched from the API, repaired. */
  objectRefused: (url: string, what: string, why: string) =>
    `The team store ${url} has no good copy of ${what} (${why}): it is fetched from the API instead, and the store's copy repaired.`,
  /** The store failed a request: this process works from the API alone from here. */
  storeOutOfUse: (failure: string) => `${failure} This run works from the API alone.`,
  objectAbsent: () => 'it is missing',
  objectMissing: () => 'it is missing, though the store holds the release\'s manifest',
  /** `rdw verify --repair`: an object of the store replaced with this home's verified copy. */
  objectReplaced: (url: string, what: string, why: string) =>
    `The team store ${url} had no good copy of ${what} (${why}): replaced with this home's verified copy.`,
  /** After a pull through the team store: what it gave and took, in one line (the pull lines look the same either way). */
  pullUsedStore: (url: string, verified: number, published: number, refused: number) =>
    `The team store ${url}: ${verified} read${verified === 1 ? '' : 's'} verified, ${published} object${published === 1 ? '' : 's'} published${refused === 0 ? '' : `, ${refused} refused (fetched from the API instead)`}.`,
  /** `rdw verify --repair`: the store's check, in one line. */
  storeChecked: (url: string, checked: number, replaced: number) =>
    `The team store ${url}: ${checked} object${checked === 1 ? '' : 's'} checked, ${replaced} replaced with this home's verified copies.`,
  sizeDiffers: (actual: number, expected: number) => `${actual} bytes where ${expected} are due`,
  sha256Differs: (actual: string, expected: string) => `sha256 ${actual.slice(0, 12)}… where ${expected.slice(0, 12)}… is due`,
  /** A file of a release, in words. */
  fileWhat: (format: string, releaseId: string) => `the ${format} file of release ${releaseId.slice(0, 12)}…`,
  manifestWhat: (releaseId: string) => `the manifest of release ${releaseId.slice(0, 12)}…`,
  /** Why a stored manifest was refused. */
  manifestNotVouched: (detail: string) => `it disagrees with the release listing: ${detail}`,
  manifestDiffers: (stored: string, served: string) =>
    `its sha256 is ${stored.slice(0, 12)}… where the API's manifest has ${served.slice(0, 12)}…`,
  manifestUnreadable: (detail: string) => `it is not the manifest of that release: ${detail}`,
  /** The SDK's credential chain found nothing. */
  noCredentials: (url: string) =>
    `The team store ${url} cannot be used: no AWS credentials were found; set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`,
  /** The S3 SDK could not be loaded (an install without optional packages). */
  sdkMissing: () =>
    'RDW_STORE_URL is set, but the package @aws-sdk/client-s3 could not be loaded. Run npm install in rdw\'s folder, or unset RDW_STORE_URL.',
};

