// openWorkbench: catalog + API client (+ embedded mock) from an env object — what a notebook or study
// script opens first. The one config module besides src/cli; it never reads process.env itself.

import { openCatalog, type Catalog } from '../catalog/index.js';
import type { RdwClient } from '../client/index.js';
import type { MockServer } from '../mock/index.js';
import { connectApi, once, type EmbeddedMockOptions } from './connect-api.js';
import { resolveHome } from './resolve-home.js';
import { snapshotHistoryMethods, type SnapshotHistoryMethods } from './snapshot-history.js';

export interface WorkbenchOptions {
  /** RDW_BASE_URL, RDW_SITE_URL, RDW_API_KEY, RDW_HOME. Default `{}`: the embedded mock, `./datasets`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default env.RDW_HOME, else `./datasets`, resolved against the working directory; '' is refused (resolveHome). */
  home?: string;
  /** Embedded mock options (used only without RDW_BASE_URL). Default: the mock's defaults. */
  mock?: EmbeddedMockOptions;
  /** Open the catalog read-only (no pulls). Default false. */
  readOnly?: boolean;
}

/** Catalog + client of a notebook or study script, with the local snapshot history (SnapshotHistoryMethods). */
export interface Workbench extends SnapshotHistoryMethods {
  /** Absolute home folder. */
  readonly home: string;
  readonly client: RdwClient;
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
  const catalog = await openCatalog(home, { readOnly: options.readOnly === true });
  let api;
  try {
    api = await connectApi({ env, home, ...(options.mock === undefined ? {} : { mock: options.mock }) });
  } catch (error) {
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
        await connection.close();
      }
    }),
  };
}
