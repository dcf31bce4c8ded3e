// One GET to `{base_url}/research/catalog` *without* the key, for `rdw doctor`: any HTTP answer means the
// service is reachable, and its `Date` header gives the service's clock. Redirects are reported, not followed.

import { request } from 'undici';
import { doctorMessages as m } from '../messages.js';

/** How long the probe waits for an answer, in ms. */
export const PROBE_TIMEOUT_MS = 10_000;

export type BaseUrlProbe =
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
  | { reachable: false; reason: string };

/** Probes `baseUrl` (which must be an http(s) URL); never throws, never sends a key. */
export async function probeBaseUrl(baseUrl: string, options: { now?: () => number } = {}): Promise<BaseUrlProbe> {
  const now = options.now ?? Date.now;
  const url = `${baseUrl.replace(/\/+$/, '')}/research/catalog`;
  const before = now();
  const started = performance.now();
  try {
    const response = await request(url, {
      method: 'GET',
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS + 1000),
    });
    const after = now();
    const elapsedMs = Math.round(performance.now() - started);
    // Only the status and Date are wanted: the body is dropped at once (a trickling one would hold the probe).
    response.body.on('error', () => {});
    response.body.destroy();
    const date = Date.parse(String(response.headers.date ?? ''));
    const location = response.headers.location;
    let redirectOrigin: string | undefined;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      try {
        redirectOrigin = new URL(location, url).origin;
      } catch {
        redirectOrigin = undefined;
      }
    }
    return {
      reachable: true,
      status: response.statusCode,
      elapsedMs,
      serverDateMs: Number.isFinite(date) ? date : undefined,
      localMidMs: (before + after) / 2,
      redirectOrigin,
    };
  } catch (error) {
    return { reachable: false, reason: networkReason(error) };
  }
}

/** A short phrase for a connection failure (codes of Node and undici). */
function networkReason(error: unknown): string {
  const err = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return m.connectionRefused();
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return m.hostNotFound();
    case 'ECONNRESET':
      return m.connectionReset();
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return m.hostUnreachable();
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return m.noAnswer(PROBE_TIMEOUT_MS / 1000);
    default:
      if (err.name === 'TimeoutError' || err.name === 'AbortError') return m.noAnswer(PROBE_TIMEOUT_MS / 1000);
      return (err.cause?.message ?? err.message ?? String(error)).replace(/\.$/, '');
  }
}
