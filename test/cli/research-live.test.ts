import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';
import { captureOutput } from '../support/capture-output.js';
import { RESEARCH_DATASETS } from '../../src/contract/index.js';

describe('rdw research and rdw live', () => {
  it('lists the research catalog, prints a snapshot with its stale flag, and CSV rows header first', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl, RDW_API_KEY: mock.keys.free };
        const run = async (...argv: string[]) => {
          const out = captureOutput();
          const err = captureOutput();
          const code = await runCli([...argv, '--home', home], { env, stdout: out.output, stderr: err.output });
          return { code, out: out.text(), err: err.text() };
        };
        const catalog = await run('research', 'catalog', '--json');
        expect(catalog.code).toBe(0);
        const ids = (JSON.parse(catalog.out) as { datasets: { id: string }[] }).datasets.map((dataset) => dataset.id);
        expect(ids).toContain('market-breadth');
        // The table view carries the catalog's limitations too (spec: they travel with downstream analysis; a second
        // server's adversary, session 35, found them dropped).
        const table = await run('research', 'catalog');
        const limitations = (JSON.parse(catalog.out) as { limitations: string[] }).limitations;
        expect(limitations.length).toBeGreaterThan(0);
        expect(table.out).toContain(['limitations:', ...limitations.map((sentence) => `  - ${sentence}`)].join('\n'));

        const stale = await run('research', 'get', 'listing-calendar');
        expect(stale.code).toBe(0);
        expect(stale.out).toContain('STALE');

        const csv = await run('research', 'csv', 'market-breadth');
        expect(csv.code).toBe(0);
        const lines = csv.out.trim().split('\n');
        expect(lines[0]).toBe('symbol,base,source,price,change_24h,volume_24h,source_time,calculation_version');
        expect(lines).toHaveLength(1 + 6);

        // The items' calculation_version repeats the header's: said once there, and the table fits 100 columns.
        const funding = await run('research', 'get', 'funding-pressure');
        expect(funding.code).toBe(0);
        const [header, titles] = funding.out.split('\n');
        expect(header).toMatch(/, calculation funding-\d+$/);
        expect(titles).not.toContain('calculation_version');
        // (The header line is wrapped to the terminal's width, which this captured output does not have.)
        for (const line of funding.out.split('\n').slice(1)) expect(line.length, line).toBeLessThanOrEqual(100);

        const unknown = await run('research', 'get', 'no-such-dataset');
        expect(unknown.code).toBe(6);
        expect(unknown.err).toMatch(/^rdw: .+\n$/);
        expect((await run('research', 'get')).code).toBe(2);
      });
    });
  });

  it('makes no home: rdw research in a folder without one leaves it as it was', async () => {
    // It made ./datasets/state/pacing-….json wherever it was run (docs/cli.md: only commands that write make a home).
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (folder) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl, RDW_API_KEY: mock.keys.free };
        const out = captureOutput();
        expect(await runCli(['research', 'catalog', '--json'], { env, cwd: folder, stdout: out.output })).toBe(0);
        expect(JSON.parse(out.text())).toHaveProperty('datasets');
        const absent = path.join(folder, 'not-made');
        expect(await runCli(['research', 'get', 'market-breadth', '--home', absent], { env, cwd: folder })).toBe(0);
        expect(await readdir(folder)).toEqual([]);
      });
    });
  });

  it('serves a public live page with no key at all', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const out = captureOutput();
        const code = await runCli(['live', 'market-breadth', '--csv', '--home', home], {
          env: { RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl },
          stdout: out.output,
        });
        expect(code).toBe(0);
        expect(out.text().split('\n')[0]).toBe('symbol,base,source,price,change_24h,volume_24h,source_time,calculation_version');
        const log = mock.requestLog.filter((entry) => entry.path.startsWith('/api/research/live/'));
        expect(log.length).toBeGreaterThan(0);
        expect(log.every((entry) => entry.auth === false)).toBe(true);
      });
    });
  });

  it('names the live pages when no page key is given (exit 2) or the service has no such page (exit 6)', async () => {
    const pageKeys = RESEARCH_DATASETS.flatMap((dataset) => (dataset.live_page_key === undefined ? [] : [dataset.live_page_key]));
    expect(pageKeys.length).toBeGreaterThan(0);
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const run = async (...argv: string[]) => {
          const out = captureOutput();
          const err = captureOutput();
          const code = await runCli([...argv, '--home', home], {
            env: { RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl },
            stdout: out.output,
            stderr: err.output,
          });
          return { code, out: out.text(), err: err.text() };
        };
        const before = mock.requestLog.length;
        for (const argv of [['live'], ['live', 'market-breadth', 'funding-pressure']]) {
          const missing = await run(...argv);
          expect(missing.code).toBe(2);
          expect(missing.out).toBe('');
          expect(missing.err).toMatch(/^rdw: [^\n]+\n$/);
          for (const key of pageKeys) expect(missing.err).toContain(key);
        }
        expect(mock.requestLog.length).toBe(before);

        // The service is asked (a real one may serve pages the spec does not name); its 404 stays exit 6.
        for (const argv of [['live', 'no-such-page'], ['live', 'MARKET-BREADTH', '--csv'], ['live', 'no-such-page', '--json']]) {
          const unknown = await run(...argv);
          expect(unknown.code).toBe(6);
          expect(unknown.out).toBe('');
          if (argv.includes('--json')) {
            const { error } = JSON.parse(unknown.err.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
            expect(error.code).toBe('RDW_API_NOT_FOUND');
            for (const key of pageKeys) expect(error.message).toContain(key);
          } else {
            expect(unknown.err).toMatch(/^rdw: [^\n]+\n$/);
            for (const key of pageKeys) expect(unknown.err).toContain(key);
          }
        }
        expect(mock.requestLog.filter((entry) => entry.path.startsWith('/api/research/live/')).length).toBeGreaterThanOrEqual(3);
      });
    });
  });
});
