// A scripted node:http server (not the mock), a temporary home with an open catalog, and a client of that server:
// the set-up of workbench tests that hold rdw's catalog against what a foreign service answers.

import { openCatalog, type Catalog } from '../../src/catalog/index.js';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { startScriptedServer, type Handler, type ScriptedServer } from './scripted-server.js';
import { createTempHome } from './temp-home.js';

export interface ScriptedCatalog {
  api: ScriptedServer;
  home: string;
  catalog: Catalog;
  /** A client of `api` with limits known (no /catalog needed before a request). */
  client: RdwClient;
  /** Closes the client, the catalog and the server, then removes the home. */
  close(): Promise<void>;
}

/** Starts the server answering with `handler`, makes the home and its catalog, and a client keyed with `apiKey`. */
export async function openScriptedCatalog(handler: Handler, apiKey: string): Promise<ScriptedCatalog> {
  const api = await startScriptedServer(handler);
  const temp = await createTempHome();
  const catalog = await openCatalog(temp.home);
  const client = createClient({ baseUrl: api.baseUrl, apiKey, knownLimits: { rpm: 6000, current: true } });
  return {
    api,
    home: temp.home,
    catalog,
    client,
    async close() {
      await client.close();
      await catalog.close();
      await api.close();
      await temp.remove();
    },
  };
}
