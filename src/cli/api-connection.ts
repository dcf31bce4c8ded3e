// The API a command talks to: delegates to src/workbench's connectApi with the command's context
// (RDW_BASE_URL/--base-url with RDW_API_KEY, or else the embedded mock, announced on stderr).

import { isFolder } from '../base/index.js';
import { connectApi as connectWorkbenchApi, ApiKeyMissingError, workbenchMessages, type ApiConnection } from '../workbench/index.js';
import { UsageError } from '../contract/index.js';
import type { CliContext } from './cli-context.js';
import { cliMessages } from './messages.js';

export { ApiKeyMissingError };
export type { ApiConnection };

/**
 * Writes a client notice (a wait, a retry, a redirect, assumed limits) to stderr: after `rdw: `, as every line the
 * CLI says; under --json without it (each line becomes a notice object). Every command that makes a client uses it.
 */
export function writeClientNotice(context: Pick<CliContext, 'json' | 'stderr'>, message: string): void {
  context.stderr.write(`${context.json ? '' : 'rdw: '}${message}\n`);
}

export interface ConnectApiOptions {
  /**
   * The command keeps nothing in the home (rdw research): the client's shared state goes to `context.home` only when
   * that folder exists, else it stays in memory, so such a command makes no home (docs/cli.md lists those that do).
   */
  homeIfPresent?: boolean;
}

/**
 * Connects to `context.baseUrl` with RDW_API_KEY, or, without a base URL, starts the embedded mock on
 * a free port (noted on stderr unless --json). Shared client state lives in `context.home`. Client notices
 * are written to stderr, one line each. The key is never printed.
 */
export async function connectApi(context: CliContext, options: ConnectApiOptions = {}): Promise<ApiConnection> {
  try {
    const home = options.homeIfPresent === true && !(await isFolder(context.home)) ? undefined : context.home;
    return await openConnection(context, home);
  } catch (error) {
    throw settingError(error, context);
  }
}

/**
 * The client refuses a base or site URL that is not an API root / http(s) URL ("…/v1") in library terms; on the command line
 * the setting to fix is RDW_BASE_URL or --base-url, so that is what the sentence names. Other errors as they are.
 */
export function settingError(error: unknown, context: CliContext): unknown {
  if (error instanceof UsageError && error.code !== 'RDW_URL_CREDENTIALS' && error.option === 'baseUrl' && context.baseUrl !== undefined) {
    return new UsageError(cliMessages.badBaseUrl(context.baseUrl), { option: 'baseUrl', cause: error });
  }
  // The same for RDW_SITE_URL: the client's sentence said "pass {site_url}", naming no setting.
  if (error instanceof UsageError && error.code !== 'RDW_URL_CREDENTIALS' && error.option === 'siteUrl' && context.siteUrl !== undefined) {
    return new UsageError(cliMessages.badSiteUrl(context.siteUrl), { option: 'siteUrl', cause: error });
  }
  return error;
}

function openConnection(context: CliContext, home: string | undefined): Promise<ApiConnection> {
  return connectWorkbenchApi({
    env: context.env,
    home,
    ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
    ...(context.siteUrl === undefined ? {} : { siteUrl: context.siteUrl }),
    ...(context.json ? {} : { onEmbedded: (baseUrl: string) => context.stderr.write(`${workbenchMessages.embeddedMock(baseUrl)}\n`) }),
    // Its building runs in this process (in slices), so the mock says the wait itself (every wait over a second).
    // `rdw: ` as the mock's address line has it (under --json the line is a notice object, without it).
    mock: { onSlowBuild: ({ built, total, seconds }) => context.stderr.write(`${context.json ? '' : 'rdw: '}${workbenchMessages.embeddedMockBuilding(built, total, seconds)}\n`) },
    // Client notices (limits assumed, pacing/429/retry waits, redirects) go to stderr (above a progress bar when a
    // command draws one), also with --json (stdout stays the document).
    onNotice: (notice) => writeClientNotice(context, notice.message),
  });
}
