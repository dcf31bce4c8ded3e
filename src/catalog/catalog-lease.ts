// A catalog's hold on its DuckDB file. With `hold: 'always'` the file stays open until `close`; with
// 'while-busy' it is a lease: opened for each operation (`use`) and let go `leaseIdleMs` after the last one,
// so other processes get in between. A borrowed raw connection (`borrow`) keeps it until `close`.

import type { DuckDBConnection } from '@duckdb/node-api';
import { RdwError } from '../contract/index.js';
import type { CatalogHold, ResolvedCatalogOptions } from './catalog-options.js';
import { catalogMessages } from './messages.js';
import { closeDuckdbFile, openDuckdbFile, type DuckdbFile } from './open-duckdb-file.js';

/** An open catalog file, with the second connection `Catalog.sideQuery` opens on first use. */
export interface OpenFile extends DuckdbFile {
  side: Promise<DuckDBConnection> | undefined;
}

/** The statement a lease runs on each file it opens again after `deferCompaction` (see Catalog.deferCompaction). */
const NO_VACUUM = 'SET max_vacuum_tasks = 0';

export class CatalogLease {
  /** `<home>/catalog.duckdb`. */
  readonly file: string;
  readonly hold: CatalogHold;
  readonly #readOnly: boolean;
  readonly #options: ResolvedCatalogOptions;
  /** True while this process pins store files (a pull writing into store/tmp/): the file is not let go. */
  readonly #storeBusy: () => boolean;
  /** The open file; undefined while the lease has let it go. */
  #open: OpenFile | undefined;
  #opening: Promise<OpenFile> | undefined;
  #closing: Promise<void> = Promise.resolve();
  /** Operations running on the file now (queued ones and side queries). */
  #users = 0;
  /** True once a raw connection was borrowed: the lease then keeps the file until `close`. */
  #pinned = false;
  #idle: NodeJS.Timeout | undefined;
  /** Set when `close` begins: the file is no longer let go. */
  #closed = false;
  /** Set once `close` has drained the queues: no operation may open the file again. */
  #shut = false;
  #compactionDeferred = false;
  #opens = 1;

  /** Takes over `opened` (the file as `openCatalog` opened and migrated it); a lease starts its idle timer. */
  constructor(file: string, opened: DuckdbFile, options: ResolvedCatalogOptions, storeBusy: () => boolean) {
    this.file = file;
    this.hold = options.hold;
    this.#readOnly = options.readOnly;
    this.#options = options;
    this.#storeBusy = storeBusy;
    this.#open = { ...opened, side: undefined };
    this.#scheduleRelease();
  }

  /** True while the DuckDB file is open. */
  get fileOpen(): boolean {
    return this.#open !== undefined;
  }

  /** How many times the DuckDB file was opened (1 with `hold: 'always'`). */
  get fileOpens(): number {
    return this.#opens;
  }

  /** Runs `fn` with the open file (opening it again for a lease), counted as a user so the lease keeps it meanwhile. */
  async use<T>(fn: (file: OpenFile) => Promise<T>): Promise<T> {
    this.#users += 1;
    clearTimeout(this.#idle);
    try {
      return await fn(await this.#acquire());
    } finally {
      this.#users -= 1;
      this.#scheduleRelease();
    }
  }

  /**
   * Keeps the file open until `close` from now on: a raw connection handed to a user's code may carry
   * temporary views or a transaction from one call to the next, which a closed file would lose.
   */
  pin(): void {
    this.#pinned = true;
  }

  /** The raw connection, borrowed until `close`: pins the lease and opens the file when it was let go. */
  async borrow(): Promise<DuckDBConnection> {
    this.pin();
    return (await this.#acquire()).connection;
  }

  /** The open file's connection, now: with `hold: 'always'` the file is open from `openCatalog` to `close`. */
  heldConnection(): DuckDBConnection {
    return this.#open!.connection;
  }

  /** Every later open of the file turns vacuum off too (the open one is the caller's: Catalog.deferCompaction). */
  deferCompaction(): void {
    this.#compactionDeferred = true;
  }

  /**
   * Closes the file (checkpointing it) once `drain` (the caller's queued operations) has finished, and refuses
   * to open it again. Operations queued before still run (a lease opens the file for them); none lets it go.
   */
  async close(drain: () => Promise<unknown>): Promise<void> {
    this.#closed = true;
    await drain();
    this.#shut = true;
    clearTimeout(this.#idle);
    await this.#opening?.catch(() => undefined);
    const open = this.#open;
    if (this.hold === 'while-busy') this.#open = undefined;
    if (open !== undefined) await this.#closeFile(open);
    await this.#closing;
  }

  /** The open file; a lease opens it again (waiting for the lock like `openCatalog`, without migrations). */
  #acquire(): Promise<OpenFile> {
    if (this.#open !== undefined) return Promise.resolve(this.#open);
    if (this.#shut) return Promise.reject(new RdwError(catalogMessages.closed(this.file)));
    this.#opening ??= this.#reopen().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #reopen(): Promise<OpenFile> {
    await this.#closing;
    const opened = await openDuckdbFile(this.file, this.#readOnly, this.#options);
    try {
      if (this.#compactionDeferred) await opened.connection.run(NO_VACUUM);
    } catch (error) {
      closeDuckdbFile(this.file, opened);
      throw error;
    }
    this.#opens += 1;
    this.#open = { ...opened, side: undefined };
    return this.#open;
  }

  /** A lease lets the file go `leaseIdleMs` after its last operation. */
  #scheduleRelease(): void {
    if (this.hold === 'always' || this.#pinned || this.#closed || this.#users > 0 || this.#open === undefined) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#releaseIfIdle(), this.#options.leaseIdleMs);
  }

  #releaseIfIdle(): void {
    this.#idle = undefined;
    const open = this.#open;
    if (this.#users > 0 || this.#pinned || this.#closed || open === undefined) return;
    // A pull of this process may be writing into store/tmp/ (its pins): another process's read-write
    // open would clean that folder, so the file stays held until the pull has settled.
    if (this.#storeBusy()) return this.#scheduleRelease();
    this.#open = undefined;
    const closing = this.#closing.then(() => this.#closeFile(open));
    this.#closing = closing.catch(() => undefined);
  }

  async #closeFile(open: OpenFile): Promise<void> {
    const side = await open.side?.catch(() => undefined);
    side?.closeSync();
    closeDuckdbFile(this.file, open);
  }
}
