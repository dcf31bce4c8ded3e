// The per-scope document cache: a copy is fresh for the document's own refresh_seconds, else the
// dataset's, else 60 s; a longer maxAgeSeconds extends it, a shorter one never shortens it.

import { describe, expect, it } from 'vitest';
import type { ResearchSnapshot } from '../../src/client/index.js';
import { DocumentCache, UNDECLARED_REFRESH_SECONDS } from '../../src/client/document-cache.js';
import { fakeClock } from '../support/fake-clock.js';

/** Loads `body` (cast: the cache keeps any JSON shape) and counts the loads. */
function loader(body: unknown) {
  const load = async () => {
    load.count += 1;
    return body as ResearchSnapshot;
  };
  load.count = 0;
  return load;
}

describe('DocumentCache.document', () => {
  it.each<[string, unknown, number | undefined, number | undefined, number]>([
    // name, body, dataset's refresh (s), maxAgeSeconds, seconds the copy stays fresh
    ['its own refresh_seconds', { refresh_seconds: 30 }, 300, undefined, 30],
    ['the dataset refresh when the body declares none', { items: [] }, 300, undefined, 300],
    ['the undeclared default without either', ['an', 'array'], undefined, undefined, UNDECLARED_REFRESH_SECONDS],
    ['a negative refresh_seconds is not a declaration', { refresh_seconds: -1 }, 120, undefined, 120],
    ['a longer maxAgeSeconds extends it', { refresh_seconds: 30 }, undefined, 90, 90],
    ['a shorter maxAgeSeconds never shortens it', { refresh_seconds: 30 }, undefined, 5, 30],
  ])('stays fresh for %s', async (_name, body, known, maxAge, freshSeconds) => {
    const clock = fakeClock();
    const cache = new DocumentCache(clock);
    const load = loader(body);
    expect(await cache.document('d', known, load, maxAge)).toBe(body);
    await clock.sleep(freshSeconds * 1000 - 1);
    await cache.document('d', known, load, maxAge);
    expect(load.count).toBe(1);
    await clock.sleep(1);
    await cache.document('d', known, load, maxAge);
    expect(load.count).toBe(2);
  });

  it('keeps each name its own document', async () => {
    const cache = new DocumentCache(fakeClock());
    const a = loader({ name: 'a' });
    const b = loader({ name: 'b' });
    expect(await cache.document('a', 60, a)).toEqual({ name: 'a' });
    expect(await cache.document('b', 60, b)).toEqual({ name: 'b' });
    expect(await cache.document('a', 60, a)).toEqual({ name: 'a' });
    expect([a.count, b.count]).toEqual([1, 1]);
  });
});

describe('DocumentCache.table', () => {
  it('reloads a table once it is refreshSeconds old', async () => {
    const clock = fakeClock();
    const cache = new DocumentCache(clock);
    let loads = 0;
    const load = async () => ({ columns: [], rows: [], n: (loads += 1) }) as never;
    await cache.table('t', 10, load);
    await clock.sleep(9_999);
    await cache.table('t', 10, load);
    expect(loads).toBe(1);
    await clock.sleep(1);
    await cache.table('t', 10, load);
    expect(loads).toBe(2);
  });
});
