// Benchmark: calibration of rdw's own statistics on simulated markets whose truth is known (issue 28 item 2).
// Run: node --import tsx test/bench/calibration.bench.ts [--quick] [--explore] [--markets N] [--truth-markets M]
//   [--days D] [--lengths 60,180] [--cache DIR] [--out FILE] [--write]
// --explore: the event-study interval's coverage from per-day totals under a grid of block-jackknife constants
// and for the day bootstrap before issue 28 (support/calibration-explore.ts).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exploreTable, runExplore } from './support/calibration-explore-run.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    explore: { type: 'boolean', default: false },
    markets: { type: 'string' },
    'truth-markets': { type: 'string' },
    days: { type: 'string' },
    lengths: { type: 'string' },
    cache: { type: 'string' },
    out: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

const seedRange = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function explore(): Promise<void> {
  const markets = Number(values.markets ?? (values.quick ? 3 : 50));
  const truthMarkets = Number(values['truth-markets'] ?? (values.quick ? 3 : 50));
  const days = Number(values.days ?? (values.quick ? 60 : 180));
  const lengths = (values.lengths ?? (values.quick ? '60' : '60,180')).split(',').map(Number);
  const result = await runExplore({ seeds: seedRange(1001, markets), truthSeeds: seedRange(9001, truthMarkets), days, lengths, cacheDir: values.cache, log });
  log(exploreTable(result));
  if (values.out) {
    await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
    await writeFile(values.out, `${JSON.stringify(result, null, 1)}\n`);
  }
  console.log(JSON.stringify({ benchmark: 'calibration', mode: 'explore', ...result }));
}

if (values.explore) await explore();
