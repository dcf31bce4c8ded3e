// parseStoreUrl and openS3Client without a server: the store URL's accepted and refused forms (StoreUrlError,
// exit 2, option RDW_STORE_URL), and the client the standard variables configure (path style with a custom
// endpoint, the default region when none is configured, credentials from injected variables).

import { describe, expect, it } from 'vitest';
import { DEFAULT_STORE_REGION, StoreUrlError, openS3Client, parseStoreUrl, storeKey } from '../../src/store/index.js';

describe('parseStoreUrl', () => {
  it.each([
    ['s3://desk-data', { bucket: 'desk-data', prefix: '', href: 's3://desk-data' }],
    ['s3://desk-data/', { bucket: 'desk-data', prefix: '', href: 's3://desk-data' }],
    ['s3://desk-data/rdw', { bucket: 'desk-data', prefix: 'rdw', href: 's3://desk-data/rdw' }],
    ['  S3://desk.data/team/rdw/  ', { bucket: 'desk.data', prefix: 'team/rdw', href: 's3://desk.data/team/rdw' }],
  ])('reads %j', (text, expected) => {
    expect(parseStoreUrl(text)).toEqual(expected);
  });

  it.each([
    ['http://desk-data/rdw', 'must start with s3://'],
    ['desk-data/rdw', 'must start with s3://'],
    ['s3://', 'names no bucket'],
    ['s3:///rdw', 'names no bucket'],
    ['s3://Desk_Data/rdw', 'bucket name'],
    ['s3://ab/rdw', 'bucket name'],
    ['s3://-desk/rdw', 'bucket name'],
    ['s3://desk..data/rdw', 'bucket name'],
    ['s3://AKIAX:secret@desk-data/rdw', 'credentials'],
    ['s3://desk-data:9000/rdw', 'credentials or a port'],
    ['s3://desk-data/rdw?versionId=1', 'query string'],
    ['s3://desk-data/a//b', 'prefix'],
    ['s3://desk-data/a/../b', 'prefix'],
    ['s3://desk-data/a/./b', 'prefix'],
    ['s3://desk-data/a\\b', 'prefix'],
  ])('refuses %j (exit 2, one sentence naming why)', (text, why) => {
    let caught: unknown;
    try {
      parseStoreUrl(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreUrlError);
    expect(caught).toMatchObject({ code: 'RDW_STORE_URL', exitCode: 2, option: 'RDW_STORE_URL' });
    const message = (caught as Error).message;
    expect(message).toContain(why);
    expect(message.split(/\.\s/).length).toBeLessThanOrEqual(3);
    // Credentials typed into the URL are refused without being repeated.
    expect(message).not.toContain('secret');
  });

  it('keys objects under the prefix', () => {
    expect(storeKey(parseStoreUrl('s3://desk-data/rdw'), 'sha256/ab/ab12')).toBe('rdw/sha256/ab/ab12');
    expect(storeKey(parseStoreUrl('s3://desk-data'), 'sha256/ab/ab12')).toBe('sha256/ab/ab12');
  });
});

describe('openS3Client', () => {
  it('uses path style and the endpoint of AWS_ENDPOINT_URL_S3, and the default region when none is configured', async () => {
    const client = await openS3Client({
      env: { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:7480', AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK', AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent' },
    });
    try {
      expect(client.config.forcePathStyle).toBe(true);
      expect(await client.config.region()).toBe(DEFAULT_STORE_REGION);
      const endpoint = await client.config.endpoint!();
      expect(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`).toBe('http://127.0.0.1:7480');
      expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'AK', secretAccessKey: 'SK' });
    } finally {
      client.destroy();
    }
  });

  it('takes AWS_REGION, falls back to AWS_ENDPOINT_URL, and keeps virtual-host style without a custom endpoint', async () => {
    const custom = await openS3Client({ env: { AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_REGION: 'eu-central-1' } });
    const aws = await openS3Client({ env: { AWS_REGION: 'eu-west-1' } });
    try {
      expect(await custom.config.region()).toBe('eu-central-1');
      expect(custom.config.forcePathStyle).toBe(true);
      expect(String((await custom.config.endpoint!()).port)).toBe('9000');
      expect(await aws.config.region()).toBe('eu-west-1');
      expect(aws.config.forcePathStyle).toBe(false);
    } finally {
      custom.destroy();
      aws.destroy();
    }
  });
});
