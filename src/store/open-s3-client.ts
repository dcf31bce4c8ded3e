// An S3 client for the team store, built by the AWS SDK v3 from its standard chain: AWS_PROFILE and the
// shared config files, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, SSO, instance roles.
// The SDK is imported here, on first use, so that rdw without RDW_STORE_URL never loads it.

import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { storeMessages } from './messages.js';
import { StoreSdkMissingError } from './store-errors.js';

/** Region given to the SDK when none is configured (S3-compatible servers ignore it; the SDK needs one). */
export const DEFAULT_STORE_REGION = 'us-east-1';

export interface OpenS3ClientOptions {
  /**
   * The variables read (default `process.env`): AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL (a custom endpoint:
   * MinIO, Ceph RGW, R2; path-style requests then); AWS_REGION, else AWS_DEFAULT_REGION; AWS_PROFILE;
   * AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN. The SDK's own chain also reads the process's.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Path-style requests (`endpoint/bucket/key`). Default: true when a custom endpoint is configured. */
  forcePathStyle?: boolean;
  /** Attempts per request, retries included (default 3, the SDK's). */
  maxAttempts?: number;
  /** ms to establish a connection before the attempt fails (default 5 000; the SDK's own is none). */
  connectionTimeoutMs?: number;
  /**
   * ms a connection may stay silent (no byte either way) before the attempt fails (default 30 000; the SDK's own
   * is none, so a store that accepts and never answers would hold a pull forever). No bound on a whole transfer.
   */
  idleTimeoutMs?: number;
}

/** The endpoint configured for S3 in `env`, or undefined for AWS's own. */
export function configuredEndpoint(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  return endpoint === undefined || endpoint.trim() === '' ? undefined : endpoint.trim();
}

/** Loads @aws-sdk/client-s3 (once per process); StoreSdkMissingError when it is not installed. */
export async function loadS3Sdk(): Promise<typeof import('@aws-sdk/client-s3')> {
  try {
    return await import('@aws-sdk/client-s3');
  } catch (error) {
    throw new StoreSdkMissingError(storeMessages.sdkMissing(), { cause: error });
  }
}

/**
 * Builds an S3Client from the standard chain. With a custom endpoint, requests are path-style; without a
 * configured region, DEFAULT_STORE_REGION. Checksums are computed only where S3 requires them: rdw verifies
 * every byte by SHA-256 itself, and older S3-compatible servers refuse the SDK's chunked checksum trailers.
 */
export async function openS3Client(options: OpenS3ClientOptions = {}): Promise<S3Client> {
  const env = options.env ?? process.env;
  // The SDK warns on stderr, once per process, that its releases after January 2027 need Node 22: rdw pins
  // its version, so the warning says nothing to a researcher. Its own switch turns it off (unless set).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const sdk = await loadS3Sdk();
  const endpoint = configuredEndpoint(env);
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const config: S3ClientConfig = {
    forcePathStyle: options.forcePathStyle ?? endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: { connectionTimeout: options.connectionTimeoutMs ?? 5_000, socketTimeout: options.idleTimeoutMs ?? 30_000 },
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined || region === '' ? {} : { region }),
    ...(env.AWS_PROFILE === undefined || env.AWS_PROFILE === '' ? {} : { profile: env.AWS_PROFILE }),
  };
  // Injected variables take effect even when they are not the process's own (tests, a notebook).
  if (env !== process.env && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    config.credentials = {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  }
  const client = new sdk.S3Client(config);
  if (config.region !== undefined) return client;
  // No region in the variables: the profile may name one; when nothing does, the default.
  try {
    await client.config.region();
    return client;
  } catch {
    client.destroy();
    return new sdk.S3Client({ ...config, region: DEFAULT_STORE_REGION });
  }
}
