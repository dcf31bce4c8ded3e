// Benchmark: the mock server against a plain node:http server returning the same bytes, in one run:
// `/rows` 100-row pages and full parquet downloads; requests/s, MB/s and the mock/plain ratio.
// Run: npx tsx test/bench/mock-server.bench.ts [--seconds 2] [--rounds 3] [--connections 8]

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startMockServer } from '../../src/mock/index.js';
import type { Release } from '../../src/contract/index.js';

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

interface Result {
  scenario: string;
  server: 'plain' | 'mock';
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  megabytesPerSecond: number;
}

/** Keeps `connections` requests in flight over one keep-alive pool for `seconds`; counts answers and bytes. */
async function load(origin: string, paths: readonly string[], headers: Record<string, string>, seconds: number, connections: number) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  let requests = 0;
  let bytes = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let index = worker; performance.now() < deadline; index += connections) {
        const response = await pool.request({ path: paths[index % paths.length]!, method: 'GET', headers });
        const body = new Uint8Array(await response.body.arrayBuffer());
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
        requests += 1;
        bytes += body.length;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests, seconds: elapsed, requestsPerSecond: requests / elapsed, megabytesPerSecond: bytes / elapsed / 1e6 };
}

async function main(): Promise<void> {
  const seconds = flag('seconds', 2);
  const connections = flag('connections', 8);
  const rounds = flag('rounds', 3);
  const huge = 1e12;
  const mock = await startMockServer({
    days: 2,
    limits: { desk: { rpm: 1e9, daily_bytes: huge }, researcher: { rpm: 1e9, daily_bytes: huge } },
  });
  const auth = { authorization: `Bearer ${mock.keys.desk}` };
  const [release] = ((await (await fetch(`${mock.baseUrl}/releases?limit=1`, { headers: auth })).json()) as { items: [Release] }).items;

  // 1. the exact bodies the mock serves, captured once for the plain server
  const rowPaths: string[] = [];
  for (let offset = 0; offset < release.rows; offset += 100) rowPaths.push(`/v1/rows/${release.id}?limit=100&offset=${offset}`);
  const parquetPath = `/v1/download/${release.id}/parquet`;
  const bodies = new Map<string, { type: string; bytes: Buffer }>();
  for (const path of [...rowPaths, parquetPath]) {
    const response = await fetch(`${mock.siteUrl}${path}`, { headers: auth });
    bodies.set(path, { type: response.headers.get('content-type')!, bytes: Buffer.from(await response.arrayBuffer()) });
  }

  // 2. the plain server: a Map lookup and the bytes
  const plain: Server = createServer((request, response) => {
    const body = bodies.get(request.url ?? '');
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': body.type, 'Content-Length': body.bytes.length });
    response.end(body.bytes);
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const plainOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;

  // 3. the same load on both, alternating, after a short warm-up
  const scenarios = [
    { scenario: `/rows 100-row pages (${rowPaths.length} pages)`, paths: rowPaths },
    { scenario: `parquet download (${bodies.get(parquetPath)!.bytes.length} bytes)`, paths: [parquetPath] },
  ];
  // Several alternating rounds, median per server: a shared machine's load drifts within seconds.
  const results: Result[] = [];
  for (const { scenario, paths } of scenarios) {
    for (const [, origin] of [['plain', plainOrigin], ['mock', mock.siteUrl]] as const) await load(origin, paths, auth, 0.5, connections);
    const runs: Record<'plain' | 'mock', Awaited<ReturnType<typeof load>>[]> = { plain: [], mock: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const [server, origin] of [['plain', plainOrigin], ['mock', mock.siteUrl]] as const) runs[server].push(await load(origin, paths, auth, seconds, connections));
    }
    for (const server of ['plain', 'mock'] as const) {
      const sorted = runs[server].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
      results.push({ scenario, server, ...sorted[sorted.length >> 1]! });
    }
  }
  await new Promise<void>((resolve) => plain.close(() => resolve()));
  await mock.close();

  // 4. table and JSON
  const rows = scenarios.map(({ scenario }) => {
    const [p, m] = [results.find((r) => r.scenario === scenario && r.server === 'plain')!, results.find((r) => r.scenario === scenario && r.server === 'mock')!];
    return { scenario, plainRps: p.requestsPerSecond, mockRps: m.requestsPerSecond, plainMBps: p.megabytesPerSecond, mockMBps: m.megabytesPerSecond, ratio: p.requestsPerSecond / m.requestsPerSecond };
  });
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(44) : cell.padStart(11))).join(' ');
  console.log(line(['scenario', 'plain req/s', 'mock req/s', 'plain MB/s', 'mock MB/s', 'plain/mock']));
  for (const row of rows) {
    console.log(line([row.scenario, row.plainRps.toFixed(0), row.mockRps.toFixed(0), row.plainMBps.toFixed(1), row.mockMBps.toFixed(1), `${row.ratio.toFixed(2)}x`]));
  }
  console.log(JSON.stringify({ benchmark: 'mock-server', seconds, rounds, connections, node: process.version, results, summary: rows }));
}

await main();
