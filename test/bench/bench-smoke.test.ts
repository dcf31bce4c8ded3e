// The benchmark suite as a smoke test of `npm test` (issue 27): `npm run bench -- --quick` (small sizes, no
// timing asserted) in a scratch home whose TMPDIR lies inside it, so a bench that breaks, or deletes more than
// it made, fails CI the day it happens. And the runner's judgement: a bench whose clean-up throws has failed,
// with the error it died of.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { findJupyterPython } from '../support/jupyter.js';
import { BENCH_SUITE, type SummaryRow } from './support/bench-suite.js';
import { runBench, type BenchOutcome } from './support/run-bench.js';
import { runChild } from './support/run-child.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Longer than every quick budget together (a hung bench is killed at its own budget); a run takes ~2 minutes. */
const SUITE_TIMEOUT_MS = BENCH_SUITE.reduce((sum, bench) => sum + bench.budgetSeconds.quick, 60) * 1000;
/** What the quick suite may leave in its TMPDIR: tsx's compile cache, the synthetic catalogs' cache (by design). */
const KEPT_IN_TMPDIR = /^(tsx-\d+|rdw-bench-event-study)$/;

let scratch: string;
beforeAll(async () => {
  scratch = await makeTemporaryFolder('rdw-bench-smoke-');
});
afterAll(async () => {
  if (scratch) await removeTree(scratch);
});

describe('the bench runner', () => {
  it('fails a bench whose clean-up throws after its JSON line, showing the error it died of', async () => {
    const spec = {
      name: 'clean-up-throws',
      script: 'test/bench/fixtures/clean-up-throws.ts',
      args: { quick: [], full: [] },
      budgetSeconds: { quick: 60, full: 60 },
      summarize: (json: Record<string, unknown>): SummaryRow[] => [{ bench: 'clean-up-throws', figure: 'seconds', value: String(json.seconds), detail: '' }],
    };
    const { outcome, rows } = await runBench(spec, 'quick', { root: ROOT });
    expect(outcome).toMatchObject({ status: 'failed', exitCode: 1, result: { benchmark: 'clean-up-throws' } });
    expect(outcome.error).toMatch(/^exit 1: UnsafeDeleteError: Refused to delete \S+ with its contents: .*\(code 'RDW_UNSAFE_DELETE', path '[^']+', reason '[a-z-]+'\)$/);
    expect(rows).toEqual([{ bench: 'clean-up-throws', figure: 'FAILED', value: '-', detail: outcome.error!.slice(0, 160) }]);
  });
});

describe('npm run bench -- --quick', () => {
  it(
    'ends every bench ok with its figures, in a scratch home (TMPDIR inside it) left as it was',
    async () => {
      // 1. A scratch home holding a marker and the TMPDIR the benches use.
      const home = path.join(scratch, 'home');
      await mkdir(path.join(home, 'tmp'), { recursive: true });
      await writeFile(path.join(home, 'marker.txt'), 'the home must survive the benches');
      const before = (await readdir(home)).sort();
      const out = path.join(scratch, 'bench-results.json');

      // 2. The runner as `npm run bench -- --quick` starts it (npm test has built dist/).
      const started = performance.now();
      const run = await runChild(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/bench/run.ts', '--quick', '--out', out], {
        cwd: ROOT,
        env: { ...process.env, HOME: home, TMPDIR: path.join(home, 'tmp'), RDW_BASE_URL: undefined, RDW_API_KEY: undefined, FORCE_COLOR: '0' },
        timeoutSeconds: SUITE_TIMEOUT_MS / 1000,
        echoStderr: false,
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(`npm run bench -- --quick: ${seconds.toFixed(1)} s`);
      const report = JSON.parse(await readFile(out, 'utf8')) as { benches: BenchOutcome[]; summary: SummaryRow[] };
      const failures = report.benches.filter((bench) => bench.status === 'failed' || bench.status === 'timeout');
      expect(failures.map((bench) => `${bench.name}: ${bench.error}`)).toEqual([]);
      expect(run.code).toBe(0);

      // 3. Each bench: ok with a JSON result and figures; only what the quick mode leaves out is skipped, and
      //    kernel-start only without Jupyter outside CI (under CI=true it fails instead).
      const noJupyter = (await findJupyterPython()) === undefined && process.env.CI !== 'true';
      expect(report.benches.map((bench) => bench.name)).toEqual(BENCH_SUITE.map((bench) => bench.name));
      for (const spec of BENCH_SUITE) {
        const bench = report.benches.find((outcome) => outcome.name === spec.name)!;
        if (!(spec.runsIn ?? ['quick', 'full']).includes('quick')) {
          expect(bench, spec.name).toMatchObject({ status: 'skipped', error: 'skipped in quick mode' });
          continue;
        }
        if (spec.name === 'kernel-start' && noJupyter) {
          expect(bench.status).toBe('skipped');
          continue;
        }
        expect(bench.status, spec.name).toBe('ok');
        expect(Object.keys(bench.result ?? {}).length, spec.name).toBeGreaterThan(0);
        const figures = report.summary.filter((row) => row.bench === spec.name);
        expect(figures.length, spec.name).toBeGreaterThan(0);
        for (const row of figures) expect(`${row.figure}: ${row.value}`, spec.name).not.toMatch(/: (-|undefined|NaN|null)$|FAILED|TIMEOUT/);
      }

      // 4. The home as it was: the same entries, the marker intact; the TMPDIR holds no bench's leftovers.
      expect((await readdir(home)).sort()).toEqual(before);
      expect(await readFile(path.join(home, 'marker.txt'), 'utf8')).toBe('the home must survive the benches');
      expect((await readdir(path.join(home, 'tmp'))).filter((name) => !KEPT_IN_TMPDIR.test(name))).toEqual([]);
    },
    SUITE_TIMEOUT_MS + 60_000,
  );
});
