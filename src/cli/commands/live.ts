// `rdw live <PAGE_KEY> [--csv]`: the public live scope. No key is needed or sent; a page in another JSON
// shape is shown as what it is (src/cli/document-view.ts).

import { createClient, type RdwClient } from '../../index.js';
import { networkSettings } from '../../workbench/index.js';
import { connectApi, settingError, writeClientNotice } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { writeCsvTable, writeDocument } from '../document-view.js';

export const liveCommand: Command = {
  name: 'live',
  line: COMMAND_LINES.live,
  async run(context, args) {
    const [pageKey, ...extra] = args.positionals;
    if (pageKey === undefined || extra.length > 0) throw new CliUsageError(commandMessages.liveUsage());
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
    if (args.values.csv === true) writeCsvTable(context, await client.live.csv(pageKey));
    else writeDocument(context, pageKey, await client.live.json(pageKey));
  },
};
