// The client's notices to a person (an assumed limit, a 429 wait, a redirect): one sink per client passes
// each notice to ClientOptions.onNotice once per kind and message; a listener's own failure never escapes.

import type { ClientNotice } from './client-types.js';

/** Sends a notice (deduplicated per client). */
export type Notify = (notice: ClientNotice) => void;

/**
 * A notify function for one client: the first notice of each kind and message reaches `onNotice`
 * (default: none, notices are dropped); repeats and any error thrown by `onNotice` are swallowed. A wait
 * (a notice with `waitMs`) is never deduplicated: every wait is shown.
 */
export function noticeSink(onNotice: ((notice: ClientNotice) => void) | undefined): Notify {
  const seen = new Set<string>();
  return (notice) => {
    if (onNotice === undefined) return;
    if (notice.waitMs === undefined) {
      const name = `${notice.kind}\u0000${notice.message}`;
      if (seen.has(name)) return;
      seen.add(name);
    }
    try {
      onNotice({ ...notice });
    } catch {
      // a notice is advice: a failing listener must not fail the request
    }
  };
}
