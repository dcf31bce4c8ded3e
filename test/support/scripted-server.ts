// A tiny node:http server whose answers a test scripts (not the mock): for what a foreign service may do
// that the mock never does (redirects, compression, odd limits, 429s without Retry-After). Logs every request.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/v1` */
  baseUrl: string;
  /** Every request: path with query, and its headers. */
  log: { path: string; headers: IncomingHttpHeaders }[];
  /** How requests are answered; replace it per test. Default: 404 with the mock's error body shape. */
  handler: Handler;
  close(): Promise<void>;
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
  res.end(body);
}

export const notFound: Handler = (_req, res) => sendJson(res, 404, { error: { status: 404, code: 'not_found', message: 'unknown' } });

export async function startScriptedServer(handler: Handler = notFound): Promise<ScriptedServer> {
  const state = { log: [] as ScriptedServer['log'], handler };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    state.log.push({ path: `${url.pathname}${url.search}`, headers: req.headers });
    Promise.resolve(state.handler(req, res, url)).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const scripted = state as ScriptedServer;
  scripted.origin = origin;
  scripted.baseUrl = `${origin}/v1`;
  scripted.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return scripted;
}
