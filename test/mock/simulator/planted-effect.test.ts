// The planted ground truth is visible to a plain SQL event-vs-control comparison in DuckDB over 120 days of rows.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator, PLANTED_EFFECTS } from '../../../src/mock/simulator/index.js';
import { makeTemporaryFolder, removeTree } from '../../../src/base/index.js';

/** Effect of a family (and direction, or both pooled) in bps, with a 95% normal half-width, from DuckDB. */
interface Effect {
  event_kind: string;
  direction: string;
  n: number;
  effect_bps: number;
  half_width_bps: number;
}

const COLUMNS = ['sample_type', 'symbol', 'event_kind', 'direction', 'status_1h', 'return_pct_1h', 'direction_adjusted_return_pct_1h'];
let dir = '';
let effects: Effect[] = [];

// One query: per family and direction (and 'both'), mean direction-adjusted 1h return of events minus the
// mean control 1h return signed the same way; the half-width combines both standard errors.
const EFFECT_SQL = `
WITH complete AS (SELECT * FROM read_json_auto(?) WHERE status_1h = 'complete'),
control AS (
  SELECT avg(return_pct_1h) AS mean, var_samp(return_pct_1h) AS var, count(*) AS n FROM complete WHERE sample_type = 'control'
),
events AS (
  SELECT event_kind, coalesce(direction, 'both') AS direction,
         avg(direction_adjusted_return_pct_1h) AS mean, var_samp(direction_adjusted_return_pct_1h) AS var, count(*) AS n,
         avg(CASE direction WHEN 'up' THEN 1 ELSE -1 END) AS sign
  FROM complete WHERE sample_type = 'event'
  GROUP BY GROUPING SETS ((event_kind, direction), (event_kind))
)
SELECT e.event_kind, e.direction, e.n::INTEGER AS n,
       100 * (e.mean - e.sign * c.mean) AS effect_bps,
       100 * 1.96 * sqrt(e.var / e.n + e.sign * e.sign * c.var / c.n) AS half_width_bps
FROM events e, control c ORDER BY ALL`;

beforeAll(async () => {
  const simulator = new MarketSimulator({ days: 120 });
  const asOf = simulator.options.now + 86_400;
  const lines: string[] = [];
  for (const day of simulator.days()) {
    for (const row of simulator.dayRows(day, asOf)) {
      const record = row as unknown as Record<string, unknown>;
      lines.push(JSON.stringify(Object.fromEntries(COLUMNS.map((name) => [name, record[name]]))));
    }
  }
  dir = await makeTemporaryFolder('rdw-simulator-');
  const path = join(dir, 'rows.ndjson');
  await writeFile(path, `${lines.join('\n')}\n`);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(EFFECT_SQL.replace('?', `'${path.replaceAll("'", "''")}'`));
    effects = reader.getRowObjectsJS() as unknown as Effect[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}, 180_000);

afterAll(async () => {
  if (dir) await removeTree(dir);
});

const effect = (kind: string, direction: string): Effect => {
  const found = effects.find((row) => row.event_kind === kind && row.direction === direction);
  if (!found) throw new Error(`no ${kind}/${direction} effect`);
  return found;
};

describe('planted effect (120 days, seed 1)', () => {
  const breakout = PLANTED_EFFECTS.find((planted) => planted.eventKind === 'breakout');

  it('documents breakout as the family with a 25 bps 1h effect and volume_spike as null', () => {
    expect(breakout).toMatchObject({ window: '1h', effectBps: 25 });
    expect(PLANTED_EFFECTS.find((planted) => planted.eventKind === 'volume_spike')?.effectBps).toBe(0);
  });

  it.each(['up', 'down'])('recovers the breakout %s effect: near 25 bps and its CI excludes 0', (direction) => {
    const measured = effect('breakout', direction);
    expect(measured.n).toBeGreaterThan(2000);
    expect(measured.effect_bps).toBeGreaterThan(18);
    expect(measured.effect_bps).toBeLessThan(32);
    expect(measured.effect_bps - measured.half_width_bps).toBeGreaterThan(0);
  });

  it('finds no effect for the null family: the volume_spike CI covers 0', () => {
    const measured = effect('volume_spike', 'both');
    expect(measured.n).toBeGreaterThan(2000);
    expect(Math.abs(measured.effect_bps)).toBeLessThan(measured.half_width_bps);
  });
});
