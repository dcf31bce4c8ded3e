// A service's reachability, as `rdw doctor` reports it: one GET to `{base_url}/research/catalog` *without* the
// key through the client's transport (its dispatcher, user agent and timeouts), failures worded by the
// client's one table (transport-failure.ts). Any HTTP answer means reachable; its `Date` header gives the
// service's clock. Redirects are reported, not followed.

import type { RdwError } from '../contract/index.js';
import { resolveClientOptions, type ClientOptions } from './client-options.js';
import { HttpTransport } from './http-transport.js';
import { failureWords } from './transport-failure.js';

/** How long the probe waits for an answer by default, in ms. */
export const PROBE_TIMEOUT_MS = 10_000;

export interface ProbeServiceOptions extends Pick<ClientOptions, 'baseUrl' | 'siteUrl' | 'dispatcher'> {
  /** How long to wait for the headers (and the body's first bytes), in ms. Default 10 000. */
  timeoutMs?: number;
  /** This machine's clock, epoch ms. Default Date.now. */
  now?: () => number;
}

export type ServiceProbe =
  | {
      reachable: true;
      status: number;
      /** Round trip in ms. */
      elapsedMs: number;
      /** The service's `Date` header in epoch ms, when it sent a valid one. */
      serverDateMs: number | undefined;
      /** This machine's clock at the middle of the round trip, epoch ms. */
      localMidMs: number;
      /** Origin a redirect points to (3xx with Location). */
      redirectOrigin: string | undefined;
    }
  | {
      reachable: false;
      /** The failure in a few words (the client's table: "connection refused: nothing listens there, ECONNREFUSED"). */
      reason: string;
      /** The client's typed error for it (NetworkError, TimeoutError, …). */
      error: RdwError;
    };

/**
 * Probes the service at `options.baseUrl`; never throws for the network, never sends a key.
 * @throws UsageError (exit 2) for a base URL the client refuses (not an http(s) API root ending in /v1).
 */
export async function probeService(options: ProbeServiceOptions): Promise<ServiceProbe> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const resolved = resolveClientOptions({
    baseUrl: options.baseUrl,
    ...(options.siteUrl === undefined ? {} : { siteUrl: options.siteUrl }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    timeouts: { headersMs: timeoutMs, bodyMs: timeoutMs },
  });
  const transport = new HttpTransport(resolved);
  const url = `${resolved.baseUrl}/research/catalog`;
  const before = now();
  const started = performance.now();
  try {
    const response = await transport.probe(url);
    const after = now();
    const date = Date.parse(String(response.headers.date ?? ''));
    const location = response.headers.location;
    const redirected = response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string';
    return {
      reachable: true,
      status: response.statusCode,
      elapsedMs: Math.round(performance.now() - started),
      serverDateMs: Number.isFinite(date) ? date : undefined,
      localMidMs: (before + after) / 2,
      redirectOrigin: redirected ? originOf(location, url) : undefined,
    };
  } catch (error) {
    return { reachable: false, reason: failureWords(error), error: transport.mapError(error, new URL(url).pathname) };
  } finally {
    await transport.close();
  }
}

/** The origin of a redirect's Location (relative to `url`); undefined when it does not parse. */
function originOf(location: string, url: string): string | undefined {
  try {
    return new URL(location, url).origin;
  } catch {
    return undefined;
  }
}
