// src/store: the team store on S3-compatible object storage (issue 32): the store URL, the lazily loaded S3
// client, the ObjectStore interface and its S3 implementation. Imports base and contract only; the catalog
// and the workbench use it.

export { parseStoreUrl, storeKey } from './store-url.js';
export type { StoreUrl } from './store-url.js';
export { openS3Client, configuredEndpoint, loadS3Sdk, DEFAULT_STORE_REGION } from './open-s3-client.js';
export type { OpenS3ClientOptions } from './open-s3-client.js';
export type { ObjectStore, ObjectInfo, ObjectBody, PutOutcome, PutObjectOptions } from './object-store.js';
export { S3ObjectStore, STORE_TEMP_FOLDER } from './s3-object-store.js';
export type { OpenS3ObjectStoreOptions } from './s3-object-store.js';
export { storeFailure, storeFailureDetail } from './store-failure.js';
export { StoreUrlError, StoreError, StoreUnavailableError, StoreRefusedError, StoreSdkMissingError } from './store-errors.js';
export type { StoreErrorOptions } from './store-errors.js';
export { storeMessages } from './messages.js';
export { TeamStore } from './team-store.js';
export type { TeamFetch, TeamStoreOptions, TeamStoreCounts } from './team-store.js';
export { openTeamStore } from './open-team-store.js';
export type { OpenTeamStoreOptions } from './open-team-store.js';
