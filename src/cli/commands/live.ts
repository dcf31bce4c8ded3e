// `rdw live <PAGE_KEY> [--csv]`: the public live scope. No key is needed or sent; a page in another JSON
// shape is shown as what it is (src/cli/document-view.ts). Without a page key, or with one the service does
// not serve (404), it names the live pages the spec gives (the API has no listing of them).

import { createClient, errors, type RdwClient } from '../../index.js';
import { RESEARCH_DATASETS } from '../../contract/index.js';
import { networkSettings } from '../../workbench/index.js';
import { connectApi, settingError, writeClientNotice } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { writeCsvTable, writeDocument } from '../document-view.js';

/** The page keys of the spec's live pages (contract: a research dataset's live_page_key), in the contract's order. */
export function livePageKeys(): string[] {
  return RESEARCH_DATASETS.flatMap((dataset) => (dataset.live_page_key === undefined ? [] : [dataset.live_page_key]));
}

export const liveCommand: Command = {
  name: 'live',
  line: COMMAND_LINES.live,
  async run(context, args) {
    const [pageKey, ...extra] = args.positionals;
    if (pageKey === undefined || extra.length > 0) throw new CliUsageError(commandMessages.liveUsage(livePageKeys()));
    // With a base URL the public pages need no key at all; without one, the embedded mock serves them.
    let client: RdwClient;
    // Its notices (a 429 wait, a redirect) go to stderr as every command's do.
    if (context.baseUrl !== undefined) {
      try {
        client = createClient({
          baseUrl: context.baseUrl,
          ...(context.siteUrl === undefined ? {} : { siteUrl: context.siteUrl }),
          ...networkSettings(context.env),
          onNotice: (notice) => writeClientNotice(context, notice.message),
        });
      } catch (error) {
        throw settingError(error, context);
      }
      context.onExit(() => client.close());
    } else {
      const api = await connectApi(context);
      context.onExit(() => api.close());
      client = api.client;
    }
    try {
      if (args.values.csv === true) writeCsvTable(context, await client.live.csv(pageKey));
      else writeDocument(context, pageKey, await client.live.json(pageKey));
    } catch (error) {
      // A real service may serve pages the spec does not name, so a key is asked for before it is judged; a 404
      // stays a not-found (exit 6, as rdw research get). A spec page's 404 means the host is wrong: the client says that.
      const keys = livePageKeys();
      if (error instanceof errors.ApiNotFoundError && !keys.includes(pageKey)) {
        throw new errors.ApiNotFoundError(commandMessages.livePageNotFound(pageKey, keys), { cause: error });
      }
      throw error;
    }
  },
};
