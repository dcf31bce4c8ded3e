// discardBody: drops a response body we will not read without an uncaught error. undici's
// `body.destroy()` emits a RequestAbortedError that crashes the process when nobody listens for 'error'.

import type { ResponseBody } from './transport-response.js';

/**
 * Reads and drops a small body (keeps the keep-alive socket) or aborts a large one (over 128 KiB),
 * swallowing the stream's own abort error. Never throws.
 */
export async function discardBody(body: ResponseBody): Promise<void> {
  body.on('error', () => {});
  await body.dump().catch(() => undefined);
}
