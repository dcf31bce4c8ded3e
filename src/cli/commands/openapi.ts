// `rdw openapi`: prints the OpenAPI 3.1 description of the whole API, generated from the contract (src/contract).
// Offline: no key, no server. `--base-url` / RDW_BASE_URL and RDW_SITE_URL fill the server defaults (a base
// URL without /v1 is refused naming the setting, exit 2).

// Not through the workbench's index: that would load the client's transport (and DuckDB) for a command that writes a
// document; this file holds only the refusal, the client's sentences and errors (the one exception of the CLI's
// import rule, test/architecture/cli-imports.test.ts).
import { refuseSecretsInUrls } from '../../client/refuse-secrets-in-urls.js';
import { openApiJson, UsageError } from '../../contract/index.js';
import { CliUsageError } from '../cli-errors.js';
import { cliMessages } from '../messages.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';

export const openapiCommand: Command = {
  name: 'openapi',
  line: COMMAND_LINES.openapi,
  async run(context) {
    // A key in the URL (user@, a query, …) would be written into the document: refused as every command does.
    refuseSecretsInUrls({ baseUrl: context.baseUrl, siteUrl: context.siteUrl, apiKey: context.env.RDW_API_KEY });
    // The document is JSON either way: --json prints the same bytes.
    let document: string;
    try {
      document = openApiJson({
        ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
        ...(context.siteUrl === undefined ? {} : { siteUrl: context.siteUrl }),
      });
    } catch (error) {
      // The setting to fix is RDW_BASE_URL or --base-url (the other commands' sentence).
      if (error instanceof UsageError && error.option === 'baseUrl' && context.baseUrl !== undefined) {
        throw new CliUsageError(cliMessages.badBaseUrl(context.baseUrl), { option: 'base-url', cause: error });
      }
      throw error;
    }
    context.stdout.write(document);
  },
};
