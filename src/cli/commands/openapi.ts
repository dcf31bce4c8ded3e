// `rdw openapi`: prints the OpenAPI 3.1 description of the whole API, generated from the contract (src/contract).
// Offline: no key, no server. `--base-url` / RDW_BASE_URL and RDW_SITE_URL fill the server defaults.

import { openApiJson } from '../../contract/index.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';

export const openapiCommand: Command = {
  name: 'openapi',
  line: COMMAND_LINES.openapi,
  async run(context) {
    // The document is JSON either way: --json prints the same bytes.
    context.stdout.write(
      openApiJson({
        ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
        ...(context.siteUrl === undefined ? {} : { siteUrl: context.siteUrl }),
      }),
    );
  },
};
