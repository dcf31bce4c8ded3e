// The API connection of `rdw doctor`: the same choice as every command (RDW_BASE_URL with RDW_API_KEY,
// else the embedded mock with its seeded desk key), but the client keeps its pacing state in memory, so
// doctor writes nothing to RDW_HOME and works even when RDW_HOME is unusable.

import { createClient, type RdwClient } from '../../client/index.js';
import { startMockServer } from '../../mock/index.js';
import { networkSettings, workbenchMessages } from '../../workbench/index.js';
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
  // The plan check's own line says when the limits are assumed: that notice is not repeated on stderr.
  const onNotice = (notice: { kind: string; message: string }) => {
    if (notice.kind !== 'limits_assumed') context.stderr.write(`${notice.message}\n`);
  };
  const siteUrl = context.siteUrl === undefined || context.siteUrl === '' ? {} : { siteUrl: context.siteUrl };
  const network = networkSettings(context.env);
  if (baseUrl !== undefined) {
    const client = createClient({ baseUrl, ...siteUrl, ...(apiKey === undefined ? {} : { apiKey }), ...network, onNotice });
    context.onExit(() => client.close());
    return { client, baseUrl, embedded: false };
  }
  const mock = await startMockServer({ port: 0 });
  context.onExit(() => mock.close());
  if (!context.json) context.stderr.write(`${workbenchMessages.embeddedMock(mock.baseUrl)}\n`);
  const client = createClient({ baseUrl: mock.baseUrl, siteUrl: mock.siteUrl, apiKey: apiKey ?? mock.keys.desk, ...network, onNotice });
  context.onExit(() => client.close());
  return { client, baseUrl: mock.baseUrl, embedded: true };
}
