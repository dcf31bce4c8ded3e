// The paid Market Events archive: daily releases, hourly re-checks of recent days, revisions by content,
// and byte-bounded lazy file generation (spec "Release", Freshness rule 3; DESIGN.md 3).

import { RECHECK_INTERVAL_SECONDS, SYMBOLS, WINDOWS, WINDOW_SECONDS, type DownloadFormat, type MarketEventRow, type Release } from '../../spec/index.js';
import { ByteLru } from './byte-lru.js';
import { buildRelease, type ReleaseBundle } from './build-release.js';
import { DAY_SECONDS, asOfTime, dayEnd, dayOf, isRechecked, lastCheckTime, latestCheckTime } from './check-times.js';
import { fileDigest, sha256Hex } from './file-digest.js';
import { messages } from './messages.js';
import { orderedRow } from './ordered-row.js';
import { ReleaseArchiveOptionError, ReleaseNotFoundError, ReleaseRegenerationError } from './release-errors.js';
import type { ReleaseSimulator } from './release-simulator.js';

/** Check indexes (hours after a day's end) at which each outcome window has passed for all its samples, longest first. */
const WINDOW_END_CHECKS = WINDOWS.map((window) => Math.ceil(WINDOW_SECONDS[window] / RECHECK_INTERVAL_SECONDS)).sort((a, b) => b - a);

export interface ReleaseArchiveOptions {
  /** Bytes of generated files and rows kept in memory (LRU); 0 keeps nothing. Default 256 MiB. */
  cacheBytes?: number;
}

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

/** A published revision: its release object, the check time its content is regenerated from, its fingerprint. */
interface Revision {
  release: Release;
  asOf: number;
  fingerprint: string;
}

/** One content evaluation of a day at a check time: the simulator's rows and their fingerprint. */
interface DayContent {
  rows: MarketEventRow[];
  /** sha256 of the rows' JSON: cheap to compute, equal exactly when the content is. */
  fingerprint: string;
}

/**
 * The release archive of one simulator. Day D is first published at D+1 00:00 UTC; the nine most recent
 * days are re-checked on every hour; a check whose content differs publishes a revision with a new ID.
 * A revision's `generated_at` is the first check time that saw its content, so one ID always has one
 * manifest, whatever clock the archive started at. Everything is generated lazily and cached.
 */
export class ReleaseArchive {
  readonly #simulator: ReleaseSimulator;
  readonly #cache: ByteLru<Uint8Array | readonly MarketEventRow[]>;
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
    this.#cache = new ByteLru(resolved.cacheBytes);
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
        const content = this.#content(day, check);
        if (previous && previous.fingerprint === content.fingerprint) continue;
        const revision = this.#publish(day, check, content);
        if (previous && previous.release.id !== revision.release.id) this.#superseded.add(previous.release.id);
        if (!previous || previous.release.id !== revision.release.id) published.push(revision.release);
      }
    }
    this.#now = target;
    return published;
  }

  /** The current release of each covered day, newest day first, at most `limit` (default: all). Lazy. */
  currentReleases(limit: number = this.#days.length): Release[] {
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new ReleaseArchiveOptionError(messages.archiveOption('limit', limit, 'an integer >= 0'), 'limit');
    }
    const releases: Release[] = [];
    for (let index = this.#days.length - 1; index >= 0 && releases.length < limit; index -= 1) {
      releases.push(this.#currentRevision(this.#days[index]!).release);
    }
    return releases;
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
    const content = this.#content(revision.release.day, revision.asOf);
    if (content.fingerprint !== revision.fingerprint) {
      throw new ReleaseRegenerationError(messages.regeneratedMismatch(id, 'rows', revision.fingerprint, content.fingerprint));
    }
    const rows = content.rows.map(orderedRow);
    this.#cacheRows(revision.release, rows);
    return rows;
  }

  /** Coverage summary for the paid `/catalog`: first/last day, symbols, freshness. */
  coverage(): ArchiveCoverage {
    const rechecked = this.#days.filter((day) => isRechecked(day, this.#now));
    const newest = this.#days.at(-1);
    const fresh = rechecked.length > 0 ? rechecked : newest ? [newest] : [];
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

  /** The current revision of a covered day, built on first use. */
  #currentRevision(day: string): Revision {
    const known = this.#current.get(day);
    if (known) return known;
    const asOf = asOfTime(day, this.#now)!;
    // The revision current at `asOf` was published at the first check that saw its content. Content only
    // moves forward (pending outcomes resolve, late candles arrive), so the checks holding that content are
    // one contiguous run ending at `asOf`. Its start is bracketed with few `dayRows` calls, then bisected:
    // 1. a day still re-checked: probe the hour before `asOf` (outcomes resolving hourly change it);
    // 2. probe the checks where each outcome window has passed, longest first: content is stable between
    //    two windows' resolutions; equal at such a check -> gallop backward from it (its window was
    //    resolving just before); different -> gallop forward from it (the content settled soon after).
    const first = dayEnd(day);
    const target = this.#content(day, asOf);
    const at = (index: number) => this.#content(day, first + index * RECHECK_INTERVAL_SECONDS);
    let high = (asOf - first) / RECHECK_INTERVAL_SECONDS; // a check known to hold the target content
    let low = -1; // a check known to differ (-1: before the first check)
    let found = target;
    const probe = (index: number): boolean => {
      const content = at(index);
      if (content.fingerprint !== target.fingerprint) {
        low = index;
        return false;
      }
      high = index;
      found = content;
      return true;
    };
    let direction: 'forward' | 'backward' = 'forward';
    if (high > 0 && asOf < lastCheckTime(day)) probe(high - 1);
    if (high - low > 1 && low === -1) {
      for (const hint of WINDOW_END_CHECKS) {
        if (hint >= high) continue;
        if (probe(hint)) direction = 'backward';
        break;
      }
    }
    for (let step = 1; high - low > 1; step *= 2) {
      const same = probe(direction === 'forward' ? Math.min(high - 1, low + step) : Math.max(low + 1, high - step));
      if (same === (direction === 'forward')) break;
    }
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      const content = at(middle);
      if (content.fingerprint === target.fingerprint) {
        high = middle;
        found = content;
      } else {
        low = middle;
      }
    }
    return this.#publish(day, first + high * RECHECK_INTERVAL_SECONDS, found);
  }

  /** Builds, records and caches the release of `day` with `rows` published at `check`. */
  #publish(day: string, check: number, content: DayContent): Revision {
    const rows = content.rows.map(orderedRow);
    const bundle = buildRelease(day, check, rows, day >= this.#schemaSince);
    // Content that returns to an earlier revision's (not expected: content only moves forward) keeps that
    // revision, its ID and its generated_at.
    const existing = this.#revisions.get(bundle.release.id);
    const revision = existing ?? { release: bundle.release, asOf: check, fingerprint: content.fingerprint };
    if (!existing) {
      this.#revisions.set(bundle.release.id, revision);
      this.#cacheBundle(bundle, rows);
    }
    this.#current.set(day, revision);
    this.#superseded.delete(revision.release.id);
    return revision;
  }

  /** Rebuilds an evicted revision's files and checks them against the published digests. */
  #regenerate(revision: Revision): ReleaseBundle {
    const { release } = revision;
    const rows = this.#content(release.day, revision.asOf).rows.map(orderedRow);
    const bundle = buildRelease(release.day, revision.asOf, rows, release.files.schema !== undefined);
    for (const format of ['json', 'csv', 'parquet', 'schema'] as const) {
      const bytes = bundle.files[format];
      const expected = release.files[format];
      if (!bytes || !expected) continue;
      const actual = fileDigest(bytes).sha256;
      if (actual !== expected.sha256) {
        throw new ReleaseRegenerationError(messages.regeneratedMismatch(release.id, format, expected.sha256, actual));
      }
    }
    this.#cacheBundle(bundle, rows);
    return bundle;
  }

  #cacheBundle(bundle: ReleaseBundle, rows: readonly MarketEventRow[]): void {
    const { id } = bundle.release;
    for (const [format, bytes] of Object.entries(bundle.files)) {
      if (bytes) this.#cache.set(`${id}/${format}`, bytes, bytes.byteLength);
    }
    this.#cacheRows(bundle.release, rows);
  }

  /** Rows are cached with an estimated footprint of four times their CSV size. */
  #cacheRows(release: Release, rows: readonly MarketEventRow[]): void {
    this.#cache.set(`${release.id}/rows`, rows, release.files.csv.bytes * 4);
  }

  /** The day's rows as of a check time, as the simulator gives them, with their fingerprint. */
  #content(day: string, check: number): DayContent {
    const rows = this.#simulator.dayRows(day, check);
    return { rows, fingerprint: sha256Hex(JSON.stringify(rows)) };
  }
}
