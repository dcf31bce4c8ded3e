// A local catalog: the DuckDB file `<home>/catalog.duckdb` plus the content store `<home>/store/` (DESIGN.md 2.4),
// opened by `openCatalog`. Every use of the file goes through one queue (and a second one for side queries);
// the file itself is held by a CatalogLease (always, or while busy).

import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Table, TypeMap } from 'apache-arrow';
import { readArrowTable } from './catalog-arrow.js';
import { CatalogReadOnlyError } from './catalog-errors.js';
import type { CatalogLease } from './catalog-lease.js';
import type { CatalogHold, ResolvedCatalogOptions } from './catalog-options.js';
import type { CatalogRow, SqlParameters } from './catalog-row.js';
import { BorrowedConnection } from './borrowed-connection.js';
import type { ContentStore, TempCleanup } from './content-store.js';
import { catalogMessages } from './messages.js';
import { currentMemoryLimit, trimBlockCache } from './trim-block-cache.js';
import { inReadOnlyTransaction } from './user-connection.js';

/** The key of rdw's own write transaction (writeTransaction below), open also on a catalog that refuses user writes. */
export const OWN_TRANSACTION = Symbol('rdw catalog transaction');

/** DuckDB file name inside the home folder. */
export const CATALOG_FILE = 'catalog.duckdb';

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
  /** The catalog's hold on its DuckDB file: opened, let go and opened again by it alone. */
  readonly #lease: CatalogLease;
  #queue: Promise<unknown> = Promise.resolve();
  #sideQueue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #memoryLimit: string | undefined;

  /** Use `openCatalog`: it opens, migrates and checks the file, then hands it over in `lease`. No I/O here. */
  constructor(home: string, store: ContentStore, lease: CatalogLease, options: ResolvedCatalogOptions, tempCleanup: TempCleanup) {
    this.home = home;
    this.file = path.join(home, CATALOG_FILE);
    this.store = store;
    this.readOnly = options.readOnly;
    this.hold = options.hold;
    this.tempCleanup = tempCleanup;
    this.userWrites = options.userWrites;
    this.#options = options;
    this.#lease = lease;
  }

  /** The clock of this catalog (imported_at, listings). */
  now(): Date {
    return this.#options.now();
  }

  /** True while the DuckDB file is open (always until `close` with `hold: 'always'`). */
  get fileOpen(): boolean {
    return this.#lease.fileOpen;
  }

  /** How many times this Catalog opened the DuckDB file (1 with `hold: 'always'`). */
  get fileOpens(): number {
    return this.#lease.fileOpens;
  }

  /**
   * The DuckDB connection, for a user's own code (other layers read through the catalog's read API, e.g.
   * `readMarketEvents`). Writes must go through `transaction`, and concurrent use should go through
   * `exclusive` or `read`, which serialize every use of the one connection. With `hold: 'always'` it is the
   * open connection itself. With `hold: 'while-busy'` it is a BorrowedConnection whose async methods borrow
   * the file's connection (`CatalogLease.borrow`), opening the file when the lease has let it go; from the
   * first use of `connection` the lease keeps the file until `close`: a raw connection may carry temporary
   * views or a transaction from one call to the next. On a catalog that refuses user writes it offers the run
   * methods only, each call in its own read-only transaction in the queue (USER_CONNECTION_METHODS).
   */
  get connection(): DuckDBConnection {
    if (this.userWrites === 'refused') {
      // Each call its own read-only transaction in the queue; the lease keeps the file (temporary views stay).
      this.#lease.pin();
      const inQueue = <T>(fn: (connection: DuckDBConnection) => Promise<T>) =>
        this.#exclusive((connection) => inReadOnlyTransaction(connection, () => fn(connection)));
      return new BorrowedConnection(inQueue, 'reads').asConnection();
    }
    if (this.hold === 'always') return this.#lease.heldConnection();
    this.#lease.pin();
    return new BorrowedConnection(async (fn) => fn(await this.#lease.borrow()), 'all').asConnection();
  }

  /**
   * Runs `fn` with the connection, after every earlier `exclusive`/`query`/`transaction` call finished. On a
   * catalog that refuses user writes, `fn` runs inside a read-only transaction with a connection offering the
   * run methods only (BorrowedConnection 'reads'): a write throws CatalogReadOnlyError (exit 2).
   */
  exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.userWrites === 'allowed') return this.#exclusive(fn);
    return this.#exclusive((connection) => inReadOnlyTransaction(connection, () => fn(new BorrowedConnection(async (run) => run(connection), 'reads').asConnection())));
  }

  /** `exclusive` for rdw's own operations: the plain connection, whatever `userWrites` says. */
  #exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#lease.use((file) => fn(file.connection)));
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
      this.#lease.use(async (file) => {
        file.side ??= file.instance.connect();
        const side = await file.side;
        const read = async (connection: DuckDBConnection) => (await connection.runAndReadAll(sql, parameters)).getRowObjectsJson() as T[];
        if (this.userWrites === 'allowed') return read(side);
        return inReadOnlyTransaction(side, () => read(new BorrowedConnection(async (run) => run(side), 'reads').asConnection()));
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
    this.#lease.deferCompaction();
    await this.#exclusive((connection) => connection.run('SET max_vacuum_tasks = 0'));
  }

  /** Closes the DuckDB handles (checkpointing the file) once the queued operations have run. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#lease.close(async () => {
      await this.#queue;
      await this.#sideQueue;
    });
  }
}

/**
 * rdw's own writes to its tables (imports, re-imports, listings, snapshots, sync runs, row fingerprints): BEGIN …
 * COMMIT in the catalog's queue, also on a catalog that refuses user writes. Not exported by the package.
 */
export function writeTransaction<T>(catalog: Catalog, fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  return catalog[OWN_TRANSACTION](fn);
}
