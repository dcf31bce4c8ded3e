import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureOutput } from '../support/capture-output.js';
import { createTempHome } from '../support/temp-home.js';
import { startOddDocumentsServer, type FixedAnswer, type OddDocumentsServer } from '../support/odd-documents-server.js';

// A service that chose its own shapes for the free and public documents (spec: "Fields of Research
// datasets other than the market-breadth example: not shown"). rdw shows each as what it is: exit 0.
const KEY = `rdw_sk_${'A'.repeat(32)}`;
const T = 1_793_491_200; // 2026-11-01T00:00:00Z

const LIVE: Record<string, unknown> = {
  'rows-envelope': { key: 'rows-envelope', generated_at: T, updated: T - 60, stale: true, items: [{ symbol: 'BTCUSDT', price: 1 }, { symbol: 'ETHUSDT', spread: 0.5 }] },
  'rows-limitation': { key: 'rows-limitation', generated_at: T, items: [{ symbol: 'BTCUSDT' }], source: 'spotex', summary: { advancing: 1 }, limitation: ['One venue only.'] },
  'items-object': { key: 'items-object', generated_at: T, stale: false, items: { BTCUSDT: { price: 1 } }, summary: 'calm' },
  'empty-items': { key: 'empty-items', generated_at: T, updated: null, items: [] },
  'odd-times': { key: 'odd-times', generated_at: '2026-11-01T00:00:00Z', updated: 1e20, stale: 'unknown', items: [{ a: 1 }] },
  'no-envelope': { data: [{ symbol: 'BTCUSDT' }], meta: { source: 'x' } },
  'array-of-rows': [{ symbol: 'BTCUSDT', price: 1 }, { symbol: 'SOLUSDT', price: null, note: 'halted' }],
  'nested-rows': {
    page: 'nested-rows',
    data: {
      asOf: '2026-10-31T23:55:00Z',
      rows: [
        { symbol: 'BTCUSDT', price: 65446.29, change_24h: 2.4678, volume_24h: 2695318334.94 },
        { symbol: 'ETHUSDT', price: 2444.02, change_24h: 5.5071, volume_24h: 1565126856.87 },
        { symbol: 'SOLUSDT', price: 121.642, change_24h: 3.6716 },
      ],
      source: { name: 'spotex', region: 'global', delay_seconds: 0, note: 'a source object long enough to lay out' },
    },
  },
  // A service's text holding a terminal's escape codes (clear screen, red, window title, bell) and a line break.
  escapes: {
    key: 'escapes',
    generated_at: T,
    source: 'spot\u001b[2J\u001b[31mRED',
    limitation: ['one\u0007 venue only, a long enough sentence to be laid out one per line below its field name'],
    items: [{ 'sym\u001b]0;pwned\u0007': 'BTC\nUSDT', version: 'mev\u001b[2J-4' }],
  },
  'array-of-scalars': [1, 'two', null],
  'string-body': 'maintenance until 02:00 UTC',
  'null-body': null,
  'number-body': 42,
};

const answers = new Map<string, FixedAnswer>([
  ...Object.entries(LIVE).map(([key, json]) => [`/api/research/live/${key}`, { json }] as [string, FixedAnswer]),
  ['/api/research/live/rows-envelope.csv', { text: 'symbol,price,extra\nBTCUSDT,1,x\nETHUSDT,,\n', type: 'text/csv' }],
  ['/api/research/live/header-only.csv', { text: 'symbol,price\n', type: 'text/csv' }],
  ['/v1/research/catalog', { json: { scope: 'current snapshots', datasets: [{ id: 'breadth', json_url: '/v1/research/breadth' }, { id: 'flows' }] } }],
  ['/v1/research/breadth', { json: [{ symbol: 'BTCUSDT', price: 1 }] }],
  ['/v1/research/flows', { json: { key: 'flows', generated_at: T, stale: true, items: 'see csv' } }],
]);

describe('rdw live and rdw research show documents of any shape', () => {
  let server: OddDocumentsServer;
  let home: Awaited<ReturnType<typeof createTempHome>>;
  beforeAll(async () => {
    server = await startOddDocumentsServer(answers);
    home = await createTempHome();
  });
  afterAll(async () => {
    await server.close();
    await home.remove();
  });

  const run = async (...argv: string[]) => {
    const out = captureOutput();
    const err = captureOutput();
    const env = { RDW_BASE_URL: server.baseUrl, RDW_SITE_URL: server.siteUrl, RDW_API_KEY: KEY };
    const code = await runCli([...argv, '--home', home.home], { env, stdout: out.output, stderr: err.output });
    return { code, out: out.text(), err: err.text() };
  };

  it.each([
    ['rows-envelope', ['rows-envelope: observed 2026-10-31T23:59:00Z, generated 2026-11-01T00:00:00Z — STALE', 'spread', '(2 rows)']],
    ['rows-limitation', ['(1 row)\nsource: spotex\nsummary: {"advancing":1}\nlimitation: ["One venue only."]\n']],
    ['items-object', ['items-object: generated 2026-11-01T00:00:00Z\n', '  items: {"BTCUSDT":{"price":1}}', '  summary: calm']],
    ['empty-items', ['empty-items: observed none, generated 2026-11-01T00:00:00Z', '(no items)']],
    ['odd-times', ['observed 100000000000000000000, generated 2026-11-01T00:00:00Z — stale: unknown', '(1 row)']],
    ['no-envelope', ['no-envelope: a JSON object, not the documented envelope', '  data: [{"symbol":"BTCUSDT"}]', '  meta: {"source":"x"}']],
    ['array-of-rows', ['a JSON array of 2 elements', 'note', 'halted', '(2 rows)']],
    [
      'nested-rows',
      ['  page: nested-rows\n  data:\n    asOf: 2026-10-31T23:55:00Z\n    rows:\n      symbol   ', '      (3 rows)\n', '    source:\n      name: spotex\n'],
    ],
    ['array-of-scalars', ['a JSON array of 3 elements', '"two"']],
    ['string-body', ['a JSON string', '"maintenance until 02:00 UTC"']],
    ['null-body', ['JSON null', 'null']],
    ['number-body', ['a JSON number', '42']],
  ])('shows the live page %s as what it is, exit 0', async (page, expected) => {
    const result = await run('live', page);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    for (const text of expected) expect(result.out).toContain(text);
  });

  it("never sends a service's control characters to the terminal: escape codes, bells and line breaks shown escaped", async () => {
    const result = await run('live', 'escapes');
    expect(result.code).toBe(0);
    expect(result.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(result.out).toContain('source: spot\\u001b[2J\\u001b[31mRED');
    expect(result.out).toContain('BTC\\nUSDT');
    expect(result.out).toContain('mev\\u001b[2J-4');
    expect(result.out).toContain('sym\\u001b]0;pwned\\u0007');
    expect(result.out).toContain('one\\u0007 venue only');
  });

  it('lays out a long nested object as fields and a long list of objects as a table, not as one line of JSON', async () => {
    const result = await run('live', 'nested-rows');
    expect(result.code).toBe(0);
    const lines = result.out.split('\n');
    expect(lines.filter((line) => line.includes('{"'))).toEqual([]);
    const sol = lines.find((line) => line.trimStart().startsWith('SOLUSDT'))!;
    expect(sol.trimEnd()).toMatch(/^ {6}SOLUSDT\s+121\.642\s+3\.6716$/); // volume_24h empty, never invented
  });

  it('prints every shape exactly as received with --json', async () => {
    for (const [page, body] of Object.entries(LIVE)) {
      const result = await run('live', page, '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toEqual(body);
    }
  });

  it('keeps a row field that only some rows carry empty in the others, never invented', async () => {
    const result = await run('live', 'rows-envelope');
    const lines = result.out.split('\n');
    const header = lines[1]!;
    expect(header.split(/\s+/)).toEqual(['symbol', 'price', 'spread']);
    expect(lines[3]!.trimEnd()).toMatch(/^BTCUSDT\s+1$/);
  });

  it('prints live CSV header first, whatever its columns, and a header with no rows', async () => {
    const rows = await run('live', 'rows-envelope', '--csv');
    expect(rows.code).toBe(0);
    expect(rows.out).toBe('symbol,price,extra\nBTCUSDT,1,x\nETHUSDT,,\n');
    const empty = await run('live', 'header-only', '--csv');
    expect(empty.code).toBe(0);
    expect(empty.out).toBe('symbol,price\n');
  });

  it.each([
    [{ keys: 5, rpm: 300, daily_bytes: 5 * 1024 ** 3 }, 'Limits: 5 key slots, 300 requests/min, 5 GiB of paid downloads per UTC day.'],
    [{ keys: 1, rpm: 60, daily_bytes: 0 }, 'Limits: 1 key slot, 60 requests/min, no paid download bytes.'],
    [{ rpm: 60, daily_bytes: null }, 'Limits: keys not stated, 60 requests/min, daily_bytes not stated.'],
  ])('states the Research catalog limits %j in words', async (limits, expected) => {
    const datasets = [
      { id: 'breadth', calculation_version: 'b-2', json_url: '/v1/research/breadth', csv_url: '/v1/research/breadth/csv' },
      { id: 'flows', calculation_version: 'f-1', json_url: '/v1/research/flows', csv_url: '/v1/research/flows/csv' },
    ];
    const own = await startOddDocumentsServer(new Map([['/v1/research/catalog', { json: { scope: 'snapshots', datasets, limits } }]]));
    try {
      const out = captureOutput();
      const env = { RDW_BASE_URL: own.baseUrl, RDW_API_KEY: KEY };
      expect(await runCli(['research', 'catalog', '--home', home.home], { env, stdout: out.output })).toBe(0);
      // Each CSV path is its json path + /csv: said once below the table instead of a column.
      expect(out.text()).toMatch(/^snapshots\n\nid +calculation_version +json\n/);
      expect(out.text()).toContain("(2 rows)\nEach dataset's CSV is at its json path + /csv");
      expect(out.text().endsWith(`\n\n${expected}\n`)).toBe(true);
      expect(out.text()).not.toMatch(/\n\n\n/);
    } finally {
      await own.close();
    }
  });

  it('shows a Research catalog without limits and a snapshot that is an array or has items as text', async () => {
    const catalog = await run('research', 'catalog');
    expect(catalog.code).toBe(0);
    expect(catalog.out).toContain('current snapshots');
    expect(catalog.out).toMatch(/id\s+json\n/);
    expect(catalog.out).toContain('Limits: not stated by the service');
    const array = await run('research', 'get', 'breadth');
    expect(array.code).toBe(0);
    expect(array.out).toContain('breadth: a JSON array of 1 element,');
    expect(array.out).toMatch(/BTCUSDT\s+1/);
    const text = await run('research', 'get', 'flows');
    expect(text.code).toBe(0);
    expect(text.out).toContain('flows: generated 2026-11-01T00:00:00Z — STALE');
    expect(text.out).toContain('  items: see csv');
  });
});
