// Keys stay in the header, through the CLI: --base-url, RDW_BASE_URL and RDW_SITE_URL carrying the key, a
// key-shaped token, user:password, a query or a fragment end with exit 2 before any request, never echoed.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureOutput } from '../support/capture-output.js';
import { withTempHome } from '../support/temp-home.js';

const KEY = 'rdw_sk_cliurlsecret0123456789abcdef01234';
let server: Server;
let origin: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('URLs given to the CLI', () => {
  const host = () => origin.replace('http://', '');
  it.each([
    ['--base-url with the key in its path', (o: string) => ({ argv: ['--base-url', `${o}/${KEY}/v1`], env: {} })],
    ['RDW_BASE_URL with the key in a query', (o: string) => ({ argv: [], env: { RDW_BASE_URL: `${o}/v1?token=${KEY}` } })],
    ['--base-url with user:password', (o: string) => ({ argv: ['--base-url', `http://alice:hunter2@${o.slice(7)}/v1`], env: {} })],
    ['--base-url with the key as userinfo', (o: string) => ({ argv: ['--base-url', `http://${KEY}@${o.slice(7)}/v1`], env: {} })],
    ['--base-url with a fragment', (o: string) => ({ argv: ['--base-url', `${o}/v1#x`], env: {} })],
    ['RDW_SITE_URL with the key in a query', (o: string) => ({ argv: ['--base-url', `${o}/v1`], env: { RDW_SITE_URL: `${o}?token=${KEY}` } })],
  ])('refuses %s with exit 2, one sentence, no request, no echo', async (_name, make) => {
    await withTempHome(async (home) => {
      const { argv, env } = make(origin);
      const out = captureOutput();
      const err = captureOutput();
      const before = requests;
      const code = await runCli(['releases', ...argv, '--home', home], { env: { RDW_API_KEY: KEY, ...env }, stdout: out.output, stderr: err.output });
      expect(code).toBe(2);
      expect(err.text()).toMatch(/^rdw: The (base|site) URL carries [^\n]+\n$/);
      expect(err.text()).not.toContain(KEY);
      expect(err.text()).not.toContain(KEY.slice(7, 20));
      expect(err.text()).not.toContain('hunter2');
      expect(err.text()).not.toContain(host());
      expect(out.text()).toBe('');
      expect(requests).toBe(before);
    });
  });

  it.each([
    ['an opaque key as user@', (o: string) => `http://sk-live-opaque-secret-0000@${o.slice(7)}/v1`],
    ['the key as user@', (o: string) => `http://${KEY}@${o.slice(7)}/v1`],
    ['the key in a query', (o: string) => `${o}/v1?token=${KEY}`],
  ])('refuses RDW_BASE_URL with %s even when RDW_API_KEY is not set (exit 2, not "RDW_API_KEY is not set")', async (_name, make) => {
    await withTempHome(async (home) => {
      const out = captureOutput();
      const err = captureOutput();
      const before = requests;
      const code = await runCli(['releases', '--home', home], { env: { RDW_BASE_URL: make(origin) }, stdout: out.output, stderr: err.output });
      expect(code).toBe(2);
      expect(err.text()).toMatch(/^rdw: The base URL carries [^\n]+\n$/);
      expect(err.text()).not.toContain('opaque-secret');
      expect(err.text()).not.toContain(KEY.slice(7, 20));
      expect(err.text()).not.toContain(host());
      expect(requests).toBe(before);
    });
  });

  it('rdw openapi does not write a key given as user@ into the document (exit 2, nothing on stdout)', async () => {
    await withTempHome(async (home) => {
      const out = captureOutput();
      const err = captureOutput();
      const env = { RDW_BASE_URL: `http://sk-live-opaque-secret-0000@${host()}/v1` };
      const code = await runCli(['openapi', '--home', home], { env, stdout: out.output, stderr: err.output });
      expect(code).toBe(2);
      expect(out.text()).toBe('');
      expect(err.text()).toMatch(/^rdw: The base URL carries [^\n]+\n$/);
      expect(err.text()).not.toContain('opaque-secret');
    });
  });

  it('rdw doctor names a base URL with user:password without echoing it (exit 2)', async () => {
    await withTempHome(async (home) => {
      const out = captureOutput();
      const code = await runCli(['doctor', '--json', '--base-url', `http://alice:hunter2@${host()}/v1`, '--home', home], {
        env: { RDW_API_KEY: KEY },
        stdout: out.output,
      });
      expect(code).toBe(2);
      const report = JSON.parse(out.text()) as { checks: { name: string; status: string; message: string }[] };
      expect(report.checks[0]).toMatchObject({ name: 'base_url', status: 'fail' });
      expect(out.text()).not.toContain('hunter2');
      expect(out.text()).not.toContain(KEY);
    });
  });

  // A secret with no rdw_sk_ prefix, so only its place (userinfo, query) can tell it: a setting whose scheme is left
  // out or mistyped is no URL to the client's check, and its "is not the API root" sentence echoed it whole.
  const OPAQUE = 'opaqueS3cretToken0123456789';
  it.each([
    ['RDW_BASE_URL, user:secret@ and no scheme', (h: string) => ({ argv: [], env: { RDW_BASE_URL: `user:${OPAQUE}@${h}/v1` } })],
    ['--base-url, user:secret@ and a mistyped scheme', (h: string) => ({ argv: ['--base-url', `http//user:${OPAQUE}@${h}/v1`], env: {} })],
    ['RDW_BASE_URL, the secret as user@ and no scheme', (h: string) => ({ argv: [], env: { RDW_BASE_URL: `${OPAQUE}@${h}/` } })],
    ['RDW_BASE_URL, user:secret@ in a well-formed URL', (h: string) => ({ argv: [], env: { RDW_BASE_URL: `http://user:${OPAQUE}@${h}/` } })],
    ['RDW_BASE_URL, ?key=secret', (h: string) => ({ argv: [], env: { RDW_BASE_URL: `http://${h}/?key=${OPAQUE}` } })],
    ['RDW_BASE_URL, ?key=secret and no scheme', (h: string) => ({ argv: [], env: { RDW_BASE_URL: `${h}/v1?key=${OPAQUE}` } })],
    ['RDW_SITE_URL, user:secret@ and no scheme', (h: string) => ({ argv: ['--base-url', `http://${h}/v1`], env: { RDW_SITE_URL: `user:${OPAQUE}@${h}` } })],
  ])('never prints a secret of %s: rdw releases, live, doctor (text and --json) exit 2', async (_name, make) => {
    await withTempHome(async (home) => {
      const { argv, env } = make(host());
      for (const command of [['releases'], ['live', 'market-breadth'], ['doctor'], ['doctor', '--json'], ['releases', '--json']]) {
        const out = captureOutput();
        const err = captureOutput();
        const before = requests;
        const code = await runCli([...command, ...argv, '--home', home], { env: { RDW_API_KEY: KEY, ...env }, stdout: out.output, stderr: err.output });
        const shown = `${command.join(' ')}: ${out.text()}${err.text()}`;
        expect(code, shown).toBe(2);
        expect(shown).not.toContain(OPAQUE);
        expect(shown).not.toContain(OPAQUE.slice(0, 12));
        expect(requests, shown).toBe(before);
      }
    });
  });
});
