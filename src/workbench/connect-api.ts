// connectApi: the API a workbench or command talks to — RDW_BASE_URL with RDW_API_KEY, or else the
// embedded mock started in-process. Reads only the env object it is given, never process.env.

import { createClient, type ClientNotice, type RdwClient } from '../client/index.js';
import { startMockServer, type MockServer } from '../mock/index.js';
import { ApiKeyMissingError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';

/** Options of the embedded mock (defaults: the mock's — 120 days, seed 1, now 2026-11-01T00:00:00Z). */
export interface EmbeddedMockOptions {
  days?: number;
  seed?: number;
  now?: string;
}

export interface ConnectApiOptions {
  /** Environment: RDW_BASE_URL, RDW_SITE_URL, RDW_API_KEY (empty strings count as unset). */
  env: Readonly<Record<string, string | undefined>>;
  /** RDW_HOME (absolute): shared client state (pacing, byte budget) lives in `<home>/state/`. */
  home: string;
  /** Overrides env.RDW_BASE_URL (the CLI's `--base-url`). */
  baseUrl?: string;
  /** Overrides env.RDW_SITE_URL. */
  siteUrl?: string;
  /** Embedded mock options, used only without a base URL. */
  mock?: EmbeddedMockOptions;
  /** Called with the embedded mock's base URL when it starts (the CLI prints a note). Default: none. */
  onEmbedded?: (baseUrl: string) => void;
  /** Passed to the client: what a person should know (limits assumed, 429 waits, redirects). Default: none. */
  onNotice?: (notice: ClientNotice) => void;
}

export interface ApiConnection {
  client: RdwClient;
  /** True when the embedded mock serves this connection. */
  embedded: boolean;
  /** The embedded mock, when there is one. */
  mock: MockServer | undefined;
  /** Closes the client (and the embedded mock). Idempotent. */
  close(): Promise<void>;
}

const given = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/**
 * Connects to the base URL (options, else env.RDW_BASE_URL) with env.RDW_API_KEY, or, without a base
 * URL, starts the embedded mock on a free port and uses RDW_API_KEY if set, else the mock's seeded
 * `desk` key. The key is never printed.
 * @throws ApiKeyMissingError (exit 4) when a base URL is given without RDW_API_KEY.
 */
export async function connectApi(options: ConnectApiOptions): Promise<ApiConnection> {
  const { env, home } = options;
  const baseUrl = given(options.baseUrl) ?? given(env.RDW_BASE_URL);
  const siteUrl = given(options.siteUrl) ?? given(env.RDW_SITE_URL);
  const apiKey = given(env.RDW_API_KEY);
  if (baseUrl !== undefined) {
    if (apiKey === undefined) throw new ApiKeyMissingError(workbenchMessages.apiKeyMissing());
    const client = createClient({ baseUrl, ...(siteUrl === undefined ? {} : { siteUrl }), apiKey, home, onNotice: options.onNotice });
    return { client, embedded: false, mock: undefined, close: once(() => client.close()) };
  }
  const mock = await startMockServer({ port: 0, ...options.mock });
  options.onEmbedded?.(mock.baseUrl);
  let client: RdwClient;
  try {
    client = createClient({ baseUrl: mock.baseUrl, siteUrl: mock.siteUrl, apiKey: apiKey ?? mock.keys.desk, home, onNotice: options.onNotice });
  } catch (error) {
    await mock.close();
    throw error;
  }
  return {
    client,
    embedded: true,
    mock,
    close: once(async () => {
      try {
        await client.close();
      } finally {
        await mock.close();
      }
    }),
  };
}

/** Wraps an async clean-up so that only the first call runs it; later calls share its promise. */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
