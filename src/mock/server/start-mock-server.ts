// Starts the embedded mock of the whole API on node:http: simulator -> release archive -> accounts ->
// handler. Nothing is generated up front; releases and files are built on first request.

import { createServer, ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { API_VERSION_SEGMENT, type Release } from '../../contract/index.js';
import { KnownRevisionsFile, ReleaseArchive, dayOf } from '../releases/index.js';
import { MarketSimulator } from '../simulator/index.js';
import { AccountStore, type MockAdmin, type SeededKeyName, type SeededKeys } from './account-store.js';
import { FaultSet, type FaultRule } from './fault-rule.js';
import { MockApp } from './mock-app.js';
import { resolveMockServerOptions, type MockServerOptions } from './mock-server-options.js';
import { RateWindow } from './rate-window.js';
import { RequestLog, type RequestLogEntry } from './request-log.js';

/** A running mock server. */
export interface MockServer {
  /** `{base_url}`: `http://HOST:PORT/v1`. */
  readonly baseUrl: string;
  /** `{site_url}` of the public live endpoints: `http://HOST:PORT`. */
  readonly siteUrl: string;
  /** Full secrets of the seeded keys (DESIGN.md 2.3). */
  readonly keys: SeededKeys;
  /** Account IDs of the seeded keys (for `admin`); `audit` has none (empty string). */
  readonly accounts: Readonly<Record<SeededKeyName, string>>;
  readonly admin: MockAdmin;
  readonly archive: ReleaseArchive;
  readonly simulator: MarketSimulator;
  /**
   * IDs of the current release of each day as of the data clock, newest day first: what `GET /releases`
   * lists (the newest `limit`, default every covered day). Superseded revisions are not included.
   */
  releaseIds(limit?: number): string[];
  /**
   * Moves the data clock by `seconds`: runs the hourly re-checks, publishes revisions (new IDs; old IDs
   * stay served) and moves the UTC day of the byte budgets. Returns the newly published releases.
   */
  advance(seconds: number): Release[];
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  /** One entry per answered request, oldest first (bounded by `limits.requestLogSize`); never a key. */
  readonly requestLog: readonly RequestLogEntry[];
  /** Unexpected handler failures (each answered 503); empty in a healthy run. */
  readonly internalErrors: readonly unknown[];
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Starts the mock API on `host:port` (default `127.0.0.1`, any free port).
 * Throws `MockServerOptionError` for bad options and `SimulatorOptionError` for bad simulator options.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const resolved = resolveMockServerOptions(options);
  const simulator = new MarketSimulator(resolved.simulator);
  const known = resolved.knownRevisionsFile === undefined ? undefined : new KnownRevisionsFile(resolved.knownRevisionsFile, simulator.options);
  const archive = new ReleaseArchive(simulator, {
    ...(known === undefined ? {} : { knownRevisions: known }),
    ...(resolved.cacheBytes === undefined ? {} : { cacheBytes: resolved.cacheBytes }),
    ...(options.onSlowBuild === undefined ? {} : { onSlowBuild: options.onSlowBuild }),
  });
  const accounts = new AccountStore(simulator.options.seed, () => dayOf(archive.now), resolved.limits.plans);
  const seeded = accounts.seed();
  const faults = new FaultSet(resolved.faults);
  const log = new RequestLog(resolved.limits.requestLogSize);
  const app = new MockApp({
    simulator,
    archive,
    accounts,
    limits: resolved.limits,
    faults,
    rates: new RateWindow(resolved.rateClock),
    log,
  });

  const server: Server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 30_000 }, (request, response) => {
    // Idle keep-alive sockets live 65 s: a data-clock advance can block the loop for seconds, and a short
    // server timeout then races the client's reuse of the socket (ECONNRESET).
    // The request body is never read: drain it so keep-alive connections stay usable.
    request.resume();
    app.handle(request, response);
  });
  // CONNECT is not a request node:http hands to the handler: without this, the socket would just be
  // closed. Answer it like any other method but GET: 405 with the error body, then close.
  server.on('connect', (request, socket) => {
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Socket);
    response.on('finish', () => {
      response.detachSocket(socket as Socket);
      socket.end();
    });
    app.handle(request, response);
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const siteUrl = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${siteUrl}${API_VERSION_SEGMENT}`,
    siteUrl,
    keys: seeded.keys,
    accounts: seeded.accounts,
    admin: {
      createAccount: (plan) => accounts.createAccount(plan),
      createKey: (accountId, label) => accounts.createKey(accountId, label),
      revokeKey: (key) => accounts.revokeKey(key),
      changePlan: (accountId, plan) => accounts.changePlan(accountId, plan),
      usage: (accountId) => accounts.usage(accountId),
    },
    archive,
    simulator,
    releaseIds: (limit) => archive.currentReleases(limit).map((release) => release.id),
    advance(seconds: number): Release[] {
      const published = archive.advance(seconds);
      app.clockMoved();
      return published;
    },
    faults: { add: (rule) => faults.add(rule), clear: () => faults.clear() },
    get requestLog() {
      return log.entries;
    },
    internalErrors: app.internalErrors,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of app.timers) clearTimeout(timer);
        app.timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(async () => void (await known?.save()));
      return closing;
    },
  };
}
