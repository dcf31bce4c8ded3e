// pullReleases: several releases by ID. Downloads and checks run `concurrency` at a time and never wait
// for imports; verified releases queue for the one writer, which commits whatever is ready in one
// transaction (group commit). Every release is still wholly imported or wholly absent, and a failure of
// one leaves every other release imported. A failure of this machine (a full disk, the file-size limit, a
// read-only or denied folder) would fail every later release the same way, so it stops the pull there.

import type { RdwClient } from '../client/index.js';
import { EnvironmentError, environmentErrorOf, RdwError } from '../contract/index.js';
import type { AcceptedBeyondContract } from './accepted-beyond-contract.js';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { importReleases } from './import-release.js';
import type { ReleaseImport } from './release-import.js';
import { catalogMessages } from './messages.js';
import { checkReleaseIds, prepareRelease, presentReleases, settleRelease, type PullProgress, type PullResult } from './pull-release.js';
import { repairPresentReleases } from './repair-store.js';
import { prefetchManifest } from './team-store-pull.js';
import { importedAccepted } from './values-beyond-contract.js';

export interface PullReleasesOptions {
  /** Releases downloaded and checked at once (imports run beside them, one writer). Default 4. */
  concurrency?: number;
  /** Most releases committed in one import transaction. Default 32; 1 = one transaction per release. */
  batchSize?: number;
  /**
   * Releases imported between two trims of DuckDB's block cache (`Catalog.trimMemory`). A pull of at least
   * this many releases is a long pull: it trims, and it defers row-group merges to later handles
   * (`Catalog.deferCompaction`), which keeps its memory flat as its count grows. Default 64 (a trim takes
   * 10–15 ms).
   */
  trimEvery?: number;
  /** Progress of bytes and of releases. Default: none. */
  onProgress?: (event: PullProgress) => void;
  /**
   * Stops the pull between releases once aborted (Ctrl-C): releases in flight finish (each is still
   * wholly imported or wholly absent), releases not started are returned in `notStarted`. Default: none.
   */
  signal?: AbortSignal;
}

/** One release that could not be pulled, with the typed error. */
export interface PullFailure {
  id: string;
  error: RdwError | Error;
}

export interface PullReleasesResult {
  /** Releases imported now or already present, in the order given. */
  pulled: PullResult[];
  /** Releases that failed; each left nothing imported. */
  failed: PullFailure[];
  /**
   * Releases not pulled because the pull stopped, in the order given: not started once `signal` was aborted
   * or a failure of this machine stopped it (`stoppedBy`), and, after such a failure, those in flight that
   * failed the same way (each left nothing). Empty otherwise.
   */
  notStarted: string[];
  /**
   * The first failure of this machine (an EnvironmentError: disk full, file-size limit, read-only or denied
   * folder) when it stopped the pull: no release starts after it. It is also the one entry of `failed` it adds.
   */
  stoppedBy?: EnvironmentError;
}

type Outcome = PullResult | PullFailure;

/**
 * Pulls every ID (duplicates once). Every ID is validated before any request (CatalogOptionError,
 * exit 2). Never throws for a failed release: see `failed`.
 */
export async function pullReleases(
  catalog: Catalog,
  client: RdwClient,
  ids: readonly string[],
  options: PullReleasesOptions = {},
): Promise<PullReleasesResult> {
  const concurrency = options.concurrency ?? 4;
  const batchSize = options.batchSize ?? 32;
  const trimEvery = options.trimEvery ?? 64;
  for (const [name, value] of [['concurrency', concurrency], ['batchSize', batchSize], ['trimEvery', trimEvery]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new CatalogOptionError(catalogMessages.badOption(name, 'an integer >= 1'), { option: name });
    }
  }
  checkReleaseIds(ids);
  const unique = [...new Set(ids)];
  const onProgress = options.onProgress;
  const outcomes: Outcome[] = new Array(unique.length);
  const present = await presentReleases(catalog, unique);
  // A present release's stored files must still be there (a stat each); missing ones are fetched again by ID.
  const repaired = await repairPresentReleases(catalog, client, [...present.keys()]);
  const todo = unique.flatMap((id, index) => {
    const known = present.get(id);
    if (known === undefined) return [index];
    const repair = repaired.get(id);
    outcomes[index] = repair instanceof Error ? { id, error: repair } : repair === undefined ? known : { ...known, repaired: repair };
    onProgress?.({ kind: 'release', releaseId: id, status: repair instanceof Error ? 'failed' : 'present' });
    return [];
  });

  // A long pull also defers row-group merges: with them, its checkpoints rewrote full row groups and its
  // peak memory grew with its count.
  if (todo.length >= trimEvery) await catalog.deferCompaction();
  const writer = new ImportQueue(catalog, batchSize, trimEvery);
  let stoppedBy: EnvironmentError | undefined;
  // A failed release's outcome; after a machine failure stopped the pull, one more such failure is "not pulled".
  const fail = (index: number, id: string, error: unknown) => {
    const failure = asError(error, catalog.home);
    if (failure instanceof EnvironmentError) {
      if (stoppedBy !== undefined) return;
      stoppedBy = failure;
    }
    outcomes[index] = { id, error: failure };
  };
  const imports: Promise<void>[] = [];
  // Manifests are fetched this many releases ahead (the client caches them by ID).
  const lookahead = concurrency;
  let next = 0;
  const worker = async () => {
    // An aborted signal lets the releases in flight finish and starts no other.
    while (next < todo.length && options.signal?.aborted !== true && stoppedBy === undefined) {
      const position = next++;
      const index = todo[position]!;
      const id = unique[index]!;
      const ahead = todo[position + lookahead];
      // (from the team store first when one is in use)
      if (ahead !== undefined) prefetchManifest(catalog, client, unique[ahead]!);
      let prepared;
      try {
        prepared = await prepareRelease(catalog, client, id, onProgress === undefined ? {} : { onProgress });
      } catch (error) {
        onProgress?.({ kind: 'release', releaseId: id, status: 'failed' });
        fail(index, id, error);
        continue;
      }
      const { result } = prepared;
      const settled = prepared;
      imports.push(
        writer.add(prepared.item).then(
          async (accepted) => {
            await settleRelease(catalog, settled, true);
            outcomes[index] = accepted === undefined ? result : { ...result, accepted };
            onProgress?.({ kind: 'release', releaseId: id, status: 'imported' });
          },
          async (error: unknown) => {
            // A refused release leaves nothing in the store (files shared with imported releases stay).
            await settleRelease(catalog, settled, false).catch(() => undefined);
            fail(index, id, error);
            onProgress?.({ kind: 'release', releaseId: id, status: 'failed' });
          },
        ),
      );
      // Back-pressure: at most one batch of verified releases waits for the writer.
      await writer.belowLimit();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  await Promise.all(imports);
  const pulled: PullResult[] = [];
  const failed: PullFailure[] = [];
  const notStarted: string[] = [];
  unique.forEach((id, index) => {
    const outcome = outcomes[index];
    if (outcome === undefined) notStarted.push(id);
    else if ('error' in outcome) failed.push(outcome);
    else pulled.push(outcome);
  });
  return { pulled, failed, notStarted, ...(stoppedBy === undefined ? {} : { stoppedBy }) };
}

/**
 * The failure as an Error: a full disk, a denied or read-only folder … as its typed environment error, naming
 * the home when the system named no file (a write to a download's open file handle names none).
 */
function asError(error: unknown, home?: string): Error {
  const typed = environmentErrorOf(error, home);
  if (typed?.path === undefined && typed?.cause !== undefined && home !== undefined) return environmentErrorOf(typed.cause, home) ?? typed;
  return typed ?? (error instanceof Error ? error : new Error(String(error)));
}

/** Verified releases waiting for the one writer; each flush commits everything ready (up to `batchSize`). */
class ImportQueue {
  readonly #catalog: Catalog;
  readonly #batchSize: number;
  readonly #trimEvery: number;
  #waiting: { item: ReleaseImport; resolve: (accepted: AcceptedBeyondContract | undefined) => void; reject: (error: Error) => void }[] = [];
  #running = false;
  #drained: (() => void)[] = [];
  #sinceTrim = 0;

  constructor(catalog: Catalog, batchSize: number, trimEvery: number) {
    this.#catalog = catalog;
    this.#batchSize = batchSize;
    this.#trimEvery = trimEvery;
  }

  /**
   * Resolves when `item` is committed, with what it was accepted with beyond the contract (its files' and its
   * rows' findings), or rejects with why it was not committed.
   */
  add(item: ReleaseImport): Promise<AcceptedBeyondContract | undefined> {
    const done = new Promise<AcceptedBeyondContract | undefined>((resolve, reject) => this.#waiting.push({ item, resolve, reject }));
    if (!this.#running) void this.#run();
    return done;
  }

  /** Resolves once fewer than `batchSize` releases wait. */
  belowLimit(): Promise<void> {
    if (this.#waiting.length < this.#batchSize) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.#batchSize);
        for (const wake of this.#drained.splice(0)) wake();
        let outcomes: (boolean | Error)[];
        try {
          outcomes = await importReleases(this.#catalog, batch.map((entry) => entry.item));
        } catch (error) {
          outcomes = batch.map(() => asError(error));
        }
        const committed = batch.filter((_, i) => outcomes[i] === true).map((entry) => entry.item.release.id);
        const accepted = await importedAccepted(this.#catalog, committed).catch(() => new Map<string, AcceptedBeyondContract>());
        batch.forEach((entry, i) => {
          const outcome = outcomes[i];
          if (outcome instanceof Error) entry.reject(outcome);
          else entry.resolve(accepted.get(entry.item.release.id) ?? entry.item.accepted);
        });
        // DuckDB keeps every block it writes until the instance closes: without a trim now and then, a
        // pull's memory would grow with its count (docs/catalog.md "Memory").
        this.#sinceTrim += batch.length;
        if (this.#sinceTrim >= this.#trimEvery) {
          this.#sinceTrim = 0;
          await this.#catalog.trimMemory().catch(() => undefined);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
