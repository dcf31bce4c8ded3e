// rdw against a service that names its releases its own way (upper/mixed case, `-`, `_`, `.`, `~`) and lists
// them sparsely (only id, day, version, files: the fields the spec names). A small node:http server plays
// that service; it serves the in-test mock's verified files under its own IDs (issue 14, deliverable 1).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, pullReleases } from '../../src/catalog/index.js';
import { clientMessages } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { commandMessages } from '../../src/cli/messages.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { textTable } from '../../src/notebook/index.js';
import { readLock } from '../../src/locks/index.js';
import { openWorkbench } from '../../src/workbench/index.js';
import { createTempHome } from '../support/temp-home.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** One release as the foreign service lists it: its own ID for one of the mock's releases. */
interface ForeignRelease {
  id: string;
  realId: string;
  day: string;
  version: string;
  files: Record<string, unknown>;
  rows: number;
}

/** The foreign service: `listing` is what `/releases` answers (changeable by a test); `requests` counts every request. */
interface ForeignService {
  baseUrl: string;
  listing: Record<string, unknown>[];
  requests: string[];
  close(): Promise<void>;
}

let mock: MockServer;
let service: ForeignService;
let releases: ForeignRelease[];
const homes: { remove(): Promise<void> }[] = [];

/** The service's own IDs for the mock's releases (newest first): upper case, mixed case with - and _, . and ~, lowercase. */
const foreignId = (realId: string, index: number): string =>
  [
    realId.toUpperCase(),
    `${realId.slice(0, 30).toUpperCase()}-_${realId.slice(32)}`,
    `~.${realId.slice(2, 62)}Zz`,
    realId,
  ][index % 4]!;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 4 });
  const listed = (await mockJson('/releases?limit=4')) as { items: { id: string; day: string; version: string; files: Record<string, unknown>; rows: number }[] };
  releases = listed.items.map((item, index) => ({
    id: foreignId(item.id, index),
    realId: item.id,
    day: item.day,
    version: item.version,
    files: item.files,
    rows: item.rows,
  }));
  service = await startForeignService();
}, 60_000);
afterAll(async () => {
  for (const home of homes) await home.remove();
  await service?.close();
  await mock?.close();
});

/** Only the fields the spec names for a listed release. */
const sparse = (release: ForeignRelease) => ({ id: release.id, day: release.day, version: release.version, files: release.files });

async function mockJson(pathAndQuery: string): Promise<unknown> {
  const response = await fetch(`${mock.baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${mock.keys.desk}` } });
  return response.json();
}

/** The foreign service: its own IDs, sparse listings, the mock's bytes (manifests re-labelled with its IDs), no ETags. */
async function startForeignService(): Promise<ForeignService> {
  const requests: string[] = [];
  const state = { listing: releases.map(sparse) };
  const send = (response: ServerResponse, status: number, body: Uint8Array | string, type = 'application/json') => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    response.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
    response.end(bytes);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://service');
    requests.push(url.pathname);
    const notFound = () => send(response, 404, JSON.stringify({ message: 'not here' }));
    if (url.pathname === '/v1/catalog') {
      return send(response, 200, JSON.stringify({ datasets: [], limits: { keys: 5, rpm: 6000, daily_bytes: 5 * 2 ** 30 } }));
    }
    if (url.pathname === '/v1/releases') {
      const limit = Number(url.searchParams.get('limit') ?? 20);
      return send(response, 200, JSON.stringify({ items: state.listing.slice(0, limit) }));
    }
    const match = /^\/v1\/download\/([^/]+)\/([a-z]+)$/.exec(url.pathname);
    // Exact IDs only: an ID differing in case is another (unknown) release.
    const release = match === null ? undefined : releases.find((entry) => entry.id === decodeURIComponent(match[1]!));
    if (release === undefined) return notFound();
    const upstream = await fetch(`${mock.baseUrl}/download/${release.realId}/${match![2]}`, { headers: { authorization: `Bearer ${mock.keys.desk}` } });
    if (upstream.status !== 200) return send(response, upstream.status, Buffer.from(await upstream.arrayBuffer()));
    const bytes = Buffer.from(await upstream.arrayBuffer());
    if (match![2] !== 'manifest') return send(response, 200, bytes, upstream.headers.get('content-type') ?? 'application/octet-stream');
    const manifest = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    return send(response, 200, JSON.stringify({ ...manifest, id: release.id }));
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get listing() {
      return state.listing;
    },
    set listing(items) {
      state.listing = items;
    },
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function newHome(): Promise<string> {
  const temp = await createTempHome();
  homes.push(temp);
  return temp.home;
}

/** `rdw <argv> --home <home>` in-process against the foreign service; cwd = home. */
async function rdw(home: string, argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env: { RDW_BASE_URL: service.baseUrl, RDW_API_KEY: mock.keys.desk },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: home,
  });
  return { code, stdout, stderr };
}

async function catalogRows(home: string, sql: string): Promise<Record<string, unknown>[]> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    return await catalog.query(sql);
  } finally {
    await catalog.close();
  }
}

describe('a service with its own release IDs and sparse listings', () => {
  it('rdw releases lists sparse items: absent columns are empty cells, --json keeps them absent', async () => {
    service.listing = releases.map(sparse);
    const home = await newHome();
    // By default the first 12 characters of each ID (they tell these apart); --full-ids: whole IDs.
    const shortTable = await rdw(home, ['releases']);
    expect(shortTable.code).toBe(0);
    const length = 12;
    expect(shortTable.stdout.split('\n').slice(2, 2 + releases.length).map((line) => line.split(' ')[0])).toEqual(releases.map((release) => release.id.slice(0, length)));
    const table = await rdw(home, ['releases', '--full-ids']);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    for (const release of releases) {
      const line = lines.find((text) => text.startsWith(`${release.id} `));
      // id, day, version, then nothing: rows, generated_at and imported are empty, never invented.
      expect(line?.trimEnd().split(/\s+/)).toEqual([release.id, release.day, release.version]);
    }
    expect(table.stdout).not.toMatch(/NULL|Invalid|NaN|1970/);

    const json = await rdw(home, ['releases', '--json']);
    expect(json.code).toBe(0);
    const items = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(items).toEqual(releases.map((release) => ({ ...sparse(release), imported: false })));
    expect(await catalogRows(home, 'SELECT id, version, generated_at FROM listed_releases ORDER BY day DESC')).toEqual(
      releases.map((release) => ({ id: release.id, version: release.version, generated_at: null })),
    );

    // A listing with two IDs that share 30 characters: the short IDs grow to 31 to stay apart.
    const twins = [sparse(releases[0]!), { ...sparse(releases[1]!), id: `${releases[0]!.id.slice(0, 30)}${releases[1]!.id.slice(30)}` }];
    service.listing = twins;
    try {
      const grown = await rdw(home, ['releases']);
      expect(grown.stdout.split('\n').slice(2, 4).map((line) => line.split(' ')[0])).toEqual(twins.map((twin) => twin.id.slice(0, 31)));
    } finally {
      service.listing = releases.map(sparse);
    }
  });

  it('leaves out listed items without a usable id or day and lists the others', async () => {
    service.listing = [
      { day: releases[0]!.day, version: 'mev-calc-4' },
      sparse(releases[0]!),
      { ...sparse(releases[1]!), day: '31/10/2026' },
      { ...sparse(releases[2]!), id: `${releases[2]!.id.slice(1)}/` },
      sparse(releases[3]!),
    ];
    try {
      const home = await newHome();
      const run = await rdw(home, ['releases', '--json']);
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as { id: string }[]).map((item) => item.id)).toEqual([releases[0]!.id, releases[3]!.id]);
      // Reported once, as one sentence naming the items (notice kind 'unknown_item'), not fatal.
      const skipped = [
        { index: 0, reason: 'no usable id' },
        { index: 2, reason: 'no usable day' },
        { index: 3, reason: 'no usable id' },
      ];
      // Under --json the notice is a JSON object on stderr; without, the sentence after `rdw: `.
      expect(run.stderr).toBe(`${JSON.stringify({ notice: { message: clientMessages.listingItemsSkipped(skipped) } })}\n`);
      const plain = await rdw(home, ['releases']);
      expect(plain.code).toBe(0);
      expect(plain.stderr).toBe(`rdw: ${clientMessages.listingItemsSkipped(skipped)}\n`);
    } finally {
      service.listing = releases.map(sparse);
    }
  });

  it('rdw pull --latest says so when the listing names nothing it can use (empty, or no usable id): exit 0, one sentence', async () => {
    for (const listing of [[], [{ day: releases[0]!.day }, { ...sparse(releases[1]!), id: 'not-an-id' }]]) {
      service.listing = listing;
      try {
        const run = await rdw(await newHome(), ['pull', '--latest', '3']);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe('');
        expect(run.stderr.trim().split('\n').at(-1)).toBe(`rdw: ${commandMessages.pullListedNothing()}`);
      } finally {
        service.listing = releases.map(sparse);
      }
    }
  });

  it('rdw pull --latest 2 imports under the exact listed IDs; a case-folded ID is another release (exit 6)', async () => {
    const home = await newHome();
    const run = await rdw(home, ['pull', '--latest', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const wanted = releases.slice(0, 2);
    for (const release of wanted) expect(run.stdout).toContain(`imported ${release.id.slice(0, 12)} ${release.day} ${release.version} ${release.rows} rows`);
    expect(await catalogRows(home, `SELECT id, rows::INTEGER AS rows FROM releases ORDER BY day DESC`)).toEqual(
      wanted.map((release) => ({ id: release.id, rows: release.rows })),
    );
    expect(await catalogRows(home, `SELECT release_id, count(*)::INTEGER AS n FROM market_events GROUP BY 1 ORDER BY min(day) DESC`)).toEqual(
      wanted.map((release) => ({ release_id: release.id, n: release.rows })),
    );

    // releases[0]'s ID is upper case: its lowercase form is not a release of this service.
    const folded = await rdw(home, ['pull', releases[0]!.id.toLowerCase()]);
    expect(folded.code).toBe(6);
    expect(folded.stderr.trim().split('\n')).toHaveLength(2);
    expect(await catalogRows(home, 'SELECT count(*)::INTEGER AS n FROM releases')).toEqual([{ n: 2 }]);
  });

  it('rdw lock --latest 3 pins the exact IDs, and rdw reproduce reads them back in a fresh home', async () => {
    const first = await newHome();
    const lock = await rdw(first, ['lock', 'study.lock.json', '--latest', '3']);
    expect(lock.code).toBe(0);
    const text = await readFile(path.join(first, 'study.lock.json'), 'utf8');
    const pinned = releases.slice(0, 3);
    for (const release of pinned) expect(text).toContain(`"id": "${release.id}"`);
    expect((await readLock(path.join(first, 'study.lock.json'))).releases.map((release) => release.id).sort()).toEqual(
      pinned.map((release) => release.id).sort(),
    );

    const second = await newHome();
    const copy = path.join(second, 'copied.lock.json');
    await writeFile(copy, text);
    const reproduce = await rdw(second, ['reproduce', 'copied.lock.json']);
    expect(reproduce.code).toBe(0);
    for (const release of pinned) expect(reproduce.stdout).toContain(`OK ${release.id.slice(0, 12)} ${release.day} ${release.version} pulled`);
    expect((await catalogRows(second, 'SELECT id FROM releases')).map((row) => row.id).sort()).toEqual(pinned.map((release) => release.id).sort());
  });

  it('rdw ls names another listed revision of an imported day without calling it newer when the listing gave no generated_at', async () => {
    const home = await newHome();
    const imported = releases[1]!;
    expect((await rdw(home, ['pull', imported.id])).code).toBe(0);
    const revision = { ...sparse(imported), id: `${imported.id.slice(0, 63)}X` };
    service.listing = [revision, ...releases.filter((release) => release !== imported).map(sparse)];
    try {
      expect((await rdw(home, ['releases'])).code).toBe(0);
      const ls = await rdw(home, ['ls', '--full-ids']);
      expect(ls.code).toBe(0);
      const line = ls.stdout.split('\n').find((text) => text.startsWith(imported.id));
      expect(line).toContain('also listed');
      expect(line).toContain(`rdw pull ${revision.id}`);
      expect(line).not.toContain('newer revision');
      // By default the row shows 12 characters and no whole ID (--full-ids gives the pull command).
      const short = (await rdw(home, ['ls'])).stdout.split('\n').find((text) => text.startsWith(imported.id.slice(0, 12)));
      expect(short).toContain(`other revision ${revision.id.slice(0, 12)} listed`);
      expect(short).not.toContain(revision.id);
      expect(short!.length).toBeLessThanOrEqual(100);
      const json = JSON.parse((await rdw(home, ['ls', '--json'])).stdout) as { id: string; newerId: string | null; otherListedId: string | null }[];
      expect(json.find((release) => release.id === imported.id)).toMatchObject({ newerId: null, otherListedId: revision.id });

      // With a generated_at in the listing, the order is known: "newer revision … known".
      const later = { ...sparse(imported), id: `${imported.id.slice(0, 63)}Y`, generated_at: 4_102_444_800 };
      service.listing = [later];
      expect((await rdw(home, ['releases'])).code).toBe(0);
      const after = JSON.parse((await rdw(home, ['ls', '--json'])).stdout) as { id: string; newerId: string | null; otherListedId: string | null }[];
      expect(after.find((release) => release.id === imported.id)).toMatchObject({ newerId: later.id, otherListedId: null });
    } finally {
      service.listing = releases.map(sparse);
    }
  });

  it.each([
    ['too short', 'abc'],
    ['a slash', `${'A'.repeat(63)}/`],
    ['a space', `${'A'.repeat(63)} `],
    ['a percent sign', `${'A'.repeat(61)}%2F`],
  ])('refuses a release ID with %s before any request: exit 2, one sentence', async (_name, bad) => {
    const home = await newHome();
    const before = service.requests.length;
    for (const argv of [['pull', bad], ['lock', 'x.lock.json', bad]]) {
      const run = await rdw(home, argv);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(service.requests.length).toBe(before);
  });

  it('a notebook workbench lists sparse releases (empty cells), and pulls them by their exact IDs', async () => {
    const home = await newHome();
    const workbench = await openWorkbench({ env: { RDW_BASE_URL: service.baseUrl, RDW_API_KEY: mock.keys.desk }, home });
    try {
      const listed = await workbench.client.releases({ limit: 2 });
      expect(listed).toEqual(releases.slice(0, 2).map(sparse));
      const table = textTable(listed.map((release) => ({ day: release.day, version: release.version, rows: release.rows, id: release.id })));
      expect(table.split('\n')[1]!.split(/\s+/)).toEqual([releases[0]!.day, releases[0]!.version, releases[0]!.id]);
      const pulled = await pullReleases(workbench.catalog, workbench.client, listed.map((release) => release.id));
      expect(pulled.failed).toEqual([]);
      expect(pulled.pulled.map((release) => [release.id, release.rows])).toEqual(releases.slice(0, 2).map((release) => [release.id, release.rows]));
    } finally {
      await workbench.close();
    }
  });
});
