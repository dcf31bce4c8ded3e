import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  NO_BUNDLED_SCHEMA_LIMITATION,
  ReleaseArchive,
  ReleaseArchiveOptionError,
  ReleaseNotFoundError,
  lastCheckTime,
} from '../../../src/mock/releases/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { DOWNLOAD_FORMATS, NotFoundError, RECHECKED_DAYS, UsageError, type Release } from '../../../src/contract/index.js';
import { recordingSimulator, smallSimulator } from './small-simulator.js';

const HOUR = 3600;
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
/** sha256 of the bytes ('absent' for undefined): compares files fast and prints readably. */
const digest = (bytes: Uint8Array | undefined) => (bytes ? createHash('sha256').update(bytes).digest('hex') : 'absent');

describe('release archive: publication and revisions', () => {
  const days = RECHECKED_DAYS + 1;
  let simulator: MarketSimulator;
  let archive: ReleaseArchive;
  let before: Release[];
  let beforeTopTwo: Release[];
  let beforeFiles: Map<string, string[]>;
  let published: Release[];

  beforeAll(() => {
    simulator = smallSimulator({ days });
    archive = new ReleaseArchive(simulator);
    before = archive.currentReleases();
    beforeTopTwo = archive.currentReleases(2);
    beforeFiles = new Map(before.map((r) => [r.id, DOWNLOAD_FORMATS.map((format) => digest(archive.file(r.id, format)))]));
    published = archive.advance(3 * HOUR);
  });

  it('lists one current release per covered day, newest day first, as of the latest check', () => {
    expect(before.map((r) => r.day)).toEqual([...simulator.days()].reverse());
    for (const release of before) {
      expect(release.generated_at % HOUR).toBe(0);
      expect(release.generated_at).toBeGreaterThanOrEqual(Date.parse(`${release.day}T00:00:00Z`) / 1000 + 86400);
      expect(release.generated_at).toBeLessThanOrEqual(Math.min(simulator.options.now, lastCheckTime(release.day)));
    }
    expect(beforeTopTwo).toEqual(before.slice(0, 2));
  });

  it('publishes revisions with new IDs for re-checked days only, oldest check first', () => {
    expect(archive.now).toBe(simulator.options.now + 3 * HOUR);
    expect(published.length).toBeGreaterThan(0);
    const recent = new Set(before.slice(0, RECHECKED_DAYS).map((r) => r.day));
    const beforeIds = new Set(before.map((r) => r.id));
    for (const release of published) {
      expect(recent.has(release.day), release.day).toBe(true);
      expect(beforeIds.has(release.id)).toBe(false);
      expect(release.generated_at).toBeGreaterThan(simulator.options.now);
      expect(release.generated_at % HOUR).toBe(0);
    }
    const times = published.map((r) => r.generated_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('records exactly the checks whose content changed, each with the content as of its check time', () => {
    const json = (rows: unknown) => JSON.stringify(rows);
    for (const day of before.slice(0, 2).map((r) => r.day)) {
      const expected: number[] = [];
      for (let check = simulator.options.now + HOUR; check <= archive.now; check += HOUR) {
        if (json(simulator.dayRows(day, check)) !== json(simulator.dayRows(day, check - HOUR))) expected.push(check);
      }
      const revisions = published.filter((r) => r.day === day);
      expect(revisions.map((r) => r.generated_at), day).toEqual(expected);
      for (const revision of revisions) expect(json(archive.rows(revision.id))).toBe(json(simulator.dayRows(day, revision.generated_at)));
    }
  });

  it('never changes days older than the re-check horizon', () => {
    for (const old of before.slice(RECHECKED_DAYS)) {
      expect(archive.currentRelease(old.day)).toEqual(old);
      expect(archive.isSuperseded(old.id)).toBe(false);
    }
  });

  it('keeps superseded revisions retrievable by ID with identical bytes and rows', () => {
    const superseded = before.filter((r) => archive.currentRelease(r.day)!.id !== r.id);
    expect(superseded.length).toBeGreaterThan(0);
    for (const old of superseded) {
      expect(archive.isSuperseded(old.id)).toBe(true);
      expect(archive.release(old.id)).toEqual(old);
      DOWNLOAD_FORMATS.forEach((format, index) => {
        expect(digest(archive.file(old.id, format)), format).toBe(beforeFiles.get(old.id)![index]);
      });
      expect(archive.rows(old.id)).toHaveLength(old.rows);
    }
    const current = archive.currentReleases();
    expect(current.map((r) => r.day)).toEqual(before.map((r) => r.day));
    for (const release of current) expect(archive.isSuperseded(release.id)).toBe(false);
  });

  it('agrees with an archive started at the later clock: same IDs and same generated_at', () => {
    const later = new ReleaseArchive(new MarketSimulator({ ...simulator.options, now: simulator.options.now + 3 * HOUR }));
    expect(later.currentReleases()).toEqual(archive.currentReleases());
  });

  it('publishes nothing new when advanced by less than an hour past the last check', () => {
    const fresh = new ReleaseArchive(smallSimulator({ days: 2 }));
    fresh.currentReleases();
    expect(fresh.advance(HOUR - 1)).toEqual([]);
    expect(fresh.advance(0)).toEqual([]);
  });

  it('reports its coverage for the paid catalog', () => {
    const coverage = archive.coverage();
    expect(coverage).toEqual({
      first_day: simulator.days()[0],
      last_day: simulator.days().at(-1),
      symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT'],
      days,
      rechecked_days: RECHECKED_DAYS,
      latest_generated_at: Math.max(...archive.currentReleases().map((r) => r.generated_at)),
    });
  });
});

describe('release archive: laziness, cache and determinism', () => {
  it('generates nothing at construction and only the asked day on demand', () => {
    const simulator = recordingSimulator(smallSimulator({ days: 5 }));
    const archive = new ReleaseArchive(simulator);
    expect(simulator.calls).toEqual([]);
    const [, second] = simulator.days().reverse();
    archive.currentRelease(second!);
    expect(new Set(simulator.calls.map((call) => call.split('@')[0]))).toEqual(new Set([second]));
    simulator.calls.length = 0;
    archive.currentReleases(2);
    expect(new Set(simulator.calls.map((call) => call.split('@')[0]))).toEqual(new Set([simulator.days().at(-1)]));
    simulator.calls.length = 0;
    expect(archive.release('0'.repeat(64))).toBeUndefined();
    expect(archive.file('0'.repeat(64), 'csv')).toBeUndefined();
    expect(archive.currentRelease('1999-01-01')).toBeUndefined();
    expect(simulator.calls).toEqual([]);
  });

  it('regenerates evicted files byte-identical', () => {
    const cached = new ReleaseArchive(smallSimulator({ days: 2 }));
    const uncached = new ReleaseArchive(smallSimulator({ days: 2 }), { cacheBytes: 0 });
    const [release] = uncached.currentReleases(1);
    expect(release).toEqual(cached.currentReleases(1)[0]);
    for (const format of DOWNLOAD_FORMATS) {
      const first = digest(uncached.file(release!.id, format));
      expect(first, format).not.toBe('absent');
      expect(digest(uncached.file(release!.id, format)), format).toBe(first);
      expect(digest(cached.file(release!.id, format)), format).toBe(first);
    }
    expect(uncached.rows(release!.id)).toEqual(cached.rows(release!.id));
  });

  it('gives byte-identical files and the same IDs for the same seed and clock, other IDs for another seed', () => {
    const a = new ReleaseArchive(smallSimulator({ days: 2 }));
    const b = new ReleaseArchive(smallSimulator({ days: 2 }));
    const c = new ReleaseArchive(smallSimulator({ days: 2, seed: 2 }));
    const ids = a.currentReleases().map((r) => r.id);
    expect(b.currentReleases().map((r) => r.id)).toEqual(ids);
    for (const id of ids) expect(text(b.file(id, 'json'))).toBe(text(a.file(id, 'json')));
    expect(c.currentReleases().map((r) => r.id).filter((id) => ids.includes(id))).toEqual([]);
  });

  it('bundles no schema for days before schemaSince', () => {
    const probe = smallSimulator({ days: 3 });
    const [first, second, third] = probe.days();
    const archive = new ReleaseArchive(smallSimulator({ days: 3, schemaSince: second! }));
    const old = archive.currentRelease(first!)!;
    expect(old.files.schema).toBeUndefined();
    expect(Object.keys(old.files)).toEqual(['json', 'csv', 'parquet']);
    expect(archive.file(old.id, 'schema')).toBeUndefined();
    expect(old.limitations).toContain(NO_BUNDLED_SCHEMA_LIMITATION);
    expect(Object.keys(JSON.parse(text(archive.file(old.id, 'json'))).release.files)).toEqual(['csv', 'parquet']);
    expect(JSON.parse(text(archive.file(old.id, 'manifest'))).files.schema).toBeUndefined();
    for (const day of [second!, third!]) {
      const release = archive.currentRelease(day)!;
      expect(release.files.schema).toBeDefined();
      expect(archive.file(release.id, 'schema')).toBeDefined();
      expect(release.limitations).not.toContain(NO_BUNDLED_SCHEMA_LIMITATION);
    }
  });
});

describe('release archive: bad input', () => {
  it.each([[-1], [1.5], [Number.NaN]])('refuses cacheBytes %s naming the option', (cacheBytes) => {
    const error = catching(() => new ReleaseArchive(smallSimulator(), { cacheBytes }));
    expect(error).toBeInstanceOf(ReleaseArchiveOptionError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as ReleaseArchiveOptionError).code).toBe('RDW_RELEASE_ARCHIVE_OPTION');
    expect((error as ReleaseArchiveOptionError).option).toBe('cacheBytes');
  });

  it.each([[-1], [Number.POSITIVE_INFINITY]])('refuses to advance by %s seconds', (seconds) => {
    const archive = new ReleaseArchive(smallSimulator());
    const now = archive.now;
    const error = catching(() => archive.advance(seconds));
    expect((error as ReleaseArchiveOptionError).code).toBe('RDW_RELEASE_ARCHIVE_OPTION');
    expect((error as ReleaseArchiveOptionError).option).toBe('seconds');
    expect(archive.now).toBe(now);
  });

  it('refuses rows of an unknown release with a not-found error', () => {
    const error = catching(() => new ReleaseArchive(smallSimulator()).rows('f'.repeat(64)));
    expect(error).toBeInstanceOf(ReleaseNotFoundError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as ReleaseNotFoundError).code).toBe('RDW_RELEASE_NOT_FOUND');
  });
});

function catching(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('release archive: a new day', () => {
  it('publishes a day for the first time at the midnight that ends it and lists it first', () => {
    const simulator = new MarketSimulator({ seed: 1, days: 2, now: '2026-11-01T22:30:00Z' });
    const archive = new ReleaseArchive(simulator);
    expect(archive.currentReleases().map((r) => r.day)).toEqual(['2026-10-31', '2026-10-30']);
    const published = archive.advance(2 * HOUR);
    const midnight = Date.parse('2026-11-02T00:00:00Z') / 1000;
    const first = published.find((r) => r.day === '2026-11-01');
    expect(first?.generated_at).toBe(midnight);
    expect(archive.currentReleases().map((r) => r.day)).toEqual(['2026-11-01', '2026-10-31', '2026-10-30']);
    expect(archive.coverage()).toMatchObject({ first_day: '2026-10-30', last_day: '2026-11-01', days: 3 });
    expect(archive.rows(first!.id).every((row) => row.sample_time < midnight && row.sample_time >= midnight - 86400)).toBe(true);
  });
});

describe('release archive: a slow listing says how far it is', () => {
  it('tells onSlowBuild the days built of those asked once the build has taken slowBuildAfterMs, and not when it has not', () => {
    const told: { built: number; total: number }[] = [];
    const archive = new ReleaseArchive(smallSimulator({ days: 4 }), { onSlowBuild: ({ built, total }) => void told.push({ built, total }), slowBuildAfterMs: 0 });
    const releases = archive.currentReleases(3);
    expect(releases).toHaveLength(3);
    // Told after the first day (already past 0 ms), then not again within two seconds; never once all are built.
    expect(told).toEqual([{ built: 1, total: 3 }]);
    const quiet: unknown[] = [];
    new ReleaseArchive(smallSimulator({ days: 4 }), { onSlowBuild: (progress) => void quiet.push(progress) }).currentReleases(3);
    expect(quiet).toEqual([]);
  });

  it('buildCurrentReleasesUntil builds newest first until the release turns up, as one build: one total (every day) for its notice', () => {
    const newest = new ReleaseArchive(smallSimulator({ days: 5 })).currentReleases(5);
    const told: { built: number; total: number }[] = [];
    const archive = new ReleaseArchive(smallSimulator({ days: 5 }), { onSlowBuild: ({ built, total }) => void told.push({ built, total }), slowBuildAfterMs: 0 });
    // The third newest day's release: found after three days, the older two not built.
    const wanted = newest[2]!.id;
    expect(archive.buildCurrentReleasesUntil(() => archive.release(wanted) !== undefined)).toBe(true);
    expect(newest.map((release) => archive.release(release.id) !== undefined)).toEqual([true, true, true, false, false]);
    // Said once, of all the days it may build (a search in growing batches said "of 2", then "of 4", each restarted).
    expect(told).toEqual([{ built: 1, total: 5 }]);
    // An ID no day publishes: every day built, false.
    expect(archive.buildCurrentReleasesUntil(() => false)).toBe(false);
    expect(newest.every((release) => archive.release(release.id) !== undefined)).toBe(true);
  });

  it('buildCurrentReleases hands the event loop back between days, builds what currentReleases returns, and stops when no longer wanted', async () => {
    const newest = new ReleaseArchive(smallSimulator({ days: 4 })).currentReleases(3);
    const archive = new ReleaseArchive(smallSimulator({ days: 4 }), { buildSliceMs: 0 });
    const building = archive.buildCurrentReleases(3);
    // A callback queued now runs while the build is under way (a blocking build would have built all three): the
    // build's own first hand-back was queued before it, and its continuation built the second day.
    const builtMeanwhile = await new Promise<boolean[]>((resolve) => setImmediate(() => resolve(newest.map((release) => archive.release(release.id) !== undefined))));
    expect(builtMeanwhile).toEqual([true, true, false]);
    expect(await building).toBe(true);
    expect(archive.currentReleases(3)).toEqual(newest);
    // Not wanted after the first slice: the rest is not built.
    const stopped = new ReleaseArchive(smallSimulator({ days: 4 }), { buildSliceMs: 0 });
    expect(await stopped.buildCurrentReleases(3, () => false)).toBe(false);
    expect(newest.map((release) => stopped.release(release.id) !== undefined)).toEqual([true, false, false]);
  });
});
