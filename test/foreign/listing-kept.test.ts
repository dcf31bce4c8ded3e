// Issue 31 item 2: the listing is kept. An honest `rdw releases` in one process records each listed release's
// file checksums and sizes (listed_releases.files); a later `rdw pull <ID>` in another process, from a server whose
// manifest and parquet are consistently forged (prices x 2, the manifest naming the forged parquet's sha256 and
// size), is refused with exit 3 and imports nothing. The servers share no code with src/mock: the spec server
// (test/support/spec-server) and, in front of it, a scripted proxy that forges.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';
import { startSpecServer, type SpecServer } from '../support/spec-server/index.js';
import { withTempHome } from '../support/temp-home.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The parquet bytes with every price doubled, written by DuckDB (a consistent forgery: valid parquet, same columns). */
async function forgedParquet(honest: Uint8Array): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rdw-forge-'));
  try {
    await writeFile(path.join(dir, 'in.parquet'), honest);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(
        `COPY (SELECT * REPLACE (price * 2 AS price) FROM read_parquet('${path.join(dir, 'in.parquet')}')) TO '${path.join(dir, 'out.parquet')}' (FORMAT parquet)`,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    return await readFile(path.join(dir, 'out.parquet'));
  } finally {
    await rm(path.join(dir, 'in.parquet'), { force: true });
    await rm(path.join(dir, 'out.parquet'), { force: true });
    await rmdir(dir);
  }
}

/**
 * A proxy in front of `honest` that forges release `id`: its parquet has prices x 2 and its manifest names the
 * forged file's sha256 and size; everything else (the listing included) is passed through unchanged.
 */
async function startForgingProxy(honest: SpecServer, id: string): Promise<ScriptedServer & { forgedSha256: string }> {
  const release = honest.releases.find((candidate) => candidate.id === id)!;
  const forged = await forgedParquet(release.files.parquet!.bytes);
  const forgedSha256 = sha256(forged);
  const proxy = await startScriptedServer(async (req, res, url) => {
    const rest = url.pathname.replace(/^\/v1/, '');
    if (rest === `/download/${id}/parquet`) {
      res.writeHead(200, { 'content-type': 'application/vnd.apache.parquet', 'content-length': String(forged.length) });
      res.end(forged);
      return;
    }
    const upstream = await fetch(`${honest.baseUrl}${rest}${url.search}`, { headers: { authorization: String(req.headers.authorization ?? '') } });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (rest === `/download/${id}/manifest` && upstream.ok) {
      const manifest = JSON.parse(body.toString('utf8')) as { files: Record<string, { sha256: string; bytes: number }> };
      manifest.files.parquet = { ...manifest.files.parquet!, sha256: forgedSha256, bytes: forged.length };
      sendJson(res, 200, manifest);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'etag', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining']) {
      const value = upstream.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    res.writeHead(upstream.status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  return Object.assign(proxy, { forgedSha256 });
}

describe('a pull by ID is cross-checked with the last listing that named the release (issue 31 item 2)', () => {
  it('an honest rdw releases, then rdw pull <ID> in another process from a consistent forgery: exit 3, nothing imported', async () => {
    const honest = await startSpecServer({ days: 3 });
    try {
      const target = honest.releases[honest.releases.length - 1]!;
      const proxy = await startForgingProxy(honest, target.id);
      try {
        await withTempHome(async (home) => {
          const env = (baseUrl: string) => ({ RDW_BASE_URL: baseUrl, RDW_SITE_URL: honest.siteUrl, RDW_API_KEY: honest.apiKey });
          const listed = await runBuiltCli(['releases', '--home', home], { env: env(honest.baseUrl), cwd: home });
          expect(listed.code, listed.stderr).toBe(0);
          const [recorded] = (await queryCatalog(home, `SELECT files::VARCHAR AS files FROM listed_releases WHERE id = '${target.id}'`))! as { files: string }[];
          const honestParquet = target.files.parquet!;
          expect(JSON.parse(recorded!.files).parquet).toEqual({ sha256: honestParquet.sha256, bytes: honestParquet.bytes.length });

          // The forgery on its own is consistent: its manifest names exactly the bytes it serves.
          expect(proxy.forgedSha256).not.toBe(honestParquet.sha256);
          const pulled = await runBuiltCli(['pull', target.id, '--home', home], { env: env(proxy.baseUrl), cwd: home });
          expect(pulled.code, pulled.stderr).toBe(3);
          expect(pulled.stderr).toMatch(new RegExp(`${target.id.slice(0, 12)}`));
          expect(pulled.stderr).toMatch(/files\.parquet/);
          expect(pulled.stderr).not.toMatch(/failed unexpectedly/);
          const [counts] = (await queryCatalog(
            home,
            'SELECT (SELECT count(*) FROM releases)::INTEGER AS releases, (SELECT count(*) FROM market_events)::INTEGER AS rows',
          ))!;
          expect(counts).toEqual({ releases: 0, rows: 0 });
          // The forged request really reached the proxy (the manifest was fetched, the refusal is the cross-check's).
          expect(proxy.log.some((entry) => entry.path === `/v1/download/${target.id}/manifest`)).toBe(true);

          // The same pull from the honest server imports the release.
          const honestPull = await runBuiltCli(['pull', target.id, '--home', home], { env: env(honest.baseUrl), cwd: home });
          expect(honestPull.code, honestPull.stderr).toBe(0);
        });
      } finally {
        await proxy.close();
      }
    } finally {
      await honest.close();
    }
  }, 120_000);

  it('a later listing replaces the files an earlier one stated; a listing without files keeps them', async () => {
    const { openCatalog, recordListings } = await import('../../src/catalog/index.js');
    const { recordedListing } = await import('../../src/catalog/record-listings.js');
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home);
      try {
        const id = 'a'.repeat(64);
        const first = { sha256: 'b'.repeat(64), bytes: 10 };
        const second = { sha256: 'c'.repeat(64), bytes: 11 };
        expect(await recordListings(catalog, [{ id, day: '2026-10-30', version: 'v1', files: { parquet: first } }])).toBe(1);
        expect((await recordedListing(catalog, id))?.files).toEqual({ parquet: first });
        expect(await recordListings(catalog, [{ id, day: '2026-10-30', version: 'v1', files: { parquet: second, csv: 'not an object' } }])).toBe(0);
        expect((await recordedListing(catalog, id))?.files).toEqual({ parquet: second });
        await recordListings(catalog, [{ id, day: '2026-10-30', version: 'v1' }]);
        expect(await recordedListing(catalog, id)).toEqual({ id, day: '2026-10-30', version: 'v1', files: { parquet: second } });
      } finally {
        await catalog.close();
      }
    });
  });
});
