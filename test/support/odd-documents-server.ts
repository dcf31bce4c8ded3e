// Test helper: a plain node:http server (no src/mock) that answers fixed paths with fixed bodies, for
// documents in shapes of its own (free, public, and a paid scope that takes any key). Counts requests per path.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One fixed answer: a JSON value (serialized), or raw text with its content type. */
export type FixedAnswer = { json: unknown } | { text: string; type: string };

export interface OddDocumentsServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` */
  siteUrl: string;
  /** Requests seen per path (query string included). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export interface OddDocumentsServerOptions {
  /** Extra headers of every response (e.g. a skewed `Date`), computed per request. Default: none. */
  headers?: () => Record<string, string>;
  /** Milliseconds to wait before answering a path (query string included), e.g. a slow plan read. Default: 0. */
  delayMs?: (path: string) => number;
}

/** Serves `answers` (path -> answer) with status 200; every other path is a 404 with an empty JSON object. */
export async function startOddDocumentsServer(
  answers: ReadonlyMap<string, FixedAnswer>,
  options: OddDocumentsServerOptions = {},
): Promise<OddDocumentsServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path);
    const extra = options.headers?.() ?? {};
    if (answer === undefined) {
      response.writeHead(404, { 'Content-Type': 'application/json', ...extra }).end('{}');
      return;
    }
    const [type, body] = 'json' in answer ? ['application/json', JSON.stringify(answer.json)] : [answer.type, answer.text];
    const send = () => response.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra }).end(body);
    const delay = options.delayMs?.(path) ?? 0;
    if (delay > 0) setTimeout(send, delay);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    siteUrl: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
