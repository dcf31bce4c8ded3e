// openWorkbench: catalog + API client (+ embedded mock) from an env object — what a notebook or study
// script opens first. The one config module besides src/cli; it never reads process.env itself.

import { openCatalog, type Catalog, type CatalogHold, type CatalogWaitNotice } from '../catalog/index.js';
import type { ClientNotice, RdwClient } from '../client/index.js';
import type { MockServer } from '../mock/index.js';
import { connectApi, once, type EmbeddedMockOptions } from './connect-api.js';
import { resolveHome } from './resolve-home.js';
import { checkStoreUrl, useTeamStore } from './use-team-store.js';
import type { TeamStore } from '../store/index.js';
import { snapshotHistoryMethods, type SnapshotHistoryMethods } from './snapshot-history.js';

export interface WorkbenchOptions {
  /** RDW_BASE_URL, RDW_SITE_URL, RDW_API_KEY, RDW_ACCOUNT, RDW_HOME. Default `{}`: the embedded mock, `./datasets`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default env.RDW_HOME, else `./datasets`, resolved against the working directory; '' is refused (resolveHome). */
  home?: string;
  /** Embedded mock options (used only without RDW_BASE_URL). Default: the mock's defaults. */
  mock?: EmbeddedMockOptions;
  /** Open the catalog read-only (no pulls). Default false. */
  readOnly?: boolean;
  /**
   * What a person should know while the client works: every wait of 1 s or more (pacing, a 429's
   * Retry-After, a retry) with its reason and length, limits assumed, a redirect. Default: one line each
   * on the process's stderr (a notebook shows it under the cell).
   */
  onNotice?: (notice: ClientNotice) => void;
  /**
   * How the catalog holds its DuckDB file. Default 'while-busy': opened for each operation and closed 250 ms
   * after the last, so a notebook left open never keeps `rdw pull` or `rdw ls` in a terminal out
   * (docs/catalog.md "Many readers, one writer"); 'always' holds it until `close`.
   */
  hold?: CatalogHold;
  /** Told when the catalog waits for another holder (after 1 s, then every 5 s). Default: one line on stderr. */
  onCatalogWait?: (notice: CatalogWaitNotice) => void;
}

/** The default notice listener: one line on stderr. */
const noticeToStderr = (notice: ClientNotice): void => void process.stderr.write(`${notice.message}\n`);

/** Catalog + client of a notebook or study script, with the local snapshot history (SnapshotHistoryMethods). */
export interface Workbench extends SnapshotHistoryMethods {
  /** Absolute home folder. */
  readonly home: string;
  readonly client: RdwClient;
  /**
   * The catalog, refusing writes to rdw's tables (`userWrites: 'refused'`): `query`, `arrow`, `exclusive` and
   * `connection` run your SQL in a read-only transaction (CatalogReadOnlyError, exit 2, on a write). For tables
   * of your own use CREATE TEMP TABLE (kept while the catalog is open) or a DuckDB database of your own.
   */
  readonly catalog: Catalog;
  /** True when the embedded mock serves it. */
  readonly embedded: boolean;
  /** The embedded mock (undefined against a real service). */
  readonly mock: MockServer | undefined;
  /** Closes the catalog, the client and the mock. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the catalog in the home folder (waiting, with a bound, while another process holds it) and
 * connects to the API: RDW_BASE_URL + RDW_API_KEY from `options.env`, else the embedded mock.
 * @throws WorkbenchOptionError (exit 2) for an empty home or RDW_HOME, ApiKeyMissingError (exit 4), CatalogBusyError (exit 1).
 */
export async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const env = options.env ?? {};
  const home = resolveHome({ flag: options.home, env });
  if (options.readOnly !== true) checkStoreUrl(env);
  const catalog = await openCatalog(home, {
    readOnly: options.readOnly === true,
    hold: options.hold ?? 'while-busy',
    // A notebook's SQL reads: rdw's tables hold exactly the rows imported from verified files (docs/locks.md).
    userWrites: 'refused',
    onWait: options.onCatalogWait ?? ((notice) => void process.stderr.write(`rdw: ${notice.message}\n`)),
  });
  let api;
  let team: TeamStore | undefined;
  try {
    // RDW_STORE_URL: pulls read the team store first and publish to it (notices on stderr, as the client's).
    if (options.readOnly !== true) team = await useTeamStore(catalog, { env, onNotice: (sentence) => void process.stderr.write(`rdw: ${sentence}\n`) });
    api = await connectApi({ env, home, onNotice: options.onNotice ?? noticeToStderr, ...(options.mock === undefined ? {} : { mock: options.mock }) });
  } catch (error) {
    team?.close();
    await catalog.close();
    throw error;
  }
  const connection = api;
  return {
    home,
    client: connection.client,
    catalog,
    embedded: connection.embedded,
    mock: connection.mock,
    ...snapshotHistoryMethods(catalog, connection.client),
    close: once(async () => {
      try {
        await catalog.close();
      } finally {
        team?.close();
        await connection.close();
      }
    }),
  };
}
