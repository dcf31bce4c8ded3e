// Scale benchmark (issue 8 item 3): a `--days N` mock (default 1100) in its own process, a full pull of
// every release into a fresh catalog, then `rdw study event --out DIR` over that catalog in a fresh process.
// Reports time and peak RSS of each step, and requests and bytes per pulled release against the minimum.
// Run: node --expose-gc --import tsx test/bench/support/scale-pull-study.ts [--days 1100] [--concurrency 2]

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '../../../src/client/index.js';
import { openCatalog, pullReleases } from '../../../src/catalog/index.js';
import { formatTable } from './format-table.js';
import { lastJsonLine } from './last-json-line.js';
import { sampleTreeRss } from './process-tree-rss.js';
import { runChild } from './run-child.js';
import { makeTemporaryFolder, removeTree } from '../../../src/base/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const flag = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const DAYS = flag('days', 1100);
const CONCURRENCY = flag('concurrency', 2);
const BIG = 1_000_000_000;

interface MockReady {
  baseUrl: string;
  key: string;
  releases: { id: string; parquet: number; rows: number }[];
}
interface MockStats {
  requests: number;
  bytes: number;
  byKind: Record<string, { requests: number; bytes: number }>;
}

// 1. The mock in its own process (like a remote API). It prints one ready line with every current
// release and its file sizes, then answers "stats" on stdin with its request log, grouped by kind.
const MOCK_SCRIPT = `
  import { createInterface } from 'node:readline';
  import { startMockServer } from './src/mock/index.ts';
  const mock = await startMockServer({ port: 0, days: ${DAYS}, limits: { requestLogSize: 1000000, desk: { rpm: ${BIG}, daily_bytes: ${BIG * 1000} } } });
  const releases = mock.archive.currentReleases(${DAYS}).map((r) => ({ id: r.id, parquet: r.files.parquet.bytes, rows: r.rows }));
  console.log(JSON.stringify({ baseUrl: mock.baseUrl, key: mock.keys.desk, releases }));
  createInterface({ input: process.stdin }).on('line', () => {
    const byKind = {};
    let bytes = 0;
    for (const entry of mock.requestLog) {
      const download = /\\/download\\/[0-9a-f]{64}\\/(\\w+)/.exec(entry.path);
      const kind = download ? 'download ' + download[1] : entry.path.replace(/[0-9a-f]{64}/g, '<id>').replace(/\\?.*$/, '') + ' ' + entry.status;
      const cell = (byKind[kind] ??= { requests: 0, bytes: 0 });
      cell.requests += 1;
      cell.bytes += entry.bytes;
      bytes += entry.bytes;
    }
    console.log(JSON.stringify({ requests: mock.requestLog.length, bytes, byKind }));
  });`;
const mockStarted = performance.now();
const mockChild = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', MOCK_SCRIPT], {
  cwd: ROOT,
  stdio: ['pipe', 'pipe', 'inherit'],
});
const mockRss = sampleTreeRss(mockChild.pid!);
const mockLines = createInterface({ input: mockChild.stdout! });
const nextLine = () => new Promise<string>((resolve) => mockLines.once('line', resolve));
const ready = JSON.parse(await nextLine()) as MockReady;
const mockReadySeconds = (performance.now() - mockStarted) / 1000;
/** Progress on stderr as `progress: {json}`, so a runner that stops this script early keeps the finished steps. */
const progress = (fields: Record<string, unknown>) => console.error(`progress: ${JSON.stringify(fields)}`);
progress({ days: DAYS, releases: ready.releases.length, mockReadySeconds: Number(mockReadySeconds.toFixed(2)) });

// 2. The pull: every release, into a fresh catalog, as `rdw pull` does (pullReleases, concurrency 2).
const home = await makeTemporaryFolder('rdw-bench-scale-');
let pullPeak = process.memoryUsage().rss;
const pullTimer = setInterval(() => (pullPeak = Math.max(pullPeak, process.memoryUsage().rss)), 100);
const pullStarted = performance.now();
const catalog = await openCatalog(home);
const client = createClient({ baseUrl: ready.baseUrl, apiKey: ready.key, home });
const ids = ready.releases.map((release) => release.id);
const pulled = await pullReleases(catalog, client, ids, { concurrency: CONCURRENCY });
const pullSeconds = (performance.now() - pullStarted) / 1000;
clearInterval(pullTimer);
if (pulled.failed.length > 0) throw pulled.failed[0]!.error;
const rows = Number((await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events'))[0]?.n);
progress({ rows, pullSeconds: Number(pullSeconds.toFixed(2)), pullReleasesPerSecond: Number((ids.length / pullSeconds).toFixed(2)), pullPeakRssMiB: Math.round(pullPeak / 2 ** 20) });
await client.close();
await catalog.close();
mockChild.stdin!.write('stats\n');
const stats = JSON.parse(await nextLine()) as MockStats;
mockChild.kill('SIGTERM');
const mockPeakRssMiB = mockRss.stop();

// 3. The study over that catalog, in a fresh process (its own peak RSS): the CLI a user runs.
const reportDir = path.join(home, 'report');
const study = await runChild(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'study', 'event', '--json', '--home', home, '--out', reportDir], {
  cwd: ROOT,
  env: { ...process.env, RDW_BASE_URL: '', RDW_API_KEY: '' },
  timeoutSeconds: 600,
});
const studyRows = study.code === 0 ? (JSON.parse(study.stdout.trim().split('\n').at(-1)!) as unknown[]) : [];
if (study.code !== 0) throw new Error(`rdw study event failed (${study.code}): ${study.stderr.slice(-2000)}`);

// 4. The event-study bench's own scenarios (eventStudy() alone, timed inside a fresh process, READ_ONLY)
// over this pulled catalog, so its figures describe real pulled data, not only its synthetic catalog.
const STUDY_BENCH = path.join(ROOT, 'test/bench/event-study.bench.ts');
const studyBenchText = await readFile(STUDY_BENCH, 'utf8');
// Its scenario names (the keys of its SCENARIOS object): the first (the default study) and the first
// "all 5 windows" one. Its `--scenario` argument is the RDW_HOME (older versions took the catalog file).
const names = [...(/const SCENARIOS[^{]*\{([\s\S]*?)\n\};/.exec(studyBenchText)?.[1] ?? '').matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1]!);
const chosen = [names[0], names.find((name) => name.startsWith('all 5 windows'))].filter((name): name is string => name !== undefined);
const scenarioTarget = /--scenario', home|openCatalog\(home/.test(studyBenchText) ? home : path.join(home, 'catalog.duckdb');
const scenarios: { scenario: string; seconds?: number; peakRssMb?: number; groups?: number; error?: string }[] = [];
if (chosen.length === 0) scenarios.push({ scenario: 'event-study.bench.ts scenarios', error: 'no scenario names found in event-study.bench.ts' });
for (const name of chosen) {
  const scenario = await runChild(process.execPath, ['--expose-gc', '--import', 'tsx', STUDY_BENCH, '--scenario', scenarioTarget, name], { cwd: ROOT, timeoutSeconds: 300 });
  const parsed = scenario.code === 0 ? lastJsonLine(scenario.stdout) : undefined;
  scenarios.push(parsed === undefined ? { scenario: name, error: `exit ${scenario.code}: ${scenario.stderr.slice(-300)}` } : (parsed as (typeof scenarios)[number]));
}
await removeTree(home);

// 5. Requests and bytes per release: the minimum is one request per needed file (the manifest and the
// parquet) and exactly those files' bytes (parquet sizes from the listing, the manifest's mean size from
// the log); everything else (catalog, bundled schemas, retries) is overhead.
const releases = ids.length;
const manifests = stats.byKind['download manifest'] ?? { requests: 1, bytes: 0 };
const minimumBytes = ready.releases.reduce((sum, r) => sum + r.parquet, 0) + (manifests.bytes / manifests.requests) * releases;
const result = {
  benchmark: 'scale',
  days: DAYS,
  releases,
  rows,
  concurrency: CONCURRENCY,
  mockReadySeconds: Number(mockReadySeconds.toFixed(2)),
  mockPeakRssMiB,
  pullSeconds: Number(pullSeconds.toFixed(2)),
  pullReleasesPerSecond: Number((releases / pullSeconds).toFixed(2)),
  pullPeakRssMiB: Math.round(pullPeak / 2 ** 20),
  requestsPerRelease: Number((stats.requests / releases).toFixed(3)),
  minimumRequestsPerRelease: 2,
  bytesPerRelease: Math.round(stats.bytes / releases),
  minimumBytesPerRelease: Math.round(minimumBytes / releases),
  bytesOverMinimum: Number((stats.bytes / minimumBytes).toFixed(4)),
  requestsByKind: stats.byKind,
  studySeconds: Number(study.seconds.toFixed(2)),
  studyPeakRssMiB: study.peakTreeRssMiB,
  studyGroups: studyRows.length,
  studyScenarios: scenarios.map((s) => ({ ...s, ...(s.seconds === undefined ? {} : { seconds: Number(s.seconds.toFixed(2)) }), ...(s.peakRssMb === undefined ? {} : { peakRssMb: Math.round(s.peakRssMb) }) })),
};
console.log(
  formatTable(
    ['step', 'seconds', 'peak RSS MiB', 'notes'],
    [
      [`mock --days ${DAYS} ready`, result.mockReadySeconds, result.mockPeakRssMiB, 'archive generated (mock process, peak over whole run)'],
      [`pull ${releases} releases`, result.pullSeconds, result.pullPeakRssMiB, `${rows} rows; ${result.requestsPerRelease} req/release (min 2); bytes x${result.bytesOverMinimum} of min`],
      ['rdw study event --out', result.studySeconds, result.studyPeakRssMiB, `${result.studyGroups} groups; fresh process incl. tsx start and report`],
      ...result.studyScenarios.map((s) => [`eventStudy(): ${s.scenario}`, s.seconds ?? '-', s.peakRssMb ?? '-', s.error ?? `${s.groups} groups; timed in-process (event-study.bench.ts --scenario)`]),
    ],
  ),
);
console.log(JSON.stringify(result));
