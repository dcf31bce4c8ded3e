// connectApi: the API a workbench or command talks to — RDW_BASE_URL with RDW_API_KEY, or else the
// embedded mock started in-process — paced from the limit learned earlier (kept in the home) and, with
// RDW_ACCOUNT, account-wide. Reads only the env object it is given, never process.env.

import { join } from 'node:path';
import { createClient, refuseSecretsInUrls, type ClientNotice, type ClientOptions, type RdwClient } from '../client/index.js';
import { startMockServer, type BuildProgress, type MockServer } from '../mock/index.js';
import { readKnownLimits, recordKnownLimits, type KnownLimitsSlot } from './known-limits.js';
import { networkSettings } from './network-settings.js';
import { ApiKeyMissingError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';

/** Options of the embedded mock (defaults: the mock's — 120 days, seed 1, now 2026-11-01T00:00:00Z). */
export interface EmbeddedMockOptions {
  days?: number;
  seed?: number;
  now?: string;
  /** Told while the mock builds days' files for a listing for over a second (the CLI prints it). Default: none. */
  onSlowBuild?: (progress: BuildProgress) => void;
}

export interface ConnectApiOptions {
  /**
   * Environment: RDW_BASE_URL, RDW_SITE_URL, RDW_API_KEY, RDW_ACCOUNT, RDW_REQUEST_DEADLINE, RDW_MAX_RESPONSE_MB
   * (empty strings count as unset; the last two: network-settings.ts).
   * RDW_ACCOUNT names the account the key belongs to: every key given the same name paces against one
   * request window and one byte budget in this home (ClientOptions.account).
   */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * RDW_HOME (absolute): shared client state (pacing, byte budget) lives in `<home>/state/`, the learned
   * request limit in `<home>/account-limits.json` (known-limits.ts). Undefined: pacing state in memory for
   * this process, no learned limit read or kept (rdw doctor, which writes nothing to the home and works when
   * it is unusable).
   */
  home: string | undefined;
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

/** The embedded mock's known revisions, in `<home>/state/` (a cache: deleting it costs one slower listing). */
export const EMBEDDED_MOCK_REVISIONS_FILE = 'embedded-mock-revisions.json';

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
  const account = given(env.RDW_ACCOUNT);
  const shared = { ...(home === undefined ? {} : { home }), ...(account === undefined ? {} : { account }), ...networkSettings(env), onNotice: options.onNotice };
  if (baseUrl !== undefined) {
    // A key put in the URL (user@, a query, …) is refused as such, before saying that RDW_API_KEY is missing.
    refuseSecretsInUrls({ baseUrl, siteUrl, apiKey });
    if (apiKey === undefined) throw new ApiKeyMissingError(workbenchMessages.apiKeyMissing());
    const paced = await pacedClient({ baseUrl, ...(siteUrl === undefined ? {} : { siteUrl }), apiKey, ...shared }, originOf(baseUrl));
    return { client: paced.client, embedded: false, mock: undefined, close: once(paced.close) };
  }
  // What this code published before for these options is listed without building it again (a second `npm start`).
  const known = home === undefined ? {} : { knownRevisionsFile: join(home, 'state', EMBEDDED_MOCK_REVISIONS_FILE) };
  const mock = await startMockServer({ port: 0, ...known, ...options.mock });
  options.onEmbedded?.(mock.baseUrl);
  let paced: PacedClient;
  try {
    // The embedded mock's port changes on every start: its learned limit is kept under one name.
    // Its answers are this process's own work (it builds a day's files when first asked), not a service's: a
    // 'response_wait' notice would only measure this machine's speed, and would make a notebook's committed
    // output depend on it. Every other notice (pacing, limits, retries) is passed on.
    const onNotice = options.onNotice;
    const embeddedShared = {
      ...shared,
      onNotice: onNotice === undefined ? undefined : (notice: ClientNotice) => (notice.kind === 'response_wait' ? undefined : onNotice(notice)),
    };
    paced = await pacedClient({ baseUrl: mock.baseUrl, siteUrl: mock.siteUrl, apiKey: apiKey ?? mock.keys.desk, ...embeddedShared }, 'embedded-mock');
  } catch (error) {
    await mock.close();
    throw error;
  }
  return {
    client: paced.client,
    embedded: true,
    mock,
    close: once(async () => {
      try {
        await paced.close();
      } finally {
        await mock.close();
      }
    }),
  };
}

/** A client and its close, which also waits for the learned limit to be written. */
interface PacedClient {
  client: RdwClient;
  close(): Promise<void>;
}

/**
 * A client that starts at the request limit learned by an earlier one for this service (`scope`) and key,
 * and records the limit it reads from the service in the home for the next one.
 */
async function pacedClient(options: ClientOptions & { apiKey: string }, scope: string): Promise<PacedClient> {
  if (options.home === undefined) {
    const client = createClient(options);
    return { client, close: () => client.close() };
  }
  const slot: KnownLimitsSlot = { home: options.home, scope, apiKey: options.apiKey };
  const known = await readKnownLimits(slot);
  let writing: Promise<void> = Promise.resolve();
  const client = createClient({
    ...options,
    ...(known === undefined ? {} : { knownLimits: known }),
    onLimits: (limits) => {
      writing = writing.then(() => recordKnownLimits(slot, limits));
    },
  });
  return {
    client,
    close: async () => {
      try {
        await client.close();
      } finally {
        await writing;
      }
    },
  };
}

/** The origin of a base URL (the service a learned limit belongs to); `unparsed` when it does not parse (createClient then refuses it). */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return 'unparsed';
  }
}

/** Wraps an async clean-up so that only the first call runs it; later calls share its promise. */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
