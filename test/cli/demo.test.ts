import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { studyLockFromJson } from '../../src/locks/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';
import { captureOutput } from '../support/capture-output.js';

describe('rdw demo', () => {
  it('pulls, verifies, studies and pins the latest releases, then is idempotent', async () => {
    await withMockServer({ days: 12 }, async (mock) => {
      await withTempHome(async (home) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl, RDW_API_KEY: mock.keys.desk };
        const first = captureOutput();
        const code = await runCli(['demo', '--latest', '4', '--home', home], { env, stdout: first.output, stderr: captureOutput().output, cwd: home });
        expect(code).toBe(0);
        expect(first.text()).toContain('2/5 pulled 4 releases (4 new, 0 already present)');
        expect(first.text()).toContain('3/5 verified');
        // Every line fits a 100-column terminal (lines naming this test's long temporary home aside).
        const wide = first.text().split('\n').filter((line) => line.length > 100 && !line.includes(home));
        expect(wide).toEqual([]);

        // The lock pins exactly the listed releases, with their manifest checksums, and holds no key or host.
        const listed = (await readFile(path.join(home, 'demo', 'study.lock.json'), 'utf8'));
        const lock = studyLockFromJson(listed);
        const current = mock.archive.currentReleases(4).map((release) => release.id).sort();
        expect(lock.releases.map((release) => release.id).sort()).toEqual(current);
        expect(listed).not.toContain(mock.keys.desk);
        expect(listed).not.toContain('127.0.0.1');

        // The report's table holds the study rows; the HTML is self-contained.
        const report = JSON.parse(await readFile(path.join(home, 'demo', 'report', 'event-study.json'), 'utf8')) as {
          rows: unknown[];
          metadata: { releaseIds: string[] };
        };
        expect(report.rows.length).toBeGreaterThan(0);
        expect([...report.metadata.releaseIds].sort()).toEqual(current);
        const html = await readFile(path.join(home, 'demo', 'report', 'report.html'), 'utf8');
        expect(html).not.toMatch(/<script[^>]+src=/);

        // A second run downloads nothing and reports the same numbers.
        const downloadsBefore = mock.requestLog.filter((entry) => entry.path.includes('/download/')).length;
        const second = captureOutput();
        expect(await runCli(['demo', '--latest', '4', '--home', home], { env, stdout: second.output, stderr: captureOutput().output, cwd: home })).toBe(0);
        expect(second.text()).toContain('(0 new, 4 already present)');
        expect(mock.requestLog.filter((entry) => entry.path.includes('/download/')).length).toBe(downloadsBefore);
        const table = (text: string) => text.slice(text.indexOf('Event vs control study'), text.indexOf('Done in'));
        expect(table(second.text())).toBe(table(first.text()));
      });
    });
  });

  it('refuses a bad --latest before any request (exit 2)', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const err = captureOutput();
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
        expect(await runCli(['demo', '--latest', '0', '--home', home], { env, stderr: err.output })).toBe(2);
        expect(err.text()).toMatch(/^rdw: .*latest.*\n$/);
        expect(mock.requestLog).toHaveLength(0);
      });
    });
  });
});
