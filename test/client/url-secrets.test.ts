// Keys stay in the header: a base or site URL carrying the key, a key-shaped token, user:password, a query
// or a fragment is refused before any request and never echoed; a redirect carrying the key or userinfo is not followed.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsInUrlError, RedirectError, createClient, resolveClientOptions, urlSecret } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_urlsecret0123456789abcdef0123456';
const OTHER_KEY = 'sk-live-opaque-secret-0000';

describe('URLs given to the client', () => {
  let api: ScriptedServer;
  beforeEach(async () => {
    api = await startScriptedServer((_req, res) => sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 0 } }));
  });
  afterEach(async () => {
    await api.close();
  });

  const host = () => api.origin.replace('http://', '');
  it.each([
    ['the key in the base path', 'baseUrl', () => `${api.origin}/${KEY}/v1`, KEY, 'key'],
    ['the key in a query of the base URL', 'baseUrl', () => `${api.origin}/v1?token=${KEY}`, KEY, 'key'],
    ['a percent-encoded key', 'baseUrl', () => `${api.origin}/v1/${encodeURIComponent(KEY).replace('_', '%5F')}/x/v1`, KEY, 'key'],
    ['an opaque key (not rdw_sk_) in the path', 'baseUrl', () => `${api.origin}/${OTHER_KEY}/v1`, OTHER_KEY, 'key'],
    ['a key-shaped token that is not the key', 'baseUrl', () => `${api.origin}/rdw_sk_someoneelse123456/v1`, KEY, 'key'],
    ['the key as userinfo', 'baseUrl', () => `http://${KEY}@${host()}/v1`, KEY, 'key'],
    ['user:password', 'baseUrl', () => `http://alice:hunter2@${host()}/v1`, KEY, 'userinfo'],
    ['a query', 'baseUrl', () => `${api.origin}/v1?x=1`, KEY, 'query'],
    ['an empty query', 'baseUrl', () => `${api.origin}/v1?`, KEY, 'query'],
    ['a fragment', 'baseUrl', () => `${api.origin}/v1#top`, KEY, 'fragment'],
    ['the key in the site URL query', 'siteUrl', () => `${api.origin}?token=${KEY}`, KEY, 'key'],
    ['user:password in the site URL', 'siteUrl', () => `http://alice:hunter2@${host()}`, KEY, 'userinfo'],
    ['a query in the site URL', 'siteUrl', () => `${api.origin}/?page=1`, KEY, 'query'],
  ])('refuses %s before any request, without echoing it (exit 2)', async (_name, option, make, key, carried) => {
    const url = make();
    const options = option === 'baseUrl' ? { baseUrl: url, apiKey: key } : { baseUrl: api.baseUrl, siteUrl: url, apiKey: key };
    let caught: unknown;
    try {
      const client = createClient({ ...options, clock: fakeClock() });
      await client.limits();
      await client.close();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CredentialsInUrlError);
    const error = caught as CredentialsInUrlError;
    expect(error.code).toBe('RDW_URL_CREDENTIALS');
    expect(error.exitCode).toBe(2);
    expect(error.option).toBe(option);
    expect(error.carried).toBe(carried);
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain(host());
    expect(api.log).toEqual([]);
  });

  it('accepts a bare base URL and site URL', () => {
    expect(resolveClientOptions({ baseUrl: `${api.origin}/v1/`, siteUrl: api.origin, apiKey: KEY })).toMatchObject({
      baseUrl: `${api.origin}/v1`,
      siteUrl: api.origin,
    });
    expect(urlSecret('https://data.example.com/api/v1', KEY)).toBeUndefined();
  });

  it.each([
    ['the key in the Location path', (origin: string) => `${origin}/files/${KEY}/catalog`],
    ['the key in the Location query', (origin: string) => `${origin}/files/catalog?sig=${KEY}`],
    ['user:password in the Location', (origin: string) => `${origin.replace('http://', 'http://alice:hunter2@')}/v2/catalog`],
  ])('does not follow a redirect carrying %s (RedirectError, nothing sent there)', async (_name, location) => {
    const cdn = await startScriptedServer((_req, res) => sendJson(res, 200, { datasets: [] }));
    try {
      api.handler = (_req, res, url) => {
        if (url.pathname === '/v1/releases') {
          res.writeHead(302, { location: location(cdn.origin), 'content-length': '0' });
          return res.end();
        }
        return sendJson(res, 404, {});
      };
      api.handler = ((handler) => (req, res, url) => (url.pathname === '/v1/catalog' ? sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 0 } }) : handler(req, res, url)))(api.handler);
      const client = createClient({ baseUrl: api.baseUrl, apiKey: KEY, clock: fakeClock(), retry: { maxRetries: 0 } });
      const caught = await client.releases({ limit: 1 }).then(() => undefined, (error: unknown) => error);
      await client.close();
      expect(caught).toBeInstanceOf(RedirectError);
      expect((caught as RedirectError).reason).toBe('credentials');
      expect((caught as Error).message).not.toContain(KEY);
      expect((caught as Error).message).not.toContain('hunter2');
      expect(cdn.log).toEqual([]);
    } finally {
      await cdn.close();
    }
  });
});
