// Memory of a 1 GiB response, measured in a child process (issue 31 item 3: before, `rdw releases` on a
// 1 GiB body peaked at 2.2 GiB and ended in ERR_STRING_TOO_LONG): the built CLI reading an endless-looking
// 1 GiB JSON body stops at its limit, and a library script downloading a real 1 GiB release file streams it
// to disk; both peak below 300 MiB. Peak RSS from process.resourceUsage().maxRSS, printed on exit by a
// preloaded module. A node:http server of the test; needs `npm run build`.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/contract/index.js';
import { BUILT_CLI } from '../support/run-built-cli.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_memory0123456789abcdef0123456789ab';
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** The bound the issue sets for a 1 GiB response. */
const MAX_RSS_BYTES = 300 * MiB;
/** One MiB of the 1 GiB body: bytes that vary, repeated 1024 times. */
const CHUNK = Buffer.from(Array.from({ length: MiB }, (_, index) => (index * 31) % 251));
const RELEASE_ID = 'c'.repeat(64);
/** Printed to stderr when the child exits: its peak resident set, in KiB (Linux's maxRSS unit). */
const PEAK_RSS_PRELOAD = `data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kib='+process.resourceUsage().maxRSS+'\\n'))`;

/** Writes the 1 GiB body (no Content-Length: chunked, so nothing is known before reading) until done or the client leaves. */
function sendGiB(res: ServerResponse, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': contentType, ...headers });
  let sent = 0;
  const more = (): void => {
    while (sent < GiB && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  more();
}

/** Runs node with the peak-RSS preload; resolves with exit code, stderr and the peak in bytes. */
function runMeasured(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string; peakBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PEAK_RSS_PRELOAD, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const peak = /peak-rss-kib=(\d+)/.exec(stderr);
      resolve({ code, stderr, peakBytes: peak === null ? Number.NaN : Number(peak[1]) * 1024 });
    });
  });
}

describe('memory of a 1 GiB response', () => {
  let api: ScriptedServer;
  let dir: string;
  let sha256: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rdw-memory-'));
    const hash = createHash('sha256');
    for (let index = 0; index < 1024; index += 1) hash.update(CHUNK);
    sha256 = hash.digest('hex');
    api = await startScriptedServer((_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { rpm: 600, keys: 1, daily_bytes: 5 * GiB } });
      if (url.pathname === '/v1/releases') return sendGiB(res, 'application/json');
      if (url.pathname === `/v1/download/${RELEASE_ID}/csv`) return sendGiB(res, 'text/csv', { 'accept-ranges': 'bytes' });
      return sendJson(res, 404, {});
    });
  });
  afterAll(() => api.close());

  it('rdw releases on a 1 GiB JSON body: exit 5 at the 8 MiB document limit, peak RSS under 300 MiB', async () => {
    const run = await runMeasured([BUILT_CLI, 'releases', '--home', dir], { RDW_API_KEY: KEY, RDW_BASE_URL: api.baseUrl });
    expect(run.code, run.stderr).toBe(EXIT_CODES.limit);
    expect(run.stderr).toContain("is larger than rdw's limit of 8 MiB for a JSON document");
    expect(run.peakBytes).toBeLessThan(MAX_RSS_BYTES);
    console.info(`rdw releases, 1 GiB body: peak RSS ${Math.round(run.peakBytes / MiB)} MiB`);
  });

  it('a library download of a 1 GiB release file: verified on disk, peak RSS under 300 MiB', async () => {
    const dest = path.join(dir, 'big.csv');
    const script = path.join(dir, 'download.mjs');
    const client = pathToFileURL(path.resolve(path.dirname(BUILT_CLI), '../client/index.js')).href;
    await writeFile(
      script,
      [
        `import { createClient } from ${JSON.stringify(client)};`,
        `const client = createClient({ baseUrl: ${JSON.stringify(api.baseUrl)}, apiKey: ${JSON.stringify(KEY)} });`,
        `const digest = await client.download(${JSON.stringify(RELEASE_ID)}, 'csv', ${JSON.stringify(dest)}, { expected: { sha256: ${JSON.stringify(sha256)}, bytes: ${GiB} } });`,
        `process.stderr.write('digest=' + digest.sha256 + '\\n');`,
        'await client.close();',
      ].join('\n'),
    );
    const run = await runMeasured([script], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`digest=${sha256}`);
    expect((await stat(dest)).size).toBe(GiB);
    await rm(dest); // 1 GiB of disk back at once, not at the end of the run
    expect(run.peakBytes).toBeLessThan(MAX_RSS_BYTES);
    console.info(`library download, 1 GiB file: peak RSS ${Math.round(run.peakBytes / MiB)} MiB`);
  }, 180_000);
});
