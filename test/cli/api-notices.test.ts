// The CLI over a foreign service's limits: what the client assumed is one line on stderr (under --json the
// same sentence as a {"notice"} object), and a paid command refused by the paid /catalog (403) ends in exit 4
// with one sentence.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/contract/index.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { clientMessages, keyId } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createTempHome } from '../support/temp-home.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_clinotice0123456789abcdef0123456';

describe('client notices and refusals through the CLI', () => {
  let server: ScriptedServer;
  let temp: { home: string; remove(): Promise<void> };
  beforeEach(async () => {
    server = await startScriptedServer();
    temp = await createTempHome();
  });
  afterEach(async () => {
    await server.close();
    await temp.remove();
  });

  const rdw = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--home', temp.home], {
      env: { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: KEY },
      stdout: { write: (text) => void (stdout += text), isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: false },
      cwd: temp.home,
    });
    return { code, stdout, stderr };
  };

  it('prints the assumed limits once on stderr and lists the releases (exit 0)', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 404, { message: 'no such endpoint' });
      if (url.pathname === '/v1/releases') return sendJson(res, 200, { items: [] });
      return sendJson(res, 404, {});
    };
    const run = await rdw(['releases']);
    expect(run.code).toBe(EXIT_CODES.ok);
    expect(run.stdout).toMatch(/\(0 rows\)\n$/);
    // `rdw: ` as every line the CLI says (under --json below: the notice object, without it).
    expect(run.stderr).toBe(`rdw: ${clientMessages.limitsAssumed('/catalog answered 404', 60)}\n`);
    expect(run.stderr).not.toContain(KEY);
    // Under --json the same sentence is a notice object on stderr.
    const json = await rdw(['releases', '--json']);
    expect(json).toMatchObject({ code: EXIT_CODES.ok, stderr: `${JSON.stringify({ notice: { message: clientMessages.limitsAssumed('/catalog answered 404', 60) } })}\n` });
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('announces a retry wait of a second or more after a 503, then lists the releases (exit 0)', async () => {
    let failures = 2;
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { limits: { keys: 1, rpm: 600, daily_bytes: 1024 } });
      if (url.pathname === '/v1/releases' && failures-- > 0) return sendJson(res, 503, { error: 'busy' });
      return sendJson(res, 200, { items: [] });
    };
    const run = await rdw(['releases']);
    expect(run.code).toBe(EXIT_CODES.ok);
    expect(run.stdout).toMatch(/\(0 rows\)\n$/);
    // The second wait is 1 s plus jitter (under 2 s): always said; the first (0.5 s plus jitter) only from 1 s.
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^rdw: The request for \/v1\/releases failed \(HTTP 503\); retrying in [12] s \(retry 2 of 4\)\.$/);
    for (const line of lines) expect(line).toMatch(/^rdw: The request for \/v1\/releases failed \(HTTP 503\); retrying in \d s \(retry [12] of 4\)\.$/);
  });

  it('says a pacing wait on stderr with its reason and seconds, then keeps the learned limit in the home (issue 17)', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { limits: { keys: 1, rpm: 600, daily_bytes: 1024 } });
      return sendJson(res, 200, { items: [] });
    };
    // An earlier command of this key filled the assumed 60-request window 58.5 s ago: about 2 s are left.
    await mkdir(path.join(temp.home, 'state'), { recursive: true });
    const sent = Array.from({ length: 60 }, () => Date.now() - 58_500);
    await writeFile(path.join(temp.home, 'state', `pacing-${keyId(KEY)}.json`), JSON.stringify({ version: 1, requests: sent, blockedUntil: 0, budget: { day: '', bytes: 0 } }));
    const run = await rdw(['releases']);
    expect(run.code).toBe(EXIT_CODES.ok);
    expect(run.stderr).toMatch(
      /^rdw: Pacing: the 60 requests per minute rdw assumes until the account's limit is read have all been used in the last minute \(by this or another rdw process\); waiting [12] s\.\n$/,
    );
    const known = JSON.parse(await readFile(path.join(temp.home, 'account-limits.json'), 'utf8'));
    expect(known.limits).toEqual({ [`${server.origin} ${keyId(KEY)}`]: expect.objectContaining({ rpm: 600 }) });
    // The next command starts at 600 rpm: the same window costs no wait and no line.
    await writeFile(path.join(temp.home, 'state', `pacing-${keyId(KEY)}.json`), JSON.stringify({ version: 1, requests: sent, blockedUntil: 0, budget: { day: '', bytes: 0 } }));
    const next = await rdw(['releases', '--json']);
    expect(next.code).toBe(EXIT_CODES.ok);
    expect(next.stderr).toBe('');
  });

  it('says the server may serve the API under another prefix when every endpoint is 404, exit 6', async () => {
    const run = await rdw(['releases']);
    expect(run.code).toBe(EXIT_CODES.notFound);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(`rdw: ${clientMessages.notFound('/v1/releases')}`);
    // The base URL already ends in /v1: the sentence does not blame it, it names what else can be wrong.
    expect(run.stderr).toContain('serves no API under this base URL; it may serve it under another prefix');
    expect(run.stderr).not.toContain('is the API root ending in /v1');
  });

  it('names RDW_BASE_URL when it does not end in /v1 (exit 2), before any request', async () => {
    const run = await rdw(['releases', '--base-url', server.origin]);
    expect(run.code).toBe(EXIT_CODES.usage);
    expect(run.stderr).toBe(`rdw: RDW_BASE_URL (or --base-url) "${server.origin}" is not the API root; set it to the http(s) URL ending in /v1, e.g. https://host/v1.\n`);
    expect(server.log).toEqual([]);
  });

  it('cuts a huge base URL in the sentence (a 50,000-character value is not echoed whole)', async () => {
    const huge = `${server.origin}/${'a'.repeat(50_000)}`;
    const run = await rdw(['releases', '--base-url', huge]);
    expect(run.code).toBe(EXIT_CODES.usage);
    expect(run.stderr).toBe(`rdw: RDW_BASE_URL (or --base-url) "${huge.slice(0, 119)}…" is not the API root; set it to the http(s) URL ending in /v1, e.g. https://host/v1.\n`);
    expect(server.log).toEqual([]);
  });

  it('says nothing was imported when the only release asked for cannot be pulled (exit 6)', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { limits: { keys: 1, rpm: 600, daily_bytes: 1024 ** 3 } });
      return sendJson(res, 404, {});
    };
    const run = await rdw(['pull', 'a'.repeat(64)]);
    expect(run.code).toBe(EXIT_CODES.notFound);
    expect(run.stderr.trim().split('\n').at(-1)).toBe('rdw: The release could not be pulled; nothing was imported.');
    // Its manifest's 404: about the ID alone (the user chose no format; a new user's trial, session 35).
    expect(run.stderr).toContain('check the release ID (the whole ID, from rdw releases --full-ids).');
    expect(run.stderr).not.toContain('and the format');
  });

  it('passes a live page\'s notices to stderr: a redirect to another origin is said once, without the key', async () => {
    const cdn = await startScriptedServer((_req, res) => sendJson(res, 200, { key: 'breadth', generated_at: 1_793_491_200, items: [{ symbol: 'BTCUSDT' }] }));
    try {
      server.handler = (_req, res, url) => {
        res.writeHead(302, { location: `${cdn.origin}${url.pathname}` }).end();
      };
      const run = await rdw(['live', 'breadth']);
      expect(run.code).toBe(EXIT_CODES.ok);
      expect(run.stdout).toContain('BTCUSDT');
      expect(run.stderr).toBe(`rdw: ${clientMessages.redirectCrossOrigin('/api/research/live/breadth')}\n`);
      expect(cdn.log.every((entry) => entry.headers.authorization === undefined)).toBe(true);
    } finally {
      await cdn.close();
    }
  });

  it.each([['releases'], ['pull', '--latest', '1']])('ends `rdw %s` refused by the paid /catalog (403) in exit 4, one sentence', async (...argv) => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/research/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 60, daily_bytes: 0 } });
      return sendJson(res, 403, { error: { status: 403, code: 'plan_required', message: 'no plan' } });
    };
    const run = await rdw(argv);
    expect(run.code).toBe(EXIT_CODES.auth);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('403');
    expect(server.log.map((entry) => entry.path)).toEqual(['/v1/catalog']);
  });
});
