// `rdw openapi`: prints the OpenAPI 3.1 description of the whole API, generated from the contract (src/contract).
// Offline: no key, no server. `--base-url` / RDW_BASE_URL and RDW_SITE_URL fill the server defaults.

import { refuseSecretsInUrls } from '../../client/index.js';
import { openApiJson } from '../../contract/index.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';

export const openapiCommand: Command = {
  name: 'openapi',
  line: COMMAND_LINES.openapi,
  async run(context) {
    // A key in the URL (user@, a query, …) would be written into the document: refused as every command does.
    refuseSecretsInUrls({ baseUrl: context.baseUrl, siteUrl: context.siteUrl, apiKey: context.env.RDW_API_KEY });
    // The document is JSON either way: --json prints the same bytes.
    context.stdout.write(
      openApiJson({
        ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
        ...(context.siteUrl === undefined ? {} : { siteUrl: context.siteUrl }),
      }),
    );
  },
};
