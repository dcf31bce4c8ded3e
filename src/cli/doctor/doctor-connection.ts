// The API connection of `rdw doctor`: workbench's connectApi, the same choice as every command (RDW_BASE_URL
// with RDW_API_KEY, else the embedded mock with its seeded desk key), but without a home: the client keeps its
// pacing state in memory, so doctor writes nothing to RDW_HOME and works even when RDW_HOME is unusable.

import type { RdwClient } from '../../index.js';
import { connectApi, workbenchMessages } from '../../workbench/index.js';
import { writeClientNotice } from '../api-connection.js';
import type { CliContext } from '../cli-context.js';

export interface DoctorConnection {
  client: RdwClient;
  /** The base URL in use (the embedded mock's when RDW_BASE_URL is not set). */
  baseUrl: string;
  embedded: boolean;
}

/**
 * Connects to `baseUrl` with `apiKey`, or, when `baseUrl` is undefined, starts the embedded mock (noted on
 * stderr unless --json) and uses `apiKey` or the mock's desk key. Closed when the command ends. Client
 * notices go to stderr, except the assumed limits (the plan check reports them). Throws UsageError for a
 * malformed base URL or key (validate them first).
 */
export async function connectDoctor(context: CliContext, baseUrl: string | undefined, apiKey: string | undefined): Promise<DoctorConnection> {
  const api = await connectApi({
    // The base URL and key doctor judged usable (a malformed key is reported by the key check; the mock's desk key used).
    env: { ...context.env, RDW_BASE_URL: baseUrl, RDW_SITE_URL: context.siteUrl, RDW_API_KEY: apiKey },
    home: undefined,
    ...(context.json ? {} : { onEmbedded: (url: string) => context.stderr.write(`${workbenchMessages.embeddedMock(url)}\n`) }),
    // The plan check's own line says when the limits are assumed: that notice is not repeated on stderr.
    onNotice: (notice) => {
      if (notice.kind !== 'limits_assumed') writeClientNotice(context, notice.message);
    },
  });
  context.onExit(() => api.close());
  return { client: api.client, baseUrl: api.mock?.baseUrl ?? baseUrl!, embedded: api.embedded };
}
