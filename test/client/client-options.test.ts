import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/contract/index.js';
import { createClient, resolveClientOptions } from '../../src/client/index.js';

const baseUrl = 'http://127.0.0.1:9/v1';
const KEY = 'rdw_sk_0123456789abcdef0123456789abcdef';

describe('client options', () => {
  it.each([
    ['a quoted key', `"${KEY}"`],
    ['a key with a trailing newline', `${KEY}\n`],
    ['a key with inner spaces', 'rdw_sk_abc def'],
    ['the display prefix with an ellipsis', 'rdw_sk_abcd…'],
    ['the display prefix with three dots', 'rdw_sk_abcd...'],
    ['the bare prefix', 'rdw_sk_'],
    ['a key with a control character', 'rdw_sk_0123456789\u0007abcdef'],
    ['an empty key', ''],
  ])('refuses %s with a UsageError before any request', (_name, apiKey) => {
    let error: unknown;
    try {
      createClient({ baseUrl, apiKey });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('RDW_USAGE');
    expect((error as UsageError).option).toBe('apiKey');
    const trimmed = apiKey.replace(/["\s.…]/g, '');
    if (trimmed.length > 8) expect(JSON.stringify(error) + String((error as Error).message)).not.toContain(trimmed);
  });

  it('accepts a key with another service prefix (the spec names no prefix) and sends it only in the header', () => {
    expect(() => createClient({ baseUrl, apiKey: 'sk_live_0123456789abcdef' })).not.toThrow();
  });

  it.each([
    ['no version segment', 'http://127.0.0.1:9/'],
    ['not a URL', 'localhost'],
    ['ftp', 'ftp://127.0.0.1/v1'],
  ])('refuses a base URL with %s', (_name, url) => {
    expect(() => resolveClientOptions({ baseUrl: url })).toThrow(UsageError);
  });

  it('defaults the site URL to the origin of the base URL and trims slashes', () => {
    const resolved = resolveClientOptions({ baseUrl: 'http://127.0.0.1:9/v1/' , apiKey: KEY });
    expect(resolved.baseUrl).toBe('http://127.0.0.1:9/v1');
    expect(resolved.siteUrl).toBe('http://127.0.0.1:9');
    expect(resolved.retry.maxRetries).toBe(4);
    expect(resolved.retry.maxWaitMs).toBe(120_000);
    // Issue 17: the plan's full rate (the margin is 250 ms on the window, not 10% fewer requests).
    expect(resolved.rateShare).toBe(1);
    expect(resolved.knownLimits).toBeUndefined();
    expect(resolved.account).toBeUndefined();
  });

  it('refuses a known limit that is not a positive number and an empty account name, naming the option', () => {
    expect(() => resolveClientOptions({ baseUrl, knownLimits: { rpm: 0 } })).toThrow(/knownLimits\.rpm/);
    expect(() => resolveClientOptions({ baseUrl, knownLimits: {} as { rpm: number } })).toThrow(/knownLimits\.rpm/);
    expect(() => resolveClientOptions({ baseUrl, account: '  ' })).toThrow(/account/);
    expect(resolveClientOptions({ baseUrl, knownLimits: { rpm: 300 }, account: ' desk ' })).toMatchObject({ knownLimits: { rpm: 300 }, account: 'desk' });
  });

  it('refuses out-of-range retry and timeout options naming the option', () => {
    expect(() => resolveClientOptions({ baseUrl, retry: { maxRetries: -1 } })).toThrow(/retry\.maxRetries/);
    expect(() => resolveClientOptions({ baseUrl, timeouts: { bodyMs: 0 } })).toThrow(/timeouts\.bodyMs/);
  });

  it('refuses calls that need a key when none was given', async () => {
    const client = createClient({ baseUrl });
    await expect(client.releases()).rejects.toBeInstanceOf(UsageError);
    await client.close();
  });
});
