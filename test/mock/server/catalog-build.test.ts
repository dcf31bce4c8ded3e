// The paid /catalog of a new mock builds the re-checked days (its freshness reads their generated_at) the way the
// listing builds its days: in slices, said when slow, stopped for a client that has gone away.

import { afterEach, describe, expect, it } from 'vitest';
import { RECHECKED_DAYS } from '../../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { get } from './http.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('paid /catalog of a new mock', () => {
  it('hands the event loop back while it builds the re-checked days, and its freshness is theirs', async () => {
    // It had built them in one piece (about 2.8 s of CPU on a new home): the embedded mock shares the command's
    // process, so the first command in a new home sat on a blank screen and heard no Ctrl-C until it was done.
    server = await startMockServer({ days: 21 });
    const ticks: number[] = [];
    const timer = setInterval(() => void ticks.push(performance.now()), 5);
    const started = performance.now();
    let answer;
    try {
      answer = await get(`${server.baseUrl}/catalog`, server.keys.desk);
    } finally {
      clearInterval(timer);
    }
    const took = performance.now() - started;
    expect(answer.status).toBe(200);
    // One day's build at a time, never the nine at once: the 5 ms timer runs between the days' slices. Counted, not
    // timed against the whole (a ratio of block to total failed once on a loaded machine): built in one piece, the
    // timer gets in only around the request's few quick steps.
    expect(ticks.length, `${ticks.length} timer ticks in ${took.toFixed(0)} ms`).toBeGreaterThanOrEqual(RECHECKED_DAYS);
    const freshness = (answer.json as { datasets: { freshness: { latest_generated_at: number; rechecked_days: number } }[] }).datasets[0]!.freshness;
    expect(freshness.rechecked_days).toBe(RECHECKED_DAYS);
    const listed = (await get(`${server.baseUrl}/releases?limit=${RECHECKED_DAYS}`, server.keys.desk)).json as { items: { generated_at: number }[] };
    expect(freshness.latest_generated_at).toBe(Math.max(...listed.items.map((release) => release.generated_at)));
  });
});
