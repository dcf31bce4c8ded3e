// A local catalog: the DuckDB file `<home>/catalog.duckdb` plus the content store `<home>/store/`
// (DESIGN.md 2.4). Opened by a static async factory that waits, with a bound, for another process's lock.

import path from 'node:path';
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { environmentErrorOf } from '../contract/index.js';
import { CatalogBusyError, CatalogCorruptError } from './catalog-errors.js';
import { resolveCatalogOptions, type CatalogOptions, type ResolvedCatalogOptions } from './catalog-options.js';
import { CATALOG_SCHEMA_VERSION } from './catalog-schema.js';
import { ContentStore, type TempCleanup } from './content-store.js';
import { catalogMessages } from './messages.js';
import { catalogSchemaVersion, runMigrations } from './run-migrations.js';
import { quoteLiteral } from '../base/index.js';

/** A row read from the catalog, values as JSON (BIGINT as string when large, DATE as `YYYY-MM-DD`). */
export type CatalogRow = Record<string, unknown>;
/** Named SQL parameters (`$name`). */
export type SqlParameters = Record<string, DuckDBValue>;

/** DuckDB file name inside the home folder. */
export const CATALOG_FILE = 'catalog.duckdb';

// DuckDB's file lock is per process: two instances of one file inside a process would not exclude
// each other, so this process keeps its own register of the files it has open.
const openInThisProcess = new Set<string>();

/** True while this process has `file` (absolute) open through a Catalog: DuckDB's lock would not exclude it. */
export const isOpenInThisProcess = (file: string): boolean => openInThisProcess.has(file);

/** True when `error` is DuckDB refusing a file because another process holds its lock. */
export const isLockConflict = (error: unknown): boolean =>
  /could not set lock|conflicting lock|lock on file/i.test(error instanceof Error ? error.message : String(error));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Catalog {
  /** The home folder (RDW_HOME), absolute. */
  readonly home: string;
  /** `<home>/catalog.duckdb`. */
  readonly file: string;
  readonly store: ContentStore;
  readonly readOnly: boolean;
  /** What the clean-up of `store/tmp/` did on open (empty when read-only). */
  readonly tempCleanup: TempCleanup;
  readonly #options: ResolvedCatalogOptions;
  readonly #instance: DuckDBInstance;
  readonly #connection: DuckDBConnection;
  #queue: Promise<unknown> = Promise.resolve();
  #side: Promise<DuckDBConnection> | undefined;
  #sideQueue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #memoryLimit: string | undefined;

  private constructor(
    home: string,
    store: ContentStore,
    instance: DuckDBInstance,
    connection: DuckDBConnection,
    options: ResolvedCatalogOptions,
    tempCleanup: TempCleanup,
  ) {
    this.home = home;
    this.file = path.join(home, CATALOG_FILE);
    this.store = store;
    this.readOnly = options.readOnly;
    this.tempCleanup = tempCleanup;
    this.#options = options;
    this.#instance = instance;
    this.#connection = connection;
  }

  /**
   * Opens (creating and migrating) the catalog in `home`. Waits up to `busyTimeoutMs` while another
   * process holds the file, then throws CatalogBusyError. Read-write opens clean stale files from `store/tmp/`.
   */
  static async open(home: string, options: CatalogOptions = {}): Promise<Catalog> {
    const resolved = resolveCatalogOptions(options);
    const absoluteHome = path.resolve(home);
    const file = path.join(absoluteHome, CATALOG_FILE);
    let store: ContentStore;
    try {
      await mkdir(absoluteHome, { recursive: true });
      store = await ContentStore.open(path.join(absoluteHome, 'store'));
    } catch (error) {
      throw await homeFailure(absoluteHome, error);
    }
    try {
      return await Catalog.#openFile(absoluteHome, file, store, resolved);
    } catch (error) {
      if (isCorruption(error)) {
        throw new CatalogCorruptError(catalogMessages.catalogCorrupt(file, (error as Error).message), { file, cause: error });
      }
      throw environmentErrorOf(error, file) ?? error;
    }
  }

  static async #openFile(absoluteHome: string, file: string, store: ContentStore, resolved: ResolvedCatalogOptions): Promise<Catalog> {

    if (resolved.readOnly) {
      // A read-only handle cannot create or migrate: do that first with a short read-write open.
      const exists = await stat(file).then(() => true, () => false);
      let current = exists ? -1 : 0;
      if (exists) {
        const probe = await openInstance(file, resolved, true);
        try {
          current = await catalogSchemaVersion(probe.connection);
        } finally {
          closeInstance(file, probe.instance, probe.connection);
        }
      }
      if (current < CATALOG_SCHEMA_VERSION) {
        const writer = await openInstance(file, resolved, false);
        try {
          await runMigrations(writer.connection, resolved.now());
        } finally {
          closeInstance(file, writer.instance, writer.connection);
        }
      }
      const { instance, connection } = await openInstance(file, resolved, true);
      return new Catalog(absoluteHome, store, instance, connection, resolved, { removed: [], kept: [] });
    }

    const { instance, connection } = await openInstance(file, resolved, false);
    try {
      await runMigrations(connection, resolved.now());
      // Safe now: this process holds the catalog's lock, so no other rdw is downloading into store/tmp.
      const cleanup = await store.cleanTemp(resolved.now().getTime(), resolved.maxPartialAgeMs);
      return new Catalog(absoluteHome, store, instance, connection, resolved, cleanup);
    } catch (error) {
      closeInstance(file, instance, connection);
      throw error;
    }
  }

  /** The clock of this catalog (imported_at, listings). */
  now(): Date {
    return this.#options.now();
  }

  /**
   * The DuckDB connection, for a user's own code (other layers read through the catalog's read API, e.g.
   * `readMarketEvents`). Writes must go through `transaction`, and concurrent use should go through
   * `exclusive` or `read`, which serialize every use of the one connection.
   */
  get connection(): DuckDBConnection {
    return this.#connection;
  }

  /** Runs `fn` with the connection, after every earlier `exclusive`/`query`/`transaction` call finished. */
  exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => fn(this.#connection));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs a read-only statement on a second connection of the same database, beside the writer queue:
   * for checks that read data files (`DESCRIBE read_parquet(…)`) while another release is importing.
   * Reads of catalog tables see committed data only.
   */
  sideQuery(sql: string, parameters?: SqlParameters): Promise<CatalogRow[]> {
    this.#side ??= this.#instance.connect();
    const side = this.#side;
    return this.#afterSideQueries(async () => {
      const reader = await (await side).runAndReadAll(sql, parameters);
      return reader.getRowObjectsJson() as CatalogRow[];
    });
  }

  /** Runs `fn` after every earlier side query finished; later side queries wait for it. */
  #afterSideQueries<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#sideQueue.then(fn);
    this.#sideQueue = run.catch(() => undefined);
    return run;
  }

  /** Runs one SQL statement and returns its rows as JSON-friendly objects. */
  query(sql: string, parameters?: SqlParameters): Promise<CatalogRow[]> {
    return this.exclusive(async (connection) => {
      const reader = await connection.runAndReadAll(sql, parameters);
      return reader.getRowObjectsJson() as CatalogRow[];
    });
  }

  /**
   * Runs `fn` in the queue inside a read-only transaction (`BEGIN TRANSACTION READ ONLY`): every statement
   * of `fn` sees one snapshot, and any write throws. Temporary views are allowed. Ends with ROLLBACK.
   */
  read<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION READ ONLY');
      try {
        return await fn(connection);
      } finally {
        await connection.run('ROLLBACK').catch(() => {});
      }
    });
  }

  /** Runs `fn` inside BEGIN … COMMIT; any throw rolls back and rethrows. One writer at a time. */
  transaction<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        const result = await fn(connection);
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  /**
   * Gives memory back: DuckDB keeps every block it has written or read until the instance closes, and its
   * allocator keeps freed memory, so a long pull calls this now and then to keep its memory flat. It sets
   * `memory_limit` to what DuckDB holds besides its cache of catalog blocks (which stay on disk), for a
   * moment with no statement running on either connection, then back to the limit read at the first trim:
   * DuckDB shows the limit rounded down to one decimal ("18.8 GiB"), so the first trim lowers it by less
   * than that step, where reading it at every trim would lower it a step every time. Setting the limit
   * evicts the cache and makes the allocator return freed memory to the system (10–15 ms, mostly the
   * latter). Best effort: a limit DuckDB cannot reach is skipped.
   */
  trimMemory(): Promise<void> {
    return this.exclusive((connection) =>
      this.#afterSideQueries(async () => {
        this.#memoryLimit ??= await currentMemoryLimit(connection);
        await trimBlockCache(connection, this.#memoryLimit);
      }),
    );
  }

  /**
   * Turns vacuum off for the rest of this handle, so a checkpoint writes the rows appended since the last
   * one and merges no row groups. A bulk pull calls it: its checkpoints then cost only what they write,
   * whatever the catalog's size, and it leaves row groups of ≈ 27,000 rows (one per 16 MiB of WAL), which
   * scan as fast as full ones. Later handles merge them again, one run per checkpoint.
   */
  async deferCompaction(): Promise<void> {
    await this.query('SET max_vacuum_tasks = 0');
  }

  /** Closes the DuckDB handles (checkpointing the file). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    await this.#sideQueue;
    const side = await this.#side?.catch(() => undefined);
    side?.closeSync();
    closeInstance(this.file, this.#instance, this.#connection);
  }
}

/** True when DuckDB refused the file for what is in it: not a database, a failed block checksum, cut short, undecodable. */
const isCorruption = (error: unknown): boolean =>
  /not a valid DuckDB database file|Corrupt database file|Could not read enough bytes from file|Serialization Error|Failed to deserialize|Invalid Input Error: .*(?:database file|magic)/i.test(
    error instanceof Error ? error.message : String(error),
  );

/**
 * Why the home folder (or its `store/`) could not be created, as a typed environment error. Node's recursive
 * mkdir reports ENOENT on a read-only file system, so the nearest existing folder above is asked itself.
 */
async function homeFailure(home: string, error: unknown): Promise<unknown> {
  const direct = environmentErrorOf(error, home);
  if (direct !== undefined) return direct;
  for (let folder = home; ; folder = path.dirname(folder)) {
    const info = await stat(folder).catch(() => undefined);
    if (info !== undefined) {
      if (!info.isDirectory()) return environmentErrorOf({ code: 'ENOTDIR', path: folder }) ?? error;
      const refusal = await access(folder, constants.W_OK).then(() => undefined, (reason: unknown) => reason);
      return (refusal === undefined ? undefined : environmentErrorOf(refusal, folder)) ?? error;
    }
    if (path.dirname(folder) === folder) return error;
  }
}

async function openInstance(
  file: string,
  options: ResolvedCatalogOptions,
  readOnly: boolean,
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const started = Date.now();
  for (;;) {
    if (!openInThisProcess.has(file)) {
      try {
        const instance = await DuckDBInstance.create(file, instanceConfig(readOnly));
        openInThisProcess.add(file);
        try {
          return { instance, connection: await instance.connect() };
        } catch (error) {
          openInThisProcess.delete(file);
          instance.closeSync();
          throw error;
        }
      } catch (error) {
        if (!isLockConflict(error)) throw error;
      }
    }
    if (Date.now() - started >= options.busyTimeoutMs) {
      throw new CatalogBusyError(catalogMessages.busy(path.dirname(file), Math.round(options.busyTimeoutMs / 1000)));
    }
    await sleep(options.busyRetryMs);
  }
}

/**
 * DuckDB settings of every catalog instance (docs/catalog.md "Memory"):
 * - no external file cache: a pull reads each data file once to check it and once to import it, and the
 *   cache kept ≈ 0.3 MiB per file for the life of the instance;
 * - the allocator's background threads return freed memory to the system as DuckDB runs;
 * - at most one vacuum task per checkpoint. The catalog never deletes or updates a row, so vacuum only
 *   merges the small row groups that appends leave; DuckDB's default (100 tasks) merged a bulk pull's 18
 *   row groups into 6 in one checkpoint at 793 MiB, one task merges a run of them (+200 MiB).
 * No `memory_limit`: below a checkpoint's needs DuckDB fails fatally; `trimMemory` frees the cache instead.
 */
function instanceConfig(readOnly: boolean): Record<string, string> {
  return {
    enable_external_file_cache: 'false',
    allocator_background_threads: 'true',
    max_vacuum_tasks: '1',
    ...(readOnly ? { access_mode: 'READ_ONLY' } : {}),
  };
}

async function currentMemoryLimit(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll(`SELECT current_setting('memory_limit')`);
  return String(reader.getRows()[0]![0]);
}

async function trimBlockCache(connection: DuckDBConnection, memoryLimit: string): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT coalesce(sum(memory_usage_bytes) FILTER (WHERE tag <> 'BASE_TABLE'), 0)::DOUBLE FROM duckdb_memory()`,
  );
  // Whole MiB at or above what DuckDB holds besides the cache: nothing else has to go, nothing spills to disk.
  const trimmed = Math.ceil(Number(reader.getRows()[0]![0]) / 2 ** 20);
  try {
    await connection.run(`SET memory_limit = '${trimmed}MiB'`);
  } catch {
    // DuckDB could not evict enough (blocks pinned): leave the cache as it is.
  } finally {
    await connection.run(`SET memory_limit = ${quoteLiteral(memoryLimit)}`);
  }
}

function closeInstance(file: string, instance: DuckDBInstance, connection: DuckDBConnection): void {
  try {
    connection.closeSync();
    instance.closeSync();
  } finally {
    openInThisProcess.delete(file);
  }
}
