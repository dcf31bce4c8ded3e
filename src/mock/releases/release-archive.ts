// The paid Market Events archive: daily releases, hourly re-checks of recent days, revisions by content,
// and byte-bounded lazy file generation (spec "Release", Freshness rule 3; DESIGN.md 3).

import { RECHECK_INTERVAL_SECONDS, SYMBOLS, type DownloadFormat, type MarketEventRow, type Release } from '../../contract/index.js';
import { BoundedCache, sha256Hex } from '../../base/index.js';
import { buildRelease, type ReleaseBundle } from './build-release.js';
import { DAY_SECONDS, asOfTime, dayEnd, dayOf, firstCheckSeeing, isRechecked, lastCheckTime, latestCheckTime } from './check-times.js';
import { messages } from './messages.js';
import type { KnownRevisions } from './known-revisions.js';
import { freezeRows, orderedRows } from './ordered-row.js';
import { releaseCsv } from './release-csv.js';
import { ReleaseArchiveOptionError, ReleaseNotFoundError, ReleaseRegenerationError } from './release-errors.js';
import type { ReleaseSimulator } from './release-simulator.js';

export interface ReleaseArchiveOptions {
  /** Bytes of generated files and rows kept in memory (LRU); 0 keeps nothing. Default 256 MiB. */
  cacheBytes?: number;
  /**
   * Told while currentReleases (or buildCurrentReleases) builds days' files and has taken over a second, then every
   * two seconds: the days built of those asked (the work is this process's, so its caller cannot time it). Default: none.
   */
  onSlowBuild?: (progress: BuildProgress) => void;
  /** Milliseconds of building after which onSlowBuild is first told. Default 1000 (every wait over a second is said). */
  slowBuildAfterMs?: number;
  /** Milliseconds buildCurrentReleases builds before it hands the event loop back. Default 20 (a day takes ~50 ms). */
  buildSliceMs?: number;
  /**
   * Revisions an earlier run of the same code and simulator options published: a current revision found there is
   * listed without simulating or building its day (its files are built when asked, checked against its digests), and
   * every current revision built is recorded there. Default: none.
   */
  knownRevisions?: KnownRevisions;
}

/** How far a slow currentReleases is: days built (or found built) of the days asked, and seconds so far. */
export interface BuildProgress {
  readonly built: number;
  readonly total: number;
  readonly seconds: number;
}

/** A build is said again (onSlowBuild) every SLOW_BUILD_REPEAT_MS after the first time. */
const SLOW_BUILD_REPEAT_MS = 2000;

export interface ResolvedReleaseArchiveOptions {
  cacheBytes: number;
}

/** Validates archive options and applies defaults. */
export function resolveReleaseArchiveOptions(options: ReleaseArchiveOptions = {}): ResolvedReleaseArchiveOptions {
  const cacheBytes = options.cacheBytes ?? 256 * 1024 * 1024;
  if (!Number.isSafeInteger(cacheBytes) || cacheBytes < 0) {
    throw new ReleaseArchiveOptionError(messages.archiveOption('cacheBytes', cacheBytes, 'an integer >= 0'), 'cacheBytes');
  }
  return { cacheBytes };
}

/** Coverage summary of the archive for the paid `/catalog`. */
export interface ArchiveCoverage {
  first_day: string;
  last_day: string;
  symbols: string[];
  /** Number of covered days (one current release each). */
  days: number;
  /** Covered days still re-checked hourly. */
  rechecked_days: number;
  /** Newest `generated_at` of the current releases (UTC Unix seconds); null without days. */
  latest_generated_at: number | null;
}

/** A published revision: its release object and the check time its content is regenerated from (= generated_at). */
interface Revision {
  release: Release;
  asOf: number;
}

/**
 * The release archive of one simulator. Day D is first published at D+1 00:00 UTC; the nine most recent
 * days are re-checked on every hour; a check whose content differs publishes a revision with a new ID.
 * A revision's `generated_at` is the first check time that saw its content, so one ID always has one
 * manifest, whatever clock the archive started at. Everything is generated lazily and cached.
 */
export class ReleaseArchive {
  readonly #simulator: ReleaseSimulator;
  readonly #cache: BoundedCache<string, Uint8Array | readonly MarketEventRow[]>;
  readonly #onSlowBuild: ((progress: BuildProgress) => void) | undefined;
  readonly #slowBuildAfterMs: number;
  readonly #buildSliceMs: number;
  readonly #known: KnownRevisions | undefined;
  readonly #days: string[];
  readonly #schemaSince: string;
  readonly #current = new Map<string, Revision>();
  readonly #revisions = new Map<string, Revision>();
  readonly #superseded = new Set<string>();
  #now: number;

  /**
   * @param simulator the market simulator (its `options.now` starts the archive clock).
   * @param options `cacheBytes` (default 256 MiB).
   */
  constructor(simulator: ReleaseSimulator, options: ReleaseArchiveOptions = {}) {
    const resolved = resolveReleaseArchiveOptions(options);
    this.#simulator = simulator;
    this.#cache = new BoundedCache(resolved.cacheBytes);
    this.#onSlowBuild = options.onSlowBuild;
    this.#slowBuildAfterMs = options.slowBuildAfterMs ?? 1000;
    this.#buildSliceMs = options.buildSliceMs ?? 20;
    this.#known = options.knownRevisions;
    this.#now = simulator.options.now;
    this.#schemaSince = simulator.options.schemaSince;
    this.#days = simulator.days().filter((day) => dayEnd(day) <= this.#now);
  }

  /** The archive clock (UTC Unix seconds); starts at `simulator.options.now`. */
  get now(): number {
    return this.#now;
  }

  /**
   * Moves the clock forward by `seconds` and runs every hourly check crossed on the way: first
   * publications of days that end, and re-checks of the nine most recent days.
   * @returns the releases newly published (new IDs), oldest check first, then by day.
   */
  advance(seconds: number): Release[] {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new ReleaseArchiveOptionError(messages.archiveOption('seconds', seconds, 'a finite number >= 0'), 'seconds');
    }
    const target = this.#now + seconds;
    // 1. pin the current revision of every re-checked day as of the old clock: the baseline to compare with
    for (const day of this.#days) if (isRechecked(day, this.#now)) this.#currentRevision(day);
    const published: Release[] = [];
    // 2. each check time crossed, in order
    for (let check = latestCheckTime(this.#now) + RECHECK_INTERVAL_SECONDS; check <= target; check += RECHECK_INTERVAL_SECONDS) {
      this.#now = check;
      // 2a. a day that ends now is published for the first time
      if (check % DAY_SECONDS === 0) {
        const day = dayOf(check - DAY_SECONDS);
        if (!this.#days.includes(day)) this.#days.push(day);
      }
      // 2b. every day whose check window holds this time is compared with its current revision
      for (const day of this.#days) {
        if (check < dayEnd(day) || check > lastCheckTime(day)) continue;
        const previous = this.#current.get(day);
        const content = this.#simulator.dayContent(day, check);
        // unchanged since the check that first saw the current revision's content
        if (previous && content.changedAt <= previous.asOf) continue;
        const revision = this.#publish(day, check, content.rows);
        if (previous && previous.release.id !== revision.release.id) this.#superseded.add(previous.release.id);
        if (!previous || previous.release.id !== revision.release.id) published.push(revision.release);
      }
    }
    this.#now = target;
    return published;
  }

  /** The current release of each covered day, newest day first, at most `limit` (default: all). Lazy. */
  currentReleases(limit: number = this.#days.length): Release[] {
    const releases: Release[] = [];
    for (const release of this.#buildSteps(limit)) releases.push(release);
    return releases;
  }

  /**
   * Builds current releases newest day first, one day at a time, until `found()` is true (true) or every day
   * is built (false). One build: a slow one is said with one clock and one total.
   */
  buildCurrentReleasesUntil(found: () => boolean): boolean {
    for (const _ of this.#buildSteps(this.#days.length)) if (found()) return true;
    return false;
  }

  /**
   * Builds what currentReleases(limit) returns, handing the event loop back every `buildSliceMs` (an in-process
   * server's process then still hears a Ctrl-C and its clients' timers while 100 days build, ~5 s). Resolves true
   * when built, false when `stillWanted` said no first (the client went away: the rest is not built).
   */
  async buildCurrentReleases(limit: number = this.#days.length, stillWanted: () => boolean = () => true): Promise<boolean> {
    let sliceStart = performance.now();
    for (const _ of this.#buildSteps(limit)) {
      if (performance.now() - sliceStart < this.#buildSliceMs) continue;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!stillWanted()) return false;
      sliceStart = performance.now();
    }
    return true;
  }

  /** The current releases newest day first, at most `limit`, built one at a time; a slow build is said. */
  *#buildSteps(limit: number): Generator<Release> {
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new ReleaseArchiveOptionError(messages.archiveOption('limit', limit, 'an integer >= 0'), 'limit');
    }
    const total = Math.min(limit, this.#days.length);
    const started = performance.now();
    let sayAt = started + this.#slowBuildAfterMs;
    for (let built = 0; built < total; ) {
      const release = this.#currentRevision(this.#days[this.#days.length - 1 - built]!).release;
      built += 1;
      const now = performance.now();
      if (this.#onSlowBuild !== undefined && now >= sayAt && built < total) {
        this.#onSlowBuild({ built, total, seconds: (now - started) / 1000 });
        sayAt = now + SLOW_BUILD_REPEAT_MS;
      }
      yield release;
    }
  }

  /** The current release of one day (`YYYY-MM-DD`); undefined outside the coverage. Generates that day only. */
  currentRelease(day: string): Release | undefined {
    return this.#days.includes(day) ? this.#currentRevision(day).release : undefined;
  }

  /** Any published release, current or superseded, by ID; undefined when unknown (never generates). */
  release(id: string): Release | undefined {
    return this.#revisions.get(id)?.release;
  }

  /** True when `id` is a superseded revision (a later check of its day published different content). */
  isSuperseded(id: string): boolean {
    return this.#superseded.has(id);
  }

  /**
   * Bytes of a release file; undefined for an unknown ID and for `schema` of a release without one.
   * Evicted files are regenerated from (day, check time), byte-identical. Callers must not mutate them.
   */
  file(id: string, format: DownloadFormat): Uint8Array | undefined {
    const revision = this.#revisions.get(id);
    if (!revision) return undefined;
    if (format === 'schema' && !revision.release.files.schema) return undefined;
    const cached = this.#cache.get(`${id}/${format}`);
    if (cached instanceof Uint8Array) return cached;
    return this.#regenerate(revision).files[format];
  }

  /** Rows of a release in file order (frozen). Throws `ReleaseNotFoundError` for an unknown ID. */
  rows(id: string): readonly MarketEventRow[] {
    const revision = this.#revisions.get(id);
    if (!revision) throw new ReleaseNotFoundError(messages.unknownRelease(id));
    const cached = this.#cache.get(`${id}/rows`);
    if (cached && !(cached instanceof Uint8Array)) return cached;
    const rows = orderedRows(this.#simulator.dayContent(revision.release.day, revision.asOf).rows);
    const expected = revision.release.files.csv.sha256;
    const actual = sha256Hex(releaseCsv(rows));
    if (actual !== expected) throw new ReleaseRegenerationError(messages.regeneratedMismatch(id, 'rows', expected, actual));
    this.#cacheRows(revision.release, rows);
    return rows;
  }

  /**
   * How many of the newest days `coverage()` builds for its freshness (the re-checked days, else the newest):
   * `buildCurrentReleases(freshDayCount())` builds them ahead, in slices.
   */
  freshDayCount(): number {
    return this.#freshDays().length;
  }

  /** Coverage summary for the paid `/catalog`: first/last day, symbols, freshness. */
  coverage(): ArchiveCoverage {
    const rechecked = this.#days.filter((day) => isRechecked(day, this.#now));
    const newest = this.#days.at(-1);
    const fresh = this.#freshDays();
    const generated = fresh.map((day) => this.#currentRevision(day).release.generated_at);
    return {
      first_day: this.#days[0] ?? '',
      last_day: newest ?? '',
      symbols: [...SYMBOLS],
      days: this.#days.length,
      rechecked_days: rechecked.length,
      latest_generated_at: generated.length > 0 ? Math.max(...generated) : null,
    };
  }

  /** The re-checked days (the newest ones), else the newest day: those whose generated_at makes the freshness. */
  #freshDays(): string[] {
    const rechecked = this.#days.filter((day) => isRechecked(day, this.#now));
    const newest = this.#days.at(-1);
    return rechecked.length > 0 ? rechecked : newest ? [newest] : [];
  }

  /** The current revision of a covered day, built on first use. */
  #currentRevision(day: string): Revision {
    const known = this.#current.get(day);
    if (known) return known;
    // The revision current at `asOf` was published at the first check that saw its content. Content only
    // moves forward, and the simulator reports when it last changed, so that check is the first one at or
    // after `changedAt` (one simulation; docs/mock-releases.md "generated_at").
    const asOf = asOfTime(day, this.#now)!;
    const published = this.#known?.revision(day, asOf);
    if (published !== undefined) return this.#record(day, published.release, published.check);
    const content = this.#simulator.dayContent(day, asOf);
    const revision = this.#publish(day, firstCheckSeeing(day, content.changedAt), content.rows);
    this.#known?.remember(day, asOf, { release: revision.release, check: revision.asOf });
    return revision;
  }

  /** Builds, records and caches the release of `day` with `rows` published at `check`. */
  #publish(day: string, check: number, simulated: readonly MarketEventRow[]): Revision {
    const rows = orderedRows(simulated);
    const bundle = buildRelease(day, check, rows, day >= this.#schemaSince);
    if (!this.#revisions.has(bundle.release.id)) this.#cacheBundle(bundle, rows);
    return this.#record(day, bundle.release, check);
  }

  /** Makes `release` (published at `check`) the current revision of `day`, recorded unless its ID is known. */
  #record(day: string, release: Release, check: number): Revision {
    // Content that returns to an earlier revision's (not expected: content only moves forward) keeps that
    // revision, its ID and its generated_at.
    const existing = this.#revisions.get(release.id);
    const revision = existing ?? { release, asOf: check };
    if (!existing) this.#revisions.set(release.id, revision);
    this.#current.set(day, revision);
    this.#superseded.delete(revision.release.id);
    return revision;
  }

  /** Rebuilds an evicted revision's files and checks them against the published digests. */
  #regenerate(revision: Revision): ReleaseBundle {
    const { release } = revision;
    const rows = orderedRows(this.#simulator.dayContent(release.day, revision.asOf).rows);
    const bundle = buildRelease(release.day, revision.asOf, rows, release.files.schema !== undefined);
    for (const format of ['json', 'csv', 'parquet', 'schema'] as const) {
      const bytes = bundle.files[format];
      const expected = release.files[format];
      if (!bytes || !expected) continue;
      const actual = sha256Hex(bytes);
      if (actual !== expected.sha256) {
        throw new ReleaseRegenerationError(messages.regeneratedMismatch(release.id, format, expected.sha256, actual));
      }
    }
    this.#cacheBundle(bundle, rows);
    return bundle;
  }

  #cacheBundle(bundle: ReleaseBundle, rows: MarketEventRow[]): void {
    const { id } = bundle.release;
    for (const [format, bytes] of Object.entries(bundle.files)) {
      if (bytes) this.#cache.set(`${id}/${format}`, bytes, bytes.byteLength);
    }
    this.#cacheRows(bundle.release, rows);
  }

  /** Rows are cached with an estimated footprint of four times their CSV size. */
  #cacheRows(release: Release, rows: MarketEventRow[]): void {
    // frozen only now: files are serialized first (V8 serializes frozen objects slower)
    this.#cache.set(`${release.id}/rows`, freezeRows(rows), release.files.csv.bytes * 4);
  }
}
