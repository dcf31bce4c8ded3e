// The benchmarks `npm run bench` runs, in order: script, arguments per mode, time budget, and how each
// script's JSON line becomes rows of the suite's summary table (issue 8 items 2 and 3).

export type BenchMode = 'quick' | 'full';

/** One line of the summary table: which bench, what was measured, the figure, and how to read it. */
export interface SummaryRow {
  bench: string;
  figure: string;
  value: string;
  detail: string;
}

export interface BenchSpec {
  /** Name for `--only`. */
  name: string;
  /** Script path relative to the repository root (run as `node --expose-gc --import tsx <script> ...args`). */
  script: string;
  /** Arguments per mode. */
  args: Record<BenchMode, readonly string[]>;
  /** Modes in which it runs without being named by --only. Default: both. */
  runsIn?: readonly BenchMode[];
  /** Kill after this many seconds, per mode. */
  budgetSeconds: Record<BenchMode, number>;
  /** Summary rows from the script's JSON line. */
  summarize: (json: Record<string, unknown>) => SummaryRow[];
  /** For a bench that failed or ran out of time: a JSON result rebuilt from the progress it printed. */
  partial?: (stdout: string, stderr: string) => Record<string, unknown> | undefined;
}

/** A script's JSON line: read field by field, each summary guarded by the runner. */
type Json = Record<string, any>;
const fixed = (value: unknown, digits = 2) => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : String(value));
const share = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? `${(100 * value).toFixed(1)}%` : 'none shown');
const mib = (value: unknown) => `${fixed(value, 0)} MiB`;

export const BENCH_SUITE: readonly BenchSpec[] = [
  {
    name: 'pull',
    script: 'test/bench/pull.bench.ts',
    args: { quick: ['10'], full: ['100', '1000'] },
    budgetSeconds: { quick: 120, full: 600 },
    // pull.bench.ts prints `done: {…}` on stderr after each count: keep the counts that finished.
    partial: (_stdout, stderr) => {
      const results = stderr
        .split('\n')
        .map((line) => /^\s*done: (\{.*\})\s*$/.exec(line)?.[1])
        .flatMap((text) => (text === undefined ? [] : [JSON.parse(text) as Json]));
      return results.length > 0 ? { benchmark: 'pull', partial: true, results } : undefined;
    },
    summarize: (json: Json) =>
      (json.results as Json[]).map((r) => ({
        bench: 'pull',
        figure: `rdw pull vs no-checks baseline, ${r.releases} releases`,
        value: `${fixed(r.ratio)}x`,
        detail: `rdw ${fixed(r.rdwSeconds)} s vs baseline ${fixed(r.baselineSeconds)} s; ${r.rows} rows; ${fixed(r.rdwReleasesPerSecond, 1)} releases/s; goal <= ${json.goalRatio ?? 1.25}x`,
      })).concat(
        (json.results as Json[]).filter((r) => r.floorSeconds !== undefined).map((r) => ({
          bench: 'pull',
          figure: `rdw pull vs floor (fetch at full concurrency, hash, one DuckDB statement), ${r.releases} releases`,
          value: `${fixed(r.floorRatio)}x`,
          detail: `rdw ${fixed(r.rdwSeconds)} s vs floor ${fixed(r.floorSeconds)} s (${json.floorConcurrency ?? '-'} in flight); rdw ÷ baseline ${fixed(r.ratio)}x`,
        })),
      ).concat(
        (json.results as Json[]).map((r) => ({
          bench: 'pull',
          figure: `peak RSS of a pull (own process), ${r.releases} releases`,
          value: mib(r.rdwPeakRssMiB),
          detail: `baseline ${mib(r.baselinePeakRssMiB)}; rdw RSS after each tenth: ${(r.rdwRssCurveMiB as number[] | undefined)?.join(' ') ?? '-'}`,
        })),
        // Absent from a partial run (pull.bench.ts prints it after its last count).
        json.peakGrowth === undefined
          ? []
          : [
              {
                bench: 'pull',
                figure: 'peak RSS growth of a pull, largest ÷ smallest count (flat = about 1)',
                value: `${fixed((json.peakGrowth as Json).rdw)}x`,
                detail: `baseline ${fixed((json.peakGrowth as Json).baseline)}x`,
              },
            ],
      ),
  },
  {
    name: 'client',
    script: 'test/bench/client.bench.ts',
    args: { quick: ['--releases', '40', '--rpm', '60'], full: ['--releases', '300', '--rpm', '60,300'] },
    budgetSeconds: { quick: 90, full: 360 },
    summarize: (json: Json) =>
      (json.results as Json[]).flatMap((r) => [
        {
          bench: 'client',
          figure: `pacing: ${r.releases}-release pull at ${r.rpm} rpm, fake time ÷ plan's least time (fake clock)`,
          value: `${fixed(r.ratio, 3)}x`,
          detail: `${fixed(r.fakeSeconds, 1)} s vs ${r.planSeconds} s for ${r.minimumRequests} requests; ${r.status429} x 429; ${r.pacingNotices} pace notices; goal <= ${json.goalRatio}x`,
        },
        {
          bench: 'client',
          figure: `requests per pulled release (${r.rpm} rpm plan)`,
          value: fixed(r.requestsPerRelease, 3),
          detail: `minimum 2 (manifest + parquet); ${r.requests} requests for ${r.releases} releases (minimum ${r.minimumRequests} with /catalog)`,
        },
        {
          bench: 'client',
          figure: `row-page requests for one release (${r.rpm} rpm plan)`,
          value: String(r.rowRequests),
          detail: `minimum ${r.minimumRowRequests} (500 rows per page) for ${r.pagedRows} rows`,
        },
      ]),
  },
  {
    name: 'team-store',
    script: 'test/bench/team-store.bench.ts',
    args: { quick: ['--releases', '10'], full: ['--releases', '100'] },
    budgetSeconds: { quick: 240, full: 900 },
    summarize: (json: Json) => [
      {
        bench: 'team-store',
        figure: `desk API requests, ${json.releases} releases pulled by ${json.researchers} researchers (store: ${json.store ?? 'team store'})`,
        value: String(json.deskRequests),
        detail: `${fixed(json.deskRequestsPerRelease)} per release (≈ 2 shared, 10 without); data files ${json.deskDataFileRequests}; late pullers ${(json.lateTraffic as Json).requests}`,
      },
      {
        bench: 'team-store',
        figure: "desk API bytes ÷ one researcher's",
        value: `${fixed(json.deskBytesRatio)}x`,
        detail: `${fixed(json.deskApiMiB)} MiB for the desk (≈ 1x shared, 5x without); ${json.deskRateLimited} x 429; ${json.releasesNotPulled ?? 0} releases not pulled`,
      },
      {
        bench: 'team-store',
        figure: 'first puller (empty store), wall time',
        value: `${fixed((json.first as Json).seconds, 1)} s`,
        detail: `${((json.first as Json).traffic as Json).requests} API requests; the desk's 300 rpm window alone needs ${fixed(json.firstApiFloorSeconds, 0)} s for them`,
      },
      {
        bench: 'team-store',
        figure: `${(json.late as Json[]).length} late pullers at once, slowest wall time`,
        value: `${fixed(json.lateMaxSeconds, 1)} s`,
        detail: `each ${(json.late as Json[]).map((run) => fixed(run.seconds, 1)).join(', ')} s; their ${(json.lateTraffic as Json).requests} API requests need ${fixed(json.lateApiFloorSeconds, 0)} s of the desk's window`,
      },
      { bench: 'team-store', figure: 'peak RSS of one puller (process tree)', value: mib(json.peakRssMiB), detail: `${json.rows} rows per home, every home equal` },
    ],
  },
  {
    name: 'mock-server',
    script: 'test/bench/mock-server.bench.ts',
    args: { quick: ['--seconds', '0.3', '--rounds', '1'], full: ['--seconds', '2', '--rounds', '3'] },
    budgetSeconds: { quick: 60, full: 180 },
    summarize: (json: Json) =>
      (json.summary as Json[]).map((s) => ({
        bench: 'mock-server',
        figure: `plain node:http / mock, ${s.scenario}`,
        value: `${fixed(s.ratio)}x`,
        detail: `plain ${fixed(s.plainRps, 0)} req/s, mock ${fixed(s.mockRps, 0)} req/s; ${fixed(s.plainMBps, 1)} vs ${fixed(s.mockMBps, 1)} MB/s`,
      })),
  },
  {
    name: 'scale',
    script: 'test/bench/support/scale-pull-study.ts',
    args: { quick: ['--days', '10'], full: ['--days', '1100'] },
    budgetSeconds: { quick: 120, full: 900 },
    // scale-pull-study.ts prints `progress: {…}` on stderr after the mock is ready and after the pull.
    partial: (_stdout, stderr) => {
      const steps = stderr
        .split('\n')
        .map((line) => /^\s*progress: (\{.*\})\s*$/.exec(line)?.[1])
        .flatMap((text) => (text === undefined ? [] : [JSON.parse(text) as Json]));
      return steps.length > 0 ? Object.assign({ benchmark: 'scale', partial: true }, ...steps) : undefined;
    },
    summarize: (json: Json) => [
      { bench: 'scale', figure: `mock --days ${json.days}: ready (archive built)`, value: `${fixed(json.mockReadySeconds)} s`, detail: json.mockPeakRssMiB === undefined ? `${json.releases} releases listed` : `mock process peak ${mib(json.mockPeakRssMiB)}` },
      ...(json.pullSeconds === undefined ? [] : [{
        bench: 'scale',
        figure: `full pull of ${json.releases} releases`,
        value: `${fixed(json.pullSeconds)} s`,
        detail: `${json.rows} rows; ${fixed(json.pullReleasesPerSecond)} releases/s; peak ${mib(json.pullPeakRssMiB)}`,
      }]),
      ...(json.requestsPerRelease === undefined ? [] : [{
        bench: 'scale',
        figure: 'requests per pulled release (no rate limit)',
        value: fixed(json.requestsPerRelease, 3),
        detail: `minimum ${json.minimumRequestsPerRelease} (manifest + parquet); by kind: ${Object.entries(json.requestsByKind as Json)
          .map(([kind, cell]) => `${kind} ${cell.requests}`)
          .join(', ')}`,
      },
      {
        bench: 'scale',
        figure: 'bytes per pulled release',
        value: `${json.bytesPerRelease} B`,
        detail: `minimum ${json.minimumBytesPerRelease} B (manifest + parquet); ratio ${fixed(json.bytesOverMinimum, 4)}`,
      },
      {
        bench: 'scale',
        figure: `rdw study event --out over the pulled catalog (${json.rows} rows)`,
        value: `${fixed(json.studySeconds)} s`,
        detail: `fresh process incl. tsx start and HTML/SVG report; peak ${mib(json.studyPeakRssMiB)}; ${json.studyGroups} groups`,
      }]),
      ...((json.studyScenarios ?? []) as Json[]).map((s) => ({
        bench: 'scale',
        figure: `eventStudy() over the pulled catalog: ${s.scenario}`,
        value: s.error ? 'FAILED' : `${fixed(s.seconds)} s`,
        detail: s.error ? String(s.error).slice(0, 120) : `peak ${mib(s.peakRssMb)}; ${s.groups} groups; fresh process, timed around eventStudy()`,
      })),
    ],
  },
  {
    name: 'event-study',
    script: 'test/bench/event-study.bench.ts',
    // Full mode: opt-in (--only event-study): its synthetic 1,100-day catalog takes minutes to build, and
    // `scale` runs the same scenarios over a really pulled 1,100-day catalog. Quick mode (npm test's smoke run):
    // 10 days built through tsx (--no-compile: a tsc of the whole project costs more than it saves there).
    args: { quick: ['--days', '10', '--no-compile'], full: ['--days', '1100'] },
    runsIn: ['quick'],
    budgetSeconds: { quick: 120, full: 600 },
    summarize: (json: Json) =>
      (json.scenarios as Json[]).map((s) => ({
        bench: 'event-study',
        figure: `event study, ${json.days} days / ${json.rows} rows: ${s.scenario}`,
        value: `${fixed(s.seconds)} s`,
        detail: `peak ${mib(s.peakRssMb)}; ${s.groups} groups; synthetic catalog built in ${fixed(json.buildSeconds, 1)} s (not timed)`,
      })),
  },
  {
    name: 'model',
    script: 'test/bench/model.bench.ts',
    // Issue 20's speed target: splits and the logistic baseline over 1,100 days in < 10 s and < 1 GiB. The
    // synthetic catalog is event-study's (cached; its first build takes ~2-5 minutes, hence the full budget).
    // Quick mode: event-study's quick catalog (same days, seed and flags: reused, not built again).
    args: { quick: ['--days', '10', '--no-compile'], full: ['--days', '1100', '--runs', '2'] },
    budgetSeconds: { quick: 180, full: 900 },
    summarize: (json: Json) =>
      (json.scenarios as Json[]).map((s) => ({
        bench: 'model',
        figure: `modelCatalog(), ${json.days} days / ${s.rows} rows: ${s.scenario}`,
        value: `${fixed(s.seconds)} s`,
        detail:
          `${s.pass ? 'PASS' : 'FAIL'} (< ${json.target.seconds} s, < ${json.target.rssMiB} MiB); peak ${mib(s.peakRssMiB)}; runs ${(s.allSeconds as number[]).map((v) => fixed(v)).join(', ')} s; ` +
          `parts: splits ${fixed(s.parts.splitSeconds)}, read ${fixed(s.parts.readSeconds)}, fits ${fixed(s.parts.fitSeconds)}, scores + CIs ${fixed(s.parts.scoreSeconds)} s; load ${json.loadAverage1m}`,
      })),
  },
  {
    name: 'calibration',
    script: 'test/bench/calibration.bench.ts',
    // Issue 28 item 2: coverage of rdw's intervals against the simulator's truth. Quick: 2 small markets, a
    // smoke run (figures meaningless at that size, nothing asserted); full: 50 markets of 180 days, purged k-fold and
    // walk-forward model studies.
    args: { quick: ['--quick'], full: ['--cache', '.scratch/calibration-cache'] },
    budgetSeconds: { quick: 90, full: 3600 },
    summarize: (json: Json) =>
      (json.summary as Json[]).flatMap((length) => [
        ...Object.entries(length.event.coverage as Json).map(([window, t]) => ({
          bench: 'calibration',
          figure: `${length.days}-day markets, ${window}: event difference 95% interval coverage`,
          value: t.coverage === null ? 'none shown' : `${fixed(100 * t.coverage, 1)}%`,
          // Model intervals against their estimands (docs/analysis.md): fold rows the same-regime truth, pooled rows the expected skill.
          detail:
            `${t.shown} shown, withheld ${JSON.stringify(t.withheld)}; model fold AUC ${share(length.model.coverage[window].foldAucSameRegime.coverage)}, ` +
            `fold Δ log loss ${share(length.model.coverage[window].foldLogLossSameRegime.coverage)}, pooled AUC ${share(length.model.pooledEstimand[window].auc.coverage)}, ` +
            `pooled Δ log loss ${share(length.model.pooledEstimand[window].logLoss.coverage)}` +
            (length.walkForward ? `; walk-forward pooled AUC ${share(length.walkForward.pooledEstimand[window].auc.coverage)}, Δ log loss ${share(length.walkForward.pooledEstimand[window].logLoss.coverage)}` : '') +
            `; ${json.markets} markets`,
        })),
        {
          bench: 'calibration',
          figure: `${length.days}-day markets: FDR of BH calls on null groups; power (breakout 1h)`,
          value: `${fixed(100 * (length.event.fdr ?? NaN), 1)}%`,
          detail: `power ${fixed(100 * (length.event.power ?? NaN), 1)}%; no-skill folds excluding 0.5: ${length.model.noSkillFolds.excluding} of ${length.model.noSkillFolds.shown}; CI/p disagreements ${length.event.disagreements}`,
        },
      ]),
  },
  {
    name: 'pooled-log-loss',
    script: 'test/bench/pooled-log-loss.bench.ts',
    // Issue 28: the pooled Δ log loss interval of k-fold on independent rows, no simulator: the experimental
    // cross-fold interval beside the corrected resampled t rdw shows. Quick: 30 runs per control (figures meaningless).
    args: { quick: ['--runs', '30'], full: ['--runs', '1000'] },
    budgetSeconds: { quick: 90, full: 1200 },
    summarize: (json: Json) =>
      (json.results as Json[]).map((r) => ({
        bench: 'pooled-log-loss',
        figure: `k-fold pooled Δ log loss 95% cross-fold interval (experimental) on independent rows, ${r.control}: coverage`,
        value: share(r.crossFoldCoverage),
        detail: `${r.runs} runs; corrected resampled t ${share(r.correctedResampledCoverage)}, without its correction ${share(r.uncorrectedCoverage)}; test-rows jackknife ${share(r.testRowsCoverage)}`,
      })),
  },
  {
    name: 'kernel-start',
    script: 'test/bench/kernel-start.bench.ts',
    args: { quick: ['--rounds', '1'], full: ['--rounds', '3'] },
    budgetSeconds: { quick: 150, full: 360 },
    summarize: (json: Json) => [
      {
        bench: 'kernel-start',
        figure: 'notebook kernel cold start to first result',
        value: `${fixed(json.coldStartToFirstResultSeconds)} s`,
        detail: `kernel ready ${fixed(json.kernelReadySeconds)} s + cell ${fixed(json.firstOutputSeconds)} s (median of ${json.rounds})`,
      },
      { bench: 'kernel-start', figure: 'nbconvert one-cell notebook, end to end', value: `${fixed(json.nbconvertSeconds)} s`, detail: `runs: ${(json.allNbconvertSeconds as number[]).join(', ')} s` },
    ],
  },
  {
    name: 'install',
    script: 'test/bench/install.bench.ts',
    // Quick mode: opt-in (--only install): an install takes a minute or more even from the cache.
    args: { quick: [], full: [] },
    runsIn: ['full'],
    budgetSeconds: { quick: 300, full: 300 },
    summarize: (json: Json) => [
      { bench: 'install', figure: `install time (${json.command})`, value: `${fixed(json.seconds)} s`, detail: json.ciError ? `npm ci FAILED: ${String(json.ciError).slice(0, 90)}...` : `npm ${json.npm}` },
      {
        bench: 'install',
        figure: 'node_modules size',
        value: `${fixed(json.nodeModulesMiB, 1)} MiB`,
        detail: `${json.files} files, ${json.topLevelPackages} top-level packages; largest ${(json.largest as Json[]).map((l) => `${l.package} ${l.MiB}`).join(', ')}`,
      },
    ],
  },
];
