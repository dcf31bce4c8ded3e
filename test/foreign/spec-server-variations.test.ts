// Issue 14: rdw against a Research Data API it did not write. A minimal server written from the spec
// alone (test/support/spec-server) makes its own choices where the spec leaves them open; every
// variation ends, through the real built CLI, in exit 0 with the right rows in catalog.duckdb, or (where
// the data really is invalid) in exit 3/4/5 with one sentence and nothing imported.

import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli, type BuiltCliRun } from '../support/run-built-cli.js';
import { CONTRACT_FIELDS, startSpecServer, type BuiltRelease, type SpecServer, type SpecVariation } from '../support/spec-server/index.js';
import { withTempHome } from '../support/temp-home.js';

interface Run extends BuiltCliRun {
  argv: string[];
}

/** Starts a spec server with `variation`, a fresh home, runs `fn`, always cleans up. */
async function withSpecServer(variation: SpecVariation, fn: (server: SpecServer, home: string) => Promise<void>): Promise<void> {
  const server = await startSpecServer(variation);
  try {
    await withTempHome((home) => fn(server, home));
  } finally {
    await server.close();
  }
}

/** `node dist/cli/main.js ...argv --home <home>` against `server` (base URL, site URL, key). */
async function rdw(server: SpecServer, home: string, argv: string[], options: { timeoutMs?: number; key?: boolean } = {}): Promise<Run> {
  const env: Record<string, string> = { RDW_BASE_URL: server.baseUrl, RDW_SITE_URL: server.siteUrl };
  if (options.key !== false) env.RDW_API_KEY = server.apiKey;
  const run = await runBuiltCli([...argv, '--home', home], { env, cwd: home, timeoutMs: options.timeoutMs ?? 45_000 });
  const result = { ...run, argv };
  expectClean(result, server);
  return result;
}

/** How a run is shown in an assertion message: the command, its exit code and stderr. */
function shown(run: Run): string {
  return `rdw ${run.argv.join(' ')} -> exit ${run.code}${run.timedOut ? ' (killed: timed out)' : ''}\nstderr: ${run.stderr.trim() || '(empty)'}`;
}

/** Never a crash: no "failed unexpectedly", no stack trace, no key on either stream, no hang. */
function expectClean(run: Run, server: SpecServer): void {
  expect(run.timedOut, shown(run)).toBe(false);
  const both = `${run.stdout}\n${run.stderr}`;
  expect(both.includes(server.apiKey), `${shown(run)}\n(the key was printed)`).toBe(false);
  expect(both, shown(run)).not.toMatch(/failed unexpectedly/i);
  expect(run.stderr, shown(run)).not.toMatch(/^\s+at\s/m);
  expect(run.stderr, shown(run)).not.toMatch(/\b(?:Type|Range|Reference|Syntax)Error\b/);
}

function expectOk(run: Run): void {
  expect(run.code, shown(run)).toBe(0);
}

/** Exit `code` with one sentence: one short `rdw:` error line (a pull may add its one summary line). */
function expectFailure(run: Run, code: number): void {
  expect(run.code, shown(run)).toBe(code);
  const errors = run.stderr.split('\n').filter((line) => line.startsWith('rdw: '));
  expect(errors.length, shown(run)).toBeGreaterThanOrEqual(1);
  expect(errors.length, shown(run)).toBeLessThanOrEqual(2);
  expect(errors[0]!.length, shown(run)).toBeLessThan(400);
}

/** Rows per release_id in the catalog (empty when no catalog or no rows). */
async function rowCounts(home: string): Promise<Record<string, number>> {
  const rows = (await queryCatalog(home, 'SELECT release_id, count(*)::INTEGER AS n FROM market_events GROUP BY release_id')) ?? [];
  return Object.fromEntries(rows.map((row) => [String(row.release_id), Number(row.n)]));
}

/** Nothing at all in the catalog: no release, no row. */
async function expectNothingImported(home: string, run: Run): Promise<void> {
  expect(await rowCounts(home), shown(run)).toEqual({});
  const releases = (await queryCatalog(home, 'SELECT id FROM releases')) ?? [];
  expect(releases, shown(run)).toEqual([]);
}

const normalize = (value: unknown): unknown => (typeof value === 'bigint' ? Number(value) : value === undefined ? null : value);

/**
 * The catalog holds exactly `releases` (ID exactly as served, day, version, row count) and each row's
 * every spec field equals the value the server published (null stays null, numbers equal).
 */
async function expectImported(home: string, releases: readonly BuiltRelease[], run: Run): Promise<void> {
  const expectedCounts = Object.fromEntries(releases.map((release) => [release.id, release.rows.length]));
  expect(await rowCounts(home), shown(run)).toEqual(expectedCounts);
  const listed = (await queryCatalog(home, "SELECT id, strftime(day, '%Y-%m-%d') AS day, version, rows::INTEGER AS rows FROM releases ORDER BY day, id")) ?? [];
  expect(listed, shown(run)).toEqual(
    [...releases].sort((a, b) => a.day.localeCompare(b.day) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((release) => ({ id: release.id, day: release.day, version: release.release.version, rows: release.rows.length })),
  );
  for (const release of releases) {
    const stored = (await queryCatalog(home, 'SELECT * FROM market_events WHERE release_id = $id', { id: release.id })) ?? [];
    const byRowId = new Map(stored.map((row) => [String(row.row_id), row]));
    const differences: string[] = [];
    for (const row of release.rows) {
      const mine = byRowId.get(String(row.row_id));
      if (mine === undefined) {
        differences.push(`row ${String(row.row_id).slice(0, 12)} missing`);
        continue;
      }
      for (const field of CONTRACT_FIELDS) {
        const actual = normalize(mine[field.name]);
        if (actual !== row[field.name]) differences.push(`${String(row.row_id).slice(0, 12)}.${field.name}: ${String(actual)} != ${String(row[field.name])}`);
      }
    }
    expect(differences.slice(0, 5), `${shown(run)}\nrelease ${release.id}`).toEqual([]);
  }
}

/**
 * Lines of stderr matching `pattern`, the CLI's other lines left out (a notice and a failure both begin `rdw: `;
 * the runs these count succeed, so what matches is a notice).
 */
const noticeLines = (run: Run, pattern: RegExp): string[] => run.stderr.split('\n').filter((line) => line.startsWith('rdw: ') && pattern.test(line));

/** Newest `count` releases, as /releases lists them (newest day first). */
const newest = (server: SpecServer, count: number): BuiltRelease[] => [...server.releases].reverse().slice(0, count);

// Two scenarios at a time (each has its own server and home; a CLI run costs ~1.5 s of CPU on a shared machine).
vi.setConfig({ maxConcurrency: 2 });

describe.concurrent('rdw against a server written from the spec alone', { timeout: 90_000 }, () => {
  it('baseline: pull --latest 3 imports every release (fractional times, all outcome statuses) with equal values', async () => {
    await withSpecServer({}, async (server, home) => {
      const statuses = new Set(server.releases.flatMap((release) => release.rows.flatMap((row) => ['15m', '1h', '4h', '24h', '7d'].map((window) => String(row[`status_${window}`])))));
      expect([...statuses].sort()).toEqual(['complete', 'gap', 'invalid_price', 'not_applicable', 'pending']);
      expect(server.releases.some((release) => release.rows.some((row) => !Number.isInteger(row.sample_time)))).toBe(true);
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
    });
  });

  describe('paid /catalog limits the spec leaves open', () => {
    it.each([
      ['without limits', { limits: 'absent' } as SpecVariation, true],
      ['with daily_bytes: null', { limits: 'null-daily' } as SpecVariation, false],
      ['with another limits shape (an array)', { limits: 'other-shape' } as SpecVariation, true],
      ['answering 404', { catalogStatus: 404 } as SpecVariation, true],
    ])('%s: pull --latest 2 (listing included) works, exit 0, the assumption noted once', async (_name, variation, assumed) => {
      await withSpecServer(variation, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '2']);
        expectOk(pull);
        const notes = noticeLines(pull, /limit|allowance|assum/i);
        if (assumed) expect(notes, shown(pull)).toHaveLength(1);
        else expect(notes.length, shown(pull)).toBeLessThanOrEqual(1);
        await expectImported(home, newest(server, 2), pull);
      });
    });
  });

  describe('a refused key', () => {
    it.each([
      [401, 'json'],
      [403, 'text'],
    ] as const)('/catalog %i (%s error body echoing the key): exit 4, one sentence, the key never printed, nothing imported', async (status, errorBody) => {
      await withSpecServer({ keyRefused: status, errorBody, echoKey: true }, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '2']);
        expectFailure(pull, 4);
        await expectNothingImported(home, pull);
        expect(server.requests.filter((request) => request.path.includes('/download/')), shown(pull)).toEqual([]);
        // Spec rule 8: a key without a plan keeps the free Research scope.
        if (status === 403) expectOk(await rdw(server, home, ['research', 'get', 'market-breadth']));
      });
    });
  });

  it('/releases items with only id, day, version, files: empty cells, never invented; pull --latest 2 imports the right rows', async () => {
    await withSpecServer({ listing: 'sparse' }, async (server, home) => {
      const table = await rdw(server, home, ['releases', '--full-ids']);
      expectOk(table);
      expect(table.stdout, shown(table)).not.toMatch(/Invalid|NaN|undefined|NULL|null|1970-/);
      for (const release of server.releases) {
        const line = table.stdout.split('\n').find((text) => text.startsWith(release.id));
        expect(line?.trim().split(/\s+/), `${shown(table)}\n${table.stdout}`).toEqual([release.id, release.day, String(release.release.version)]);
      }
      const json = await rdw(server, home, ['releases', '--json']);
      expectOk(json);
      const items = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(items.map((item) => item.id)).toEqual(newest(server, 3).map((release) => release.id));
      for (const item of items) {
        expect(item.rows ?? null, 'rows not invented').toBeNull();
        expect(item.generated_at ?? null, 'generated_at not invented').toBeNull();
      }
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
      const ls = await rdw(server, home, ['ls']);
      expectOk(ls);
      expect(ls.stdout, shown(ls)).not.toMatch(/Invalid|NaN|1970-/);
    });
  });

  it('Parquet whose times and counts are integers (BIGINT): imported, values equal', async () => {
    await withSpecServer({ integerColumns: true }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
      const [types] = (await queryCatalog(home, "SELECT typeof(sample_time) AS t, typeof(missing_candles_24h) AS c FROM market_events LIMIT 1")) ?? [];
      expect(types, shown(pull)).toEqual({ t: 'DOUBLE', c: 'DOUBLE' });
    });
  });

  it('bundled schema with type words utf8/float64/int64/bool (and int64 count columns): imported', async () => {
    await withSpecServer({ typeWords: 'arrow' }, async (server, home) => {
      const schema = JSON.parse(server.releases[0]!.files.schema!.bytes.toString()) as { fields: Record<string, { type: string }> };
      expect(new Set(Object.values(schema.fields).map((field) => field.type))).toEqual(new Set(['utf8', 'float64', 'int64', 'bool']));
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
    });
  });

  it('one extra field in the schema and data: imported, the extra kept per row and reported', async () => {
    const extra = 'liquidity_score';
    await withSpecServer({ extraField: { name: extra } }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '1']);
      expectOk(pull);
      const [release] = newest(server, 1);
      await expectImported(home, [release!], pull);
      expect(`${pull.stdout}\n${pull.stderr}`, shown(pull)).toContain(extra);
      // Kept, wherever rdw keeps it: some table's rows carry the field with each row's own value.
      const tables = (await queryCatalog(home, "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'")) ?? [];
      const texts: string[] = [];
      for (const { table_name: table } of tables) {
        const rows = (await queryCatalog(home, `SELECT to_json(t)::VARCHAR AS j FROM "${String(table)}" t`)) ?? [];
        texts.push(...rows.map((row) => String(row.j)).filter((text) => text.includes(extra)));
      }
      const sample = release!.rows[7]!;
      const pattern = new RegExp(`${extra}\\\\?"\\s*:\\s*\\\\?"?${String(sample[extra]).replace('.', '\\.')}\\b`);
      expect(texts.length, `${shown(pull)}\nrows carrying ${extra}`).toBeGreaterThanOrEqual(release!.rows.length);
      expect(texts.some((text) => text.includes(String(sample.row_id)) && pattern.test(text)), `${extra} of row ${String(sample.row_id)}`).toBe(true);
    });
  });

  it('product version mev-calc-7: imported and recorded on the release and its rows', async () => {
    await withSpecServer({ productVersion: 'mev-calc-7' }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
      const versions = (await queryCatalog(home, 'SELECT DISTINCT calculation_version AS v FROM market_events')) ?? [];
      expect(versions).toEqual([{ v: 'mev-calc-7' }]);
    });
  });

  it('a new product version from the newest day on: all imported; a study refuses to pool the two versions unless asked', async () => {
    await withSpecServer({ newestDayVersion: 'mev-calc-7' }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
      const refused = await rdw(server, home, ['study', 'event']);
      expect([2, 3], shown(refused)).toContain(refused.code);
      expectFailure(refused, refused.code!);
      expect(refused.stderr, shown(refused)).toMatch(/mev-calc-4[\s\S]*mev-calc-7/);
      const pooled = await rdw(server, home, ['study', 'event', '--allow-mixed-versions']);
      expectOk(pooled);
      expect(pooled.stdout, shown(pooled)).toMatch(/mev-calc-4[\s\S]*mev-calc-7/);
    });
  });

  describe('release IDs the spec allows (64 characters)', () => {
    it.each([['upper case', 'upper'], ['mixed case with - and _', 'mixed']] as const)('%s: pulled, kept exactly in the catalog and a lock', async (_name, idStyle) => {
      await withSpecServer({ idStyle }, async (server, home) => {
        const ids = newest(server, 3).map((release) => release.id);
        expect(ids.every((id) => id.length === 64 && id !== id.toLowerCase())).toBe(true);
        const byId = await rdw(server, home, ['pull', ids[2]!]);
        expectOk(byId);
        await expectImported(home, [server.releases[0]!], byId);
        // The lock lists the newest three, pulls the two missing ones by their listed IDs, pins all three.
        const lock = await rdw(server, home, ['lock', 'study.lock.json', '--latest', '3']);
        expectOk(lock);
        await expectImported(home, server.releases, lock);
        const written = JSON.parse(await readFile(path.join(home, 'study.lock.json'), 'utf8')) as { releases: { id: string }[] };
        expect(written.releases.map((release) => release.id).sort()).toEqual([...ids].sort());
        // No case folding: the lower-case spelling is another ID, which this server does not know.
        const folded = await rdw(server, home, ['pull', ids[0]!.toLowerCase()]);
        expectFailure(folded, 6);
        expect(Object.keys(await rowCounts(home)).sort()).toEqual([...ids].sort());
      });
    });
  });

  describe('redirects', () => {
    it.each([301, 302, 307] as const)('the API moved (%i from /old/v1 to /v1): pull --latest 2 works', async (status) => {
      await withSpecServer({ moved: status }, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '2']);
        expectOk(pull);
        await expectImported(home, newest(server, 2), pull);
        expect(server.requests.some((request) => request.path.startsWith('/old/v1/') && request.status === status)).toBe(true);
      });
    });

    it.each([301, 302, 307] as const)('downloads on a CDN (%i to another origin): pulled, and the CDN never saw the key', async (status) => {
      await withSpecServer({ cdn: status }, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '2']);
        expectOk(pull);
        await expectImported(home, newest(server, 2), pull);
        const cdn = server.requests.filter((request) => request.origin === 'cdn');
        expect(cdn.length, shown(pull)).toBeGreaterThan(0);
        expect(cdn.filter((request) => request.authorization)).toEqual([]);
      });
    });
  });

  it('an ETag that is the SHA-256 of something else: the manifest is accepted, rows imported', async () => {
    await withSpecServer({ etag: 'other-sha256' }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
    });
  });

  it('responses without Content-Length (chunked): pull --latest 2 works, values equal', async () => {
    await withSpecServer({ chunked: true }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
    });
  });

  describe('compressed JSON responses', () => {
    it.each(['gzip', 'br'] as const)('%s: pull --latest 2 works, and the server did compress', async (compress) => {
      await withSpecServer({ compress }, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '2']);
        expectOk(pull);
        await expectImported(home, newest(server, 2), pull);
        expect(server.requests.filter((request) => request.encoding === compress).length, 'responses sent compressed (rdw asked for them)').toBeGreaterThan(0);
      });
    });
  });

  describe('a public live page in another JSON shape', () => {
    it.each([['items as an object', 'items-object'], ['no refresh_seconds', 'no-refresh'], ['an array body', 'array-body']] as const)(
      '%s: rdw live shows it (exit 0)',
      async (_name, liveShape) => {
        await withSpecServer({ liveShape }, async (server, home) => {
          for (const argv of liveShape === 'array-body' ? [['live', 'market-breadth'], ['live', 'market-breadth', '--json']] : [['live', 'market-breadth']]) {
            const live = await rdw(server, home, argv, { key: false });
            expectOk(live);
            expect(live.stdout, shown(live)).toContain('BTCUSDT');
            expect(live.stdout, shown(live)).toContain('68123.5');
          }
          expect(server.requests.filter((request) => request.authorization)).toEqual([]);
        });
      },
    );
  });

  it('429 without Retry-After on the first /releases: a short wait, announced on stderr, then success', async () => {
    await withSpecServer({ rateLimitFirst: '/releases' }, async (server, home) => {
      const releases = await rdw(server, home, ['releases'], { timeoutMs: 40_000 });
      expectOk(releases);
      expect(noticeLines(releases, /wait/i).length, shown(releases)).toBeGreaterThanOrEqual(1);
      const attempts = server.requests.filter((request) => request.path === '/v1/releases');
      expect(attempts.map((request) => request.status)).toEqual([429, 200]);
      expect(attempts[1]!.at - attempts[0]!.at, 'the first wait is a few seconds').toBeLessThan(15_000);
    });
  });

  it('429 with an HTTP-date Retry-After on the first /releases: waits until then, then success', async () => {
    await withSpecServer({ rateLimitFirst: '/releases', rateLimitRetryAfter: 'http-date' }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '1'], { timeoutMs: 40_000 });
      expectOk(pull);
      await expectImported(home, newest(server, 1), pull);
      const attempts = server.requests.filter((request) => request.path === '/v1/releases');
      expect(attempts.map((request) => request.status)).toEqual([429, 200]);
      expect(attempts[1]!.at - attempts[0]!.at, 'waited for the date given').toBeGreaterThanOrEqual(1_000);
    });
  });

  describe('a daily-byte 429 with an unknown body and a long Retry-After', () => {
    it.each(['json-message', 'text'] as const)('%s body: exit 5, one sentence, nothing imported', async (dailyByteLimit) => {
      await withSpecServer({ dailyByteLimit }, async (server, home) => {
        const pull = await rdw(server, home, ['pull', '--latest', '1'], { timeoutMs: 30_000 });
        expectFailure(pull, 5);
        await expectNothingImported(home, pull);
      });
    });
  });

  it('a tampered parquet (valid manifest, wrong bytes): exit 3, nothing imported, the bytes not kept', async () => {
    await withSpecServer({ tamperParquet: true }, async (server, home) => {
      const [release] = newest(server, 1);
      const pull = await rdw(server, home, ['pull', release!.id]);
      expectFailure(pull, 3);
      await expectNothingImported(home, pull);
      const tampered = createHash('sha256').update(server.servedBytes(release!.id, 'parquet')!).digest('hex');
      expect(tampered).not.toBe(release!.files.parquet!.sha256);
      expect(await storeHashes(home)).not.toContain(tampered);
    });
  });

  it('an old release without a bundled schema (files.schema absent, 404): imported with no schema recorded', async () => {
    await withSpecServer({ oldReleaseWithoutSchema: true }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '3']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
      const schemas = (await queryCatalog(home, 'SELECT id, schema_sha256 FROM releases ORDER BY day')) ?? [];
      expect(schemas.map((row) => row.schema_sha256 === null)).toEqual([true, false, false]);
    });
  });

  it.each([
    ['spec', 404],
    ['reversed', 404],
    ['spec', 413],
  ] as const)('a parquet file that is unavailable (still listed): the same release imported from its CSV (%s column order, HTTP %i), values equal', async (csvColumnOrder, status) => {
    await withSpecServer({ parquetUnavailable: true, parquetUnavailableStatus: status, csvColumnOrder }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
      expect(server.requests.some((request) => request.path.endsWith('/csv') && request.status === 200)).toBe(true);
    });
  });

  it('two revisions of the newest day both listed: each imported under its own ID, rows never mixed, the newer one current', async () => {
    await withSpecServer({ revisedNewestDay: true }, async (server, home) => {
      const [second, first] = newest(server, 2);
      expect(second!.day).toBe(first!.day);
      const pull = await rdw(server, home, ['pull', '--latest', '4']);
      expectOk(pull);
      await expectImported(home, server.releases, pull);
      const current = (await queryCatalog(home, "SELECT DISTINCT release_id FROM market_events_current WHERE strftime(day, '%Y-%m-%d') = $day", { day: second!.day })) ?? [];
      expect(current).toEqual([{ release_id: second!.id }]);
    });
  });

  it('fields the spec does not name in the manifest, its file entries, /releases items and /catalog: ignored, rows imported', async () => {
    await withSpecServer({ unknownFields: true }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
    });
  });

  it('a key with another service prefix (the spec does not name it): accepted and sent, rows imported', async () => {
    await withSpecServer({ keyPrefix: 'rdlive_' }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '1']);
      expectOk(pull);
      await expectImported(home, newest(server, 1), pull);
    });
  });

  it('no release published yet (an empty /releases): listing and pull --latest succeed with nothing imported', async () => {
    await withSpecServer({ days: 0 }, async (server, home) => {
      expectOk(await rdw(server, home, ['releases']));
      const pull = await rdw(server, home, ['pull', '--latest', '1']);
      expectOk(pull);
      await expectNothingImported(home, pull);
    });
  });

  describe('error bodies the spec does not show', () => {
    it.each(['json', 'text'] as const)('an unknown release ID with a %s 404 body (echoing the key): exit 6, one sentence, no key', async (errorBody) => {
      await withSpecServer({ errorBody, echoKey: true }, async (server, home) => {
        const unknown = createHash('sha256').update('a release this server never published').digest('hex');
        const pull = await rdw(server, home, ['pull', unknown]);
        expectFailure(pull, 6);
        await expectNothingImported(home, pull);
      });
    });
  });

  it('a server answering 422 to any unknown query parameter: pull --latest 2 (limit=2) works', async () => {
    await withSpecServer({ strictParameters: true }, async (server, home) => {
      const pull = await rdw(server, home, ['pull', '--latest', '2']);
      expectOk(pull);
      await expectImported(home, newest(server, 2), pull);
      expect(server.requests.filter((request) => request.status === 422)).toEqual([]);
    });
  });

  it('a stale research snapshot (stale: true, 200): shown as a success, marked stale', async () => {
    await withSpecServer({ stale: true }, async (server, home) => {
      const text = await rdw(server, home, ['research', 'get', 'market-breadth']);
      expectOk(text);
      expect(text.stdout, shown(text)).toMatch(/STALE/);
    });
  });

  it('a research snapshot whose window, summary and limitation are strings (the spec allows it): shown, and kept as sent', async () => {
    await withSpecServer({ researchShape: 'strings' }, async (server, home) => {
      const get = await rdw(server, home, ['research', 'get', 'market-breadth']);
      expectOk(get);
      expect(get.stdout, shown(get)).toContain('BTCUSDT');
      const json = await rdw(server, home, ['research', 'get', 'market-breadth', '--json']);
      expectOk(json);
      const body = JSON.parse(json.stdout) as Record<string, unknown>;
      expect({ window: body.window, summary: body.summary, limitation: body.limitation, source: body.source }).toEqual({
        window: 'rolling 24 hours',
        summary: 'Three of five observed pairs advanced.',
        limitation: 'DOGEUSDT had no valid observation.',
        source: null,
      });
    });
  });

  describe('rdw doctor against the foreign server (service checks only; the kernel check depends on the machine)', () => {
    it.each([
      ['limits not reported, API moved (301)', { limits: 'absent', moved: 301 } as SpecVariation, { base_url: 'ok', key: 'ok', plan: 'warn' }],
      ['a revoked key (401, text body echoing the key)', { keyRefused: 401, errorBody: 'text', echoKey: true } as SpecVariation, { base_url: 'ok', key: 'fail', plan: 'skip' }],
    ])('%s: one status per check, no crash', async (_name, variation, expected) => {
      await withSpecServer(variation, async (server, home) => {
        const doctor = await rdw(server, home, ['doctor', '--json']);
        const report = JSON.parse(doctor.stdout) as { exitCode: number; checks: { name: string; status: string; facts?: { limits?: { source?: string } } }[] };
        const statuses = Object.fromEntries(report.checks.filter((check) => check.name in expected).map((check) => [check.name, check.status]));
        expect(statuses, shown(doctor)).toEqual(expected);
        expect(doctor.code, shown(doctor)).toBe(report.exitCode);
        if (expected.key === 'fail') expect(doctor.code, shown(doctor)).toBe(4);
        else expect(report.checks.find((check) => check.name === 'plan')?.facts?.limits?.source, shown(doctor)).toBe('assumed');
      });
    });
  });

  describe('row pages (no command pages /rows: through the built library)', () => {
    it.each([
      ['next_offset absent on the last page', { lastPageNextOffset: 'absent' } as SpecVariation],
      ['has_more without total', { pageTotal: false, lastPageNextOffset: 'absent' } as SpecVariation],
    ])('%s: every row of the release, once', async (_name, variation) => {
      await withSpecServer(variation, async (server, home) => {
        const built = (await import(path.resolve(import.meta.dirname, '../../dist/index.js'))) as {
          createClient(options: Record<string, unknown>): { rows(id: string, filters: Record<string, unknown>): AsyncIterable<Record<string, unknown>[]>; close(): Promise<void> };
        };
        const client = built.createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, home, retry: { maxRetries: 0 } });
        const [release] = newest(server, 1);
        const seen: string[] = [];
        try {
          for await (const page of client.rows(release!.id, { pageSize: 7 })) seen.push(...page.map((row) => String(row.row_id)));
        } finally {
          await client.close();
        }
        expect(seen.sort()).toEqual(release!.rows.map((row) => String(row.row_id)).sort());
      });
    });
  });
});

/** SHA-256 of every file under `<home>/store`. */
async function storeHashes(home: string): Promise<string[]> {
  const hashes: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const target = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(target);
      else hashes.push(createHash('sha256').update(await readFile(target)).digest('hex'));
    }
  };
  await walk(path.join(home, 'store'));
  return hashes;
}
