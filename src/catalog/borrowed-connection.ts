// The `connection` a catalog hands to a user's code when it cannot hand out the open DuckDB connection itself:
// a lease's (the file may be closed right now) or a catalog's that refuses user writes (each call in a
// read-only transaction in the queue). Each method borrows the real connection for one call, as its `borrow` says.

import type {
  DuckDBAppender,
  DuckDBClientContext,
  DuckDBConnection,
  DuckDBExtractedStatements,
  DuckDBPreparedStatement,
} from '@duckdb/node-api';
import { CatalogOptionError, CatalogReadOnlyError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import { refuseTransactionStatements, USER_CONNECTION_METHODS } from './user-connection.js';

/** Runs `fn` with the real connection for one call (opening the file, queueing it, wrapping it in a transaction…). */
export type Borrow = <T>(fn: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;

/**
 * 'all': every async method of DuckDBConnection (a lease's connection). 'reads': USER_CONNECTION_METHODS only,
 * each refusing transaction statements (a catalog that refuses user writes); any other throws CatalogReadOnlyError.
 */
export type BorrowedMethods = 'all' | 'reads';

/** The async methods of DuckDBConnection: each returns a promise, so it can wait for the borrowed connection. */
type AsyncMethod = {
  [K in keyof DuckDBConnection]: DuckDBConnection[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof DuckDBConnection];

type Call<K extends AsyncMethod> = Parameters<DuckDBConnection[K]>;
type Answer<K extends AsyncMethod> = ReturnType<DuckDBConnection[K]>;

/**
 * A DuckDBConnection stand-in whose methods borrow the real connection for one call. Its synchronous members
 * (interrupt, closeSync, getTableNames, register…, progress, clientContext) need the open connection at once
 * and throw: `catalog.exclusive(fn)` hands it to `fn`.
 */
export class BorrowedConnection implements Pick<DuckDBConnection, keyof DuckDBConnection> {
  readonly #borrow: Borrow;
  readonly #methods: BorrowedMethods;

  constructor(borrow: Borrow, methods: BorrowedMethods) {
    this.#borrow = borrow;
    this.#methods = methods;
  }

  /** This object where a DuckDBConnection is expected: it has every public member (the class's private ones aside). */
  asConnection(): DuckDBConnection {
    return this as unknown as DuckDBConnection;
  }

  run(...args: Call<'run'>): Answer<'run'> { return this.#call('run', args); }
  runAndRead(...args: Call<'runAndRead'>): Answer<'runAndRead'> { return this.#call('runAndRead', args); }
  runAndReadAll(...args: Call<'runAndReadAll'>): Answer<'runAndReadAll'> { return this.#call('runAndReadAll', args); }
  runAndReadUntil(...args: Call<'runAndReadUntil'>): Answer<'runAndReadUntil'> { return this.#call('runAndReadUntil', args); }
  stream(...args: Call<'stream'>): Answer<'stream'> { return this.#call('stream', args); }
  streamAndRead(...args: Call<'streamAndRead'>): Answer<'streamAndRead'> { return this.#call('streamAndRead', args); }
  streamAndReadAll(...args: Call<'streamAndReadAll'>): Answer<'streamAndReadAll'> { return this.#call('streamAndReadAll', args); }
  streamAndReadUntil(...args: Call<'streamAndReadUntil'>): Answer<'streamAndReadUntil'> { return this.#call('streamAndReadUntil', args); }
  start(...args: Call<'start'>): Answer<'start'> { return this.#call('start', args); }
  startThenRead(...args: Call<'startThenRead'>): Answer<'startThenRead'> { return this.#call('startThenRead', args); }
  startThenReadAll(...args: Call<'startThenReadAll'>): Answer<'startThenReadAll'> { return this.#call('startThenReadAll', args); }
  startThenReadUntil(...args: Call<'startThenReadUntil'>): Answer<'startThenReadUntil'> { return this.#call('startThenReadUntil', args); }
  startStream(...args: Call<'startStream'>): Answer<'startStream'> { return this.#call('startStream', args); }
  startStreamThenRead(...args: Call<'startStreamThenRead'>): Answer<'startStreamThenRead'> { return this.#call('startStreamThenRead', args); }
  startStreamThenReadAll(...args: Call<'startStreamThenReadAll'>): Answer<'startStreamThenReadAll'> { return this.#call('startStreamThenReadAll', args); }
  startStreamThenReadUntil(...args: Call<'startStreamThenReadUntil'>): Answer<'startStreamThenReadUntil'> { return this.#call('startStreamThenReadUntil', args); }
  prepare(sql: string): Promise<DuckDBPreparedStatement> { return this.#call('prepare', [sql]); }
  extractStatements(sql: string): Promise<DuckDBExtractedStatements> { return this.#call('extractStatements', [sql]); }
  createAppender(...args: Call<'createAppender'>): Promise<DuckDBAppender> { return this.#call('createAppender', args); }

  closeSync(): void { throw this.#refusal('closeSync'); }
  disconnectSync(): void { throw this.#refusal('disconnectSync'); }
  interrupt(): void { throw this.#refusal('interrupt'); }
  getTableNames(): readonly string[] { throw this.#refusal('getTableNames'); }
  registerTableFunction(): void { throw this.#refusal('registerTableFunction'); }
  registerScalarFunction(): void { throw this.#refusal('registerScalarFunction'); }
  getClientContext(): DuckDBClientContext { throw this.#refusal('getClientContext'); }
  get clientContext(): DuckDBClientContext { throw this.#refusal('clientContext'); }
  get progress(): DuckDBConnection['progress'] { throw this.#refusal('progress'); }

  /** Runs method `name` on the borrowed connection; 'reads' refuses other methods and transaction statements. */
  #call<K extends AsyncMethod>(name: K, args: Call<K>): Answer<K> {
    if (this.#methods === 'reads' && !USER_CONNECTION_METHODS.has(name)) throw this.#refusal(name);
    return this.#borrow(async (connection) => {
      if (this.#methods === 'reads') await refuseTransactionStatements(connection, args[0]);
      return (connection[name] as (...given: unknown[]) => Promise<unknown>).apply(connection, args);
    }) as Answer<K>;
  }

  /** The error of a member this connection does not offer. */
  #refusal(name: string): Error {
    if (this.#methods === 'reads') return new CatalogReadOnlyError(catalogMessages.userMethodRefused(name, [...USER_CONNECTION_METHODS]));
    return new CatalogOptionError(catalogMessages.borrowedMemberRefused(name), { option: 'connection' });
  }
}
