// A local catalog: the DuckDB file `<home>/catalog.duckdb` plus the content store `<home>/store/`
// (DESIGN.md 2.4). Opened by a static async factory that waits, with a bound, for another process's lock.

import path from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { environmentErrorOf, RdwError } from '../contract/index.js';
import { CatalogCorruptError } from './catalog-errors.js';
import { resolveCatalogOptions, type CatalogHold, type CatalogOptions, type ResolvedCatalogOptions } from './catalog-options.js';
import { closeDuckdbFile, openDuckdbFile, type DuckdbFile } from './open-duckdb-file.js';
import { createCatalogFile } from './create-catalog-file.js';
import { CATALOG_SCHEMA_VERSION, ROWS_FINGERPRINT_MIGRATION } from './catalog-schema.js';
import { ContentStore, type TempCleanup } from './content-store.js';
import { catalogMessages } from './messages.js';
import { catalogSchemaVersion, runMigrations } from './run-migrations.js';
import { homeFailure, isCorruption } from './catalog-open-failures.js';
import { currentMemoryLimit, trimBlockCache } from './trim-block-cache.js';
import { readArrowTable } from './catalog-arrow.js';
import type { Table, TypeMap } from 'apache-arrow';
import { makeFolder } from '../base/index.js';
import { CatalogReadOnlyError } from './catalog-errors.js';
import { inReadOnlyTransaction, userConnection } from './user-connection.js';
import { backfillRowsFingerprints } from './backfill-rows-fingerprints.js';

/** The key of rdw's own write transaction (writeTransaction below), open also on a catalog that refuses user writes. */
export const OWN_TRANSACTION = Symbol('rdw catalog transaction');

/**
 * A row read from the catalog, values as JSON: DOUBLE and INTEGER as numbers, BIGINT (e.g. `count(*)`) and
 * DECIMAL as strings, DATE as `YYYY-MM-DD`, TIMESTAMP as text, NULL as null.
 */
export type CatalogRow = Record<string, unknown>;
/** Named SQL parameters (`$name`). */
export type SqlParameters = Record<string, DuckDBValue>;

/** DuckDB file name inside the home folder. */
export const CATALOG_FILE = 'catalog.duckdb';

export { isLockConflict, isOpenInThisProcess } from './open-duckdb-file.js';

/** An open catalog file, with the second connection `sideQuery` opens on first use. */
interface OpenFile extends DuckdbFile {
  side: Promise<DuckDBConnection> | undefined;
}

export class Catalog {
  /** The home folder (RDW_HOME), absolute. */
  readonly home: string;
  /** `<home>/catalog.duckdb`. */
  readonly file: string;
  readonly store: ContentStore;
  readonly readOnly: boolean;
  /** 'always' (open until `close`) or 'while-busy' (a lease: open while operations are queued). */
  readonly hold: CatalogHold;
  /** What the clean-up of `store/tmp/` did on open (empty when read-only). */
  readonly tempCleanup: TempCleanup;
  /** 'refused': a user's SQL runs read-only (CatalogOptions.userWrites); rdw's own writes go through writeTransaction. */
  readonly userWrites: 'allowed' | 'refused';
  readonly #options: ResolvedCatalogOptions;
  /** The open file; undefined while a lease has let it go. */
  #file: OpenFile | undefined;
  #opening: Promise<OpenFile> | undefined;
  #closing: Promise<void> = Promise.resolve();
  /** Operations running on the file now (queued ones and side queries). */
  #users = 0;
  /** True once the raw `connection` was handed out: a lease then keeps the file until `close`. */
  #pinned = false;
  #idle: NodeJS.Timeout | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #sideQueue: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** Set once `close` has drained the queues: no operation may open the file again. */
  #shut = false;
  #memoryLimit: string | undefined;
  #compactionDeferred = false;
  #opens = 1;

  private constructor(home: string, store: ContentStore, file: DuckdbFile, options: ResolvedCatalogOptions, tempCleanup: TempCleanup) {
    this.home = home;
    this.file = path.join(home, CATALOG_FILE);
    this.store = store;
    this.readOnly = options.readOnly;
    this.hold = options.hold;
    this.tempCleanup = tempCleanup;
    this.userWrites = options.userWrites;
    this.#options = options;
    this.#file = { ...file, side: undefined };
    this.#scheduleRelease();
  }

  /**
   * Opens (creating and migrating) the catalog in `home`. Waits up to `busyTimeoutMs` while another
   * process holds the file (telling `onWait` after 1 s), then throws CatalogBusyError naming the holder.
   * Read-write opens clean stale files from `store/tmp/`. Migrations and clean-up run here only, once per
   * Catalog, also for a lease (`hold: 'while-busy'`), whose later opens only open the file.
   */
  static async open(home: string, options: CatalogOptions = {}): Promise<Catalog> {
    const resolved = resolveCatalogOptions(options);
    const absoluteHome = path.resolve(home);
    const file = path.join(absoluteHome, CATALOG_FILE);
    let store: ContentStore;
    try {
      await makeFolder(absoluteHome);
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
    // A new catalog appears complete or not at all (a kill while DuckDB creates a file leaves it unreadable).
    const created = await createCatalogFile(file, resolved, resolved.now);
    if (resolved.readOnly) {
      // A read-only handle cannot migrate: do that first with a short read-write open.
      let current = created ? CATALOG_SCHEMA_VERSION : -1;
      if (!created) {
        const probe = await openDuckdbFile(file, true, resolved);
        try {
          current = await catalogSchemaVersion(probe.connection);
        } finally {
          closeDuckdbFile(file, probe);
        }
      }
      if (current < CATALOG_SCHEMA_VERSION) {
        // Migrations, then the backfill of row fingerprints (migration 4), as a read-write open does them.
        const writer = await Catalog.#openFile(absoluteHome, file, store, { ...resolved, readOnly: false, hold: 'always' });
        await writer.close();
      }
      return new Catalog(absoluteHome, store, await openDuckdbFile(file, true, resolved), resolved, { removed: [], kept: [] });
    }

    const opened = await openDuckdbFile(file, false, resolved);
    let catalog: Catalog;
    let applied: number[];
    try {
      applied = await runMigrations(opened.connection, resolved.now());
      // Safe now: this process holds the catalog's lock, so no other rdw is downloading into store/tmp.
      const cleanup = await store.cleanTemp(resolved.now().getTime(), resolved.maxPartialAgeMs);
      catalog = new Catalog(absoluteHome, store, opened, resolved, cleanup);
    } catch (error) {
      closeDuckdbFile(file, opened);
      throw error;
    }
    // Releases imported before rdw recorded row fingerprints get theirs from their verified stored files, once:
    // in the open that adds the column (what it leaves, `rdw verify` reports and `verify --repair` mends).
    if (applied.includes(ROWS_FINGERPRINT_MIGRATION)) await backfillRowsFingerprints(catalog).catch(async (error: unknown) => {
      await catalog.close();
      throw error;
    });
    return catalog;
  }

  /** The clock of this catalog (imported_at, listings). */
  now(): Date {
    return this.#options.now();
  }

  /** True while the DuckDB file is open (always until `close` with `hold: 'always'`). */
  get fileOpen(): boolean {
    return this.#file !== undefined;
  }

  /** How many times this Catalog opened the DuckDB file (1 with `hold: 'always'`). */
  get fileOpens(): number {
    return this.#opens;
  }

  /**
   * The DuckDB connection, for a user's own code (other layers read through the catalog's read API, e.g.
   * `readMarketEvents`). Writes must go through `transaction`, and concurrent use should go through
   * `exclusive` or `read`, which serialize every use of the one connection. With `hold: 'while-busy'` it
   * is a stand-in whose (async) methods open the file and keep it open until `close`: a raw connection
   * may carry temporary views or a transaction from one call to the next, so the lease stops letting go.
   * On a catalog that refuses user writes it offers the run methods only, each call in its own read-only
   * transaction in the queue (`userConnection`).
   */
  get connection(): DuckDBConnection {
    if (this.userWrites === 'refused') {
      // Each call its own read-only transaction in the queue; the lease keeps the file (temporary views stay).
      this.#pinned = true;
      return userConnection((fn) => this.#exclusive((connection) => inReadOnlyTransaction(connection, () => fn(connection))));
    }
    if (this.hold === 'always') return this.#file!.connection;
    this.#pinned = true;
    return new Proxy({} as DuckDBConnection, {
      get: (_target, name) =>
        typeof name === 'symbol' || name === 'then'
          ? undefined
          : (...args: unknown[]) =>
              this.#acquire().then((file) => (file.connection as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args)),
    });
  }

  /**
   * Runs `fn` with the connection, after every earlier `exclusive`/`query`/`transaction` call finished. On a
   * catalog that refuses user writes, `fn` runs inside a read-only transaction with a connection offering the
   * run methods only (`userConnection`): a write throws CatalogReadOnlyError (exit 2).
   */
  exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.userWrites === 'allowed') return this.#exclusive(fn);
    return this.#exclusive((connection) => inReadOnlyTransaction(connection, () => fn(userConnection((run) => run(connection)))));
  }

  /** `exclusive` for rdw's own operations: the plain connection, whatever `userWrites` says. */
  #exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#use((file) => fn(file.connection)));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs a read-only statement on a second connection of the same database, beside the writer queue:
   * for checks that read data files (`DESCRIBE read_parquet(…)`) while another release is importing.
   * Reads of catalog tables see committed data only. `T` names the row's shape, as for `query`.
   */
  sideQuery<T = CatalogRow>(sql: string, parameters?: SqlParameters): Promise<T[]> {
    return this.#afterSideQueries(() =>
      this.#use(async (file) => {
        file.side ??= file.instance.connect();
        const side = await file.side;
        const read = async (connection: DuckDBConnection) => (await connection.runAndReadAll(sql, parameters)).getRowObjectsJson() as T[];
        if (this.userWrites === 'allowed') return read(side);
        return inReadOnlyTransaction(side, () => read(userConnection((run) => run(side))));
      }),
    );
  }

  /** Runs `fn` after every earlier side query finished; later side queries wait for it. */
  #afterSideQueries<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#sideQueue.then(fn);
    this.#sideQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs one SQL statement and returns its rows as JSON-friendly objects (CatalogRow says how each type
   * arrives). `T` names a row's shape for TypeScript, e.g. `query<{ n: number }>('SELECT 1 AS n')`; it is
   * the caller's word, not checked at run time (`count(*)` is a BIGINT, so a string). Default: CatalogRow.
   * The catalog's own Market Events rows, typed from the contract: `readMarketEventRows`.
   */
  query<T = CatalogRow>(sql: string, parameters?: SqlParameters): Promise<T[]> {
    return this.exclusive(async (connection) => {
      const reader = await connection.runAndReadAll(sql, parameters);
      return reader.getRowObjectsJson() as T[];
    });
  }

  /**
   * Runs one SQL statement and returns its rows as an Apache Arrow table typed from DuckDB's result
   * types (DOUBLE → Float64, BIGINT → Int64, DATE → DateDay, TIMESTAMP → Timestamp(µs, UTC), NULLs kept;
   * catalog-arrow.ts). `T` names the columns' Arrow types for TypeScript (default: any column, any type).
   * @throws CatalogOptionError (exit 2) for a column type with no Arrow column here (LIST, STRUCT, INTERVAL …).
   */
  arrow<T extends TypeMap = TypeMap>(sql: string, parameters?: SqlParameters): Promise<Table<T>> {
    return this.exclusive((connection) => readArrowTable<T>(connection, sql, parameters));
  }

  /**
   * Runs `fn` in the queue inside a read-only transaction (`BEGIN TRANSACTION READ ONLY`): every statement
   * of `fn` sees one snapshot, and any write throws. Temporary views are allowed. Ends with ROLLBACK.
   */
  read<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION READ ONLY');
      try {
        return await fn(connection);
      } finally {
        await connection.run('ROLLBACK').catch(() => {});
      }
    });
  }

  /**
   * Runs `fn` inside BEGIN … COMMIT; any throw rolls back and rethrows. One writer at a time. On a catalog
   * that refuses user writes it throws CatalogReadOnlyError (rdw's own writes use `writeTransaction`).
   */
  transaction<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.userWrites === 'refused') return Promise.reject(new CatalogReadOnlyError(catalogMessages.userWriteRefused()));
    return this[OWN_TRANSACTION](fn);
  }

  /** The transaction of rdw's own writes (writeTransaction). */
  [OWN_TRANSACTION]<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#exclusive(async (connection) => {
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
    return this.#exclusive((connection) =>
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
   * scan as fast as full ones. Later handles merge them again, one run per checkpoint. A lease applies it
   * again each time it opens the file.
   */
  async deferCompaction(): Promise<void> {
    this.#compactionDeferred = true;
    await this.#exclusive((connection) => connection.run('SET max_vacuum_tasks = 0'));
  }

  /** Closes the DuckDB handles (checkpointing the file). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    await this.#sideQueue;
    this.#shut = true;
    clearTimeout(this.#idle);
    await this.#opening?.catch(() => undefined);
    const file = this.#file;
    if (this.hold === 'while-busy') this.#file = undefined;
    if (file !== undefined) await this.#closeFile(file);
    await this.#closing;
  }

  /** Runs `fn` with the open file (opening it for a lease), counting it as a user so the lease keeps it. */
  async #use<T>(fn: (file: OpenFile) => Promise<T>): Promise<T> {
    this.#users += 1;
    clearTimeout(this.#idle);
    try {
      return await fn(await this.#acquire());
    } finally {
      this.#users -= 1;
      this.#scheduleRelease();
    }
  }

  /** The open file; a lease opens it again (waiting for the lock like `open`, without migrations). */
  #acquire(): Promise<OpenFile> {
    if (this.#file !== undefined) return Promise.resolve(this.#file);
    if (this.#shut) return Promise.reject(new RdwError(catalogMessages.closed(this.file)));
    this.#opening ??= this.#reopen().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #reopen(): Promise<OpenFile> {
    await this.#closing;
    const opened = await openDuckdbFile(this.file, this.readOnly, this.#options);
    try {
      if (this.#compactionDeferred) await opened.connection.run('SET max_vacuum_tasks = 0');
    } catch (error) {
      closeDuckdbFile(this.file, opened);
      throw error;
    }
    this.#opens += 1;
    this.#file = { ...opened, side: undefined };
    return this.#file;
  }

  /** A lease lets the file go `leaseIdleMs` after its last operation. */
  #scheduleRelease(): void {
    if (this.hold === 'always' || this.#pinned || this.#closed || this.#users > 0 || this.#file === undefined) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#releaseIfIdle(), this.#options.leaseIdleMs);
  }

  #releaseIfIdle(): void {
    this.#idle = undefined;
    const file = this.#file;
    if (this.#users > 0 || this.#pinned || this.#closed || file === undefined) return;
    // A pull of this process may be writing into store/tmp/ (its pins): another process's read-write
    // open would clean that folder, so the file stays held until the pull has settled.
    if (this.store.busy) return this.#scheduleRelease();
    this.#file = undefined;
    const closing = this.#closing.then(() => this.#closeFile(file));
    this.#closing = closing.catch(() => undefined);
  }

  async #closeFile(file: OpenFile): Promise<void> {
    const side = await file.side?.catch(() => undefined);
    side?.closeSync();
    closeDuckdbFile(this.file, file);
  }
}

/**
 * rdw's own writes to its tables (imports, re-imports, listings, snapshots, sync runs, row fingerprints): BEGIN …
 * COMMIT in the catalog's queue, also on a catalog that refuses user writes. Not exported by the package.
 */
export function writeTransaction<T>(catalog: Catalog, fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  return catalog[OWN_TRANSACTION](fn);
}
