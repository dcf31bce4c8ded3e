// Benchmark: `rdw pull --latest N` of one desk through a team store on radosgw (issue 32) against the same pull
// from the API alone: wall time and the mock's requests (all, and to /download) and bytes, for three fresh homes:
// the API alone (no RDW_STORE_URL; first and last), the first puller of the desk (API + publish), a second puller (the store).
// Also the radosgw start time. The mock keeps its real limits (Research Desk: 300 requests per minute), so the
// API pulls are paced as against the service. Needs radosgw (Debian ceph-mon, ceph-osd, radosgw).
// Run: node --import tsx test/bench/team-store-pull.bench.ts [N]   (default 20). Prints a table and a JSON line.

import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer } from '../../src/mock/index.js';
import { hasS3Server, missingS3ServerMessage, startS3Server } from '../support/s3-server.js';
import { createTempHome } from '../support/temp-home.js';
import { formatTable } from './support/format-table.js';

const count = Number(process.argv[2] ?? 20);
if (!(await hasS3Server())) throw new Error(missingS3ServerMessage());

const startedRgw = performance.now();
const server = await startS3Server();
const rgwStartSeconds = (performance.now() - startedRgw) / 1000;
const mock = await startMockServer({ port: 0, days: Math.max(count, 12), seed: 11 });
const homes: { remove(): Promise<void> }[] = [];
try {
  const s3 = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  await s3.send(new CreateBucketCommand({ Bucket: 'desk' }));
  s3.destroy();

  const pass = async (name: string, store: boolean) => {
    const temp = await createTempHome();
    homes.push(temp);
    const env = {
      RDW_BASE_URL: mock.baseUrl,
      RDW_API_KEY: mock.keys.desk,
      ...(store ? { RDW_STORE_URL: 's3://desk/rdw', ...server.env } : {}),
    };
    const from = mock.requestLog.length;
    let stderr = '';
    const started = performance.now();
    const code = await runCli(['pull', '--latest', String(count), '--home', temp.home], {
      env,
      stdout: { write: () => undefined, isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: false },
      cwd: temp.home,
    });
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`${name}: exit ${code}: ${stderr}`);
    const requests = mock.requestLog.slice(from);
    const downloads = requests.filter((entry) => entry.path.includes('/download/'));
    return {
      pass: name,
      seconds: Number(seconds.toFixed(2)),
      requests: requests.length,
      downloads: downloads.length,
      apiMiB: Number((requests.reduce((sum, entry) => sum + entry.bytes, 0) / 2 ** 20).toFixed(2)),
    };
  };

  // The API alone runs first and last: the first run of the process also pays its warm-up (DuckDB, modules).
  const results = [
    await pass('API alone (cold process)', false),
    await pass('first puller (API + publish)', true),
    await pass('second puller (store)', true),
    await pass('API alone (warm process)', false),
  ];
  console.log(`team store: pull --latest ${count}; radosgw started in ${rgwStartSeconds.toFixed(1)} s`);
  console.log(formatTable(['pass', 'wall s', 'API requests', '/download', 'API MiB'], results.map((r) => [r.pass, r.seconds.toFixed(2), r.requests, r.downloads, r.apiMiB.toFixed(2)])));
  console.log(JSON.stringify({ benchmark: 'team-store', releases: count, rgwStartSeconds: Number(rgwStartSeconds.toFixed(2)), results }));
} finally {
  for (const home of homes) await home.remove();
  await mock.close();
  await server.stop();
}
