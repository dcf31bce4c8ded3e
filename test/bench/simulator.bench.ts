// Benchmark of the market simulator: rows per second for a 120-day range (plain script, not vitest).
// Run: npx tsx test/bench/simulator.bench.ts [days]

import { MarketSimulator } from '../../src/mock/simulator/index.js';

const days = Number(process.argv[2] ?? 120);
const simulator = new MarketSimulator({ days });
const asOf = simulator.options.now + 10 * 86_400;

// 1. Cold: every day generated once, rows with 7d outcomes.
let started = performance.now();
let rows = 0;
for (const day of simulator.days()) rows += simulator.dayRows(day, asOf).length;
const coldSeconds = (performance.now() - started) / 1000;

// 2. Warm: the nine most recent days again (what an hourly re-check does), served from the caches.
started = performance.now();
let warmRows = 0;
for (const day of simulator.days().slice(-9)) warmRows += simulator.dayRows(day, asOf + 3600).length;
const warmSeconds = (performance.now() - started) / 1000;

// 3. Laziness: one late day of a 1100-day range.
const late = new MarketSimulator({ days: 1100 });
started = performance.now();
late.dayRows(late.options.lastDay, late.options.now + 86_400);
const lateSeconds = (performance.now() - started) / 1000;

const result = {
  days,
  rows,
  rowsPerDay: Math.round(rows / days),
  coldSeconds: Number(coldSeconds.toFixed(2)),
  coldRowsPerSecond: Math.round(rows / coldSeconds),
  warmRecheckRows: warmRows,
  warmRecheckSeconds: Number(warmSeconds.toFixed(3)),
  warmRowsPerSecond: Math.round(warmRows / warmSeconds),
  oneDayOf1100Seconds: Number(lateSeconds.toFixed(3)),
  oneDayOf1100Generated: late.generationCounts(),
};
console.table([
  { measure: `cold, ${days} days`, rows, seconds: result.coldSeconds, rowsPerSecond: result.coldRowsPerSecond },
  { measure: 'warm re-check, 9 days', rows: warmRows, seconds: result.warmRecheckSeconds, rowsPerSecond: result.warmRowsPerSecond },
  { measure: 'last day of 1100', rows: null, seconds: result.oneDayOf1100Seconds, rowsPerSecond: null },
]);
console.log(JSON.stringify(result));
