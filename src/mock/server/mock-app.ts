// The request handler of the mock: method -> route -> key in URL -> auth -> rate -> entitlement ->
// parameters -> lookup -> limits -> faults -> response, with every refusal as the spec's JSON error.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedCache, sha256Hex } from '../../base/index.js';
import {
  API_VERSION_SEGMENT,
  DOWNLOAD_FORMATS,
  MARKET_EVENTS_DATASET,
  MARKET_EVENTS_LIMITATIONS,
  OPENAPI_DOCUMENT_PATH,
  PRODUCT_VERSION,
  RECHECK_INTERVAL_SECONDS,
  isReleaseId,
  openApiJson,
  schemaDocument,
  type DownloadFormat,
  type MarketEventRow,
  type PlanId,
  type Release,
} from '../../contract/index.js';
import { DAY_SECONDS, dayOf, type ReleaseArchive } from '../releases/index.js';
import { researchSnapshots, type ResearchSimulator } from '../research/index.js';
import type { AccountStore, Account } from './account-store.js';
import { apiFailure, errorBodyBytes, isApiFailure, type ApiFailure } from './api-failure.js';
import type { FaultSet } from './fault-rule.js';
import { planFile, writeBody } from './file-response.js';
import { messages } from './messages.js';
import type { ResolvedMockLimits } from './mock-server-options.js';
import { readQuery, releasesLimit, rowQuery } from './query-parameters.js';
import type { RateWindow } from './rate-window.js';
import { redactUrl, type RequestLog } from './request-log.js';
import { matchRoute, type RouteMatch } from './route-table.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const PAGE_START = Buffer.from('{"items":[');
const COMMA = Buffer.from(',');
/** Per-request derivations are dropped oldest-written first (a read does not reorder them). */
const FIRST_WRITTEN = { evict: 'first-written' } as const;

/** Content-Type and file extension of each download format. */
const FILE_TYPES: Readonly<Record<DownloadFormat, { type: string; extension: string }>> = {
  csv: { type: CSV_TYPE, extension: 'csv' },
  parquet: { type: 'application/vnd.apache.parquet', extension: 'parquet' },
  json: { type: JSON_TYPE, extension: 'json' },
  manifest: { type: JSON_TYPE, extension: 'manifest.json' },
  schema: { type: JSON_TYPE, extension: 'schema.json' },
};

/** What one request carries through the pipeline, for the log. */
interface Exchange {
  account?: string;
  bytes: number;
}

/** The research snapshots of one data-clock time, with their serialized bodies. */
interface ResearchState {
  at: number;
  set: ReturnType<typeof researchSnapshots>;
  bodies: Map<string, Buffer | undefined>;
}

export interface MockAppParts {
  simulator: ResearchSimulator;
  archive: ReleaseArchive;
  accounts: AccountStore;
  limits: ResolvedMockLimits;
  faults: FaultSet;
  rates: RateWindow;
  log: RequestLog;
}

/** The HTTP behaviour of the mock; state lives in the parts, caches here. */
export class MockApp {
  /** Errors the handler did not expect (answered 503); a conformance test expects none. */
  readonly internalErrors: unknown[] = [];
  /** Timers of `slow` bodies, cleared on close. */
  readonly timers = new Set<NodeJS.Timeout>();
  readonly #parts: MockAppParts;
  readonly #schemaBody = Buffer.from(`${JSON.stringify(schemaDocument())}\n`);
  readonly #bodies = new BoundedCache<string, Buffer>(256, FIRST_WRITTEN);
  readonly #rowJson = new BoundedCache<string, Buffer[]>(64, FIRST_WRITTEN);
  readonly #filtered = new BoundedCache<string, readonly number[]>(256, FIRST_WRITTEN);
  readonly #etags = new BoundedCache<string, string>(4096, FIRST_WRITTEN);
  #researchState: ResearchState | undefined;
  /** Data-clock time at which every current release was generated (so any current ID is known). */
  #listedAt = Number.NaN;

  constructor(parts: MockAppParts) {
    this.#parts = parts;
  }

  /** Forgets what depends on the data clock (after `advance`). */
  clockMoved(): void {
    this.#bodies.clear();
  }

  /** Handles one request; never throws. */
  handle(request: IncomingMessage, response: ServerResponse): void {
    const exchange: Exchange = { bytes: 0 };
    response.once('close', () => {
      const range = request.headers.range;
      this.#parts.log.push({
        method: String(request.method),
        path: redactUrl(request.url ?? ''),
        status: response.statusCode,
        bytes: exchange.bytes,
        ...(exchange.account === undefined ? {} : { account: exchange.account }),
        auth: request.headers.authorization !== undefined,
        ...(typeof range === 'string' ? { range } : {}),
      });
    });
    try {
      const failure = this.#serve(request, response, exchange);
      if (failure) this.#fail(response, failure, exchange);
    } catch (error) {
      this.#unexpected(response, exchange, error);
    }
  }

  /** An error the handler did not expect: kept, answered 503 (or the connection cut when the answer had begun). */
  #unexpected(response: ServerResponse, exchange: Exchange, error: unknown): void {
    this.internalErrors.push(error);
    if (!response.headersSent) this.#fail(response, apiFailure('unavailable', messages.internalFailure()), exchange);
    else response.destroy();
  }

  /**
   * A body (the listing of `limit` releases, or `/catalog`, whose freshness reads the re-checked days) once the
   * newest `limit` days are built. Building 100 days takes seconds (~50 ms a day), so it hands the event loop back
   * as it goes (an embedded mock shares its process with the command: a Ctrl-C is heard at once), says a slow
   * build (onSlowBuild) and stops when the client has gone away. `/catalog` had built its nine days in one piece:
   * the first command in a new home sat seconds on a blank screen, deaf to Ctrl-C.
   */
  async #onceBuilt(limit: number, key: string, body: () => Buffer, response: ServerResponse, exchange: Exchange): Promise<void> {
    let gone = false;
    response.once('close', () => void (gone = true));
    try {
      if (!(await this.#parts.archive.buildCurrentReleases(limit, () => !gone)) || gone) return;
      this.#json(response, exchange, this.#bodies.getOrCreate(key, body));
    } catch (error) {
      this.#unexpected(response, exchange, error);
    }
  }

  /** Serves the request, or returns the refusal to send. */
  #serve(request: IncomingMessage, response: ServerResponse, exchange: Exchange): ApiFailure | undefined {
    const url = request.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const rawQuery = mark === -1 ? '' : url.slice(mark + 1);
    // 1. every endpoint is GET (spec: Endpoints)
    if (request.method !== 'GET') {
      return apiFailure('method_not_allowed', messages.methodNotAllowed(String(request.method)), { headers: { Allow: 'GET' } });
    }
    // 1b. the OpenAPI document: a public docs page (no key, no request window, no byte budget)
    if (path === `${API_VERSION_SEGMENT}${OPENAPI_DOCUMENT_PATH}`) {
      const query = readQuery(rawQuery, []);
      if (isApiFailure(query) && query.code === 'unauthorized') return query;
      return this.#json(response, exchange, this.#openApiBody(request));
    }
    // 2. route from the spec's endpoint table
    const route = matchRoute(path);
    if (!route) return apiFailure('not_found', messages.notFound(path.length > 200 ? `${path.slice(0, 200)}…` : path));
    // 3. a key in the URL is refused before anything else, even with a valid header (spec: Authentication 9)
    const query = readQuery(rawQuery, route.endpoint.query);
    if (isApiFailure(query) && query.code === 'unauthorized') return query;
    // 4. public live endpoints: no key, one per-IP window
    if (route.endpoint.scope === 'public') {
      const wait = this.#parts.rates.admit(`ip:${request.socket.remoteAddress ?? ''}`, this.#parts.limits.publicRpm);
      if (wait > 0) return this.#rateLimited(messages.publicRateLimited(this.#parts.limits.publicRpm, wait), wait);
      if (isApiFailure(query)) return query;
      return this.#public(route, response, exchange);
    }
    // 5. the key, 6. the account's request window, 7. entitlement
    const account = this.#authenticate(request, route, exchange);
    if (isApiFailure(account)) return account;
    if (isApiFailure(query)) return query;
    // 8. the endpoint
    const plan = account.plan;
    switch (route.endpoint.name) {
      case 'researchCatalog':
        return this.#json(response, exchange, this.#bodies.getOrCreate(`research-catalog/${plan}`, () => this.#researchCatalogBody(plan)));
      case 'researchSnapshot':
      case 'researchCsv':
        return this.#research(route, response, exchange);
      case 'catalog': {
        // Its freshness needs the re-checked days built: in slices, said when slow, as the listing's (below).
        if (this.#bodies.has(`catalog/${plan}`)) return this.#json(response, exchange, this.#bodies.get(`catalog/${plan}`)!);
        void this.#onceBuilt(this.#parts.archive.freshDayCount(), `catalog/${plan}`, () => this.#catalogBody(plan), response, exchange);
        return undefined;
      }
      case 'schema':
        return this.#json(response, exchange, this.#schemaBody);
      case 'releases': {
        const limit = releasesLimit(query);
        if (typeof limit !== 'number') return limit;
        if (this.#bodies.has(`releases/${limit}`)) return this.#json(response, exchange, this.#bodies.get(`releases/${limit}`)!);
        void this.#onceBuilt(limit, `releases/${limit}`, () => jsonBytes({ items: this.#parts.archive.currentReleases(limit) }), response, exchange);
        return undefined;
      }
      case 'rows':
        return this.#rows(route, query, response, exchange);
      case 'download':
        return this.#download(route, request, response, account, exchange);
      default:
        return apiFailure('not_found', messages.notFound(path));
    }
  }

  /** The OpenAPI document with its server defaults set to this mock's own address (from `Host`). */
  #openApiBody(request: IncomingMessage): Buffer {
    const host = request.headers.host;
    const origin = typeof host === 'string' && /^[A-Za-z0-9.:[\]-]{1,100}$/.test(host) ? `http://${host}` : undefined;
    return this.#bodies.getOrCreate(`openapi/${origin ?? ''}`, () =>
      Buffer.from(openApiJson(origin === undefined ? {} : { baseUrl: `${origin}${API_VERSION_SEGMENT}`, siteUrl: origin })),
    );
  }

  /** Steps 5-7: 401 for the key, 429 for the account's window, 403 for the plan. */
  #authenticate(request: IncomingMessage, route: RouteMatch, exchange: Exchange): Account | ApiFailure {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return unauthorized(messages.missingKey());
    const match = /^Bearer ([^\s"',;]+)$/i.exec(header);
    if (!match) return unauthorized(messages.malformedAuthorization());
    const result = this.#parts.accounts.authenticate(match[1]!);
    if (!result.ok) {
      return unauthorized(result.reason === 'revoked' ? messages.revokedKey() : result.reason === 'audit' ? messages.auditKey() : messages.wrongKey());
    }
    const { account } = result;
    exchange.account = account.id;
    account.requests += 1;
    const limits = this.#parts.limits.plans[account.plan];
    const wait = this.#parts.rates.admit(`account:${account.id}`, limits.rpm);
    if (wait > 0) return this.#rateLimited(messages.rateLimited(limits.rpm, wait), wait);
    if (result.rank >= limits.keys) return apiFailure('key_over_allowance', messages.keyOverAllowance(limits.keys));
    if (route.endpoint.scope === 'paid' && !limits.paid) return apiFailure('plan_required', messages.planRequired());
    return account;
  }

  #rateLimited(message: string, seconds: number): ApiFailure {
    return apiFailure('rate_limited', message, { headers: { 'Retry-After': String(seconds) } });
  }

  #public(route: RouteMatch, response: ServerResponse, exchange: Exchange): ApiFailure | undefined {
    const key = route.params.PAGE_KEY!;
    const csv = route.endpoint.name === 'liveCsv';
    const body = this.#researchBody(`live/${csv ? 'csv' : 'json'}/${key}`, (set) => (csv ? set.liveCsv(key) : set.live(key)));
    if (!body) return apiFailure('not_found', messages.unknownPage(key));
    return csv ? this.#send(response, exchange, 200, CSV_TYPE, body) : this.#json(response, exchange, body);
  }

  #research(route: RouteMatch, response: ServerResponse, exchange: Exchange): ApiFailure | undefined {
    const id = route.params.DATASET_ID!;
    const csv = route.endpoint.name === 'researchCsv';
    const body = this.#researchBody(`${csv ? 'csv' : 'json'}/${id}`, (set) => (csv ? set.csv(id) : set.snapshot(id)));
    if (!body) return apiFailure('not_found', messages.unknownDataset(id));
    return csv ? this.#send(response, exchange, 200, CSV_TYPE, body) : this.#json(response, exchange, body);
  }

  /** A research body (JSON object or CSV text) as of the data clock, serialized once per clock value. */
  #researchBody(key: string, make: (set: ResearchState['set']) => object | string | undefined): Buffer | undefined {
    const at = this.#parts.archive.now;
    if (this.#researchState?.at !== at) this.#researchState = { at, set: researchSnapshots(this.#parts.simulator, at), bodies: new Map() };
    const { bodies, set } = this.#researchState;
    if (!bodies.has(key)) {
      const value = make(set);
      bodies.set(key, value === undefined ? undefined : typeof value === 'string' ? Buffer.from(value) : jsonBytes(value));
    }
    return bodies.get(key);
  }

  #researchCatalogBody(plan: PlanId): Buffer {
    const limits = this.#parts.limits.plans[plan];
    return jsonBytes(this.#researchSet().catalog({ keys: limits.keys, rpm: limits.rpm, daily_bytes: limits.daily_bytes }));
  }

  #researchSet(): ResearchState['set'] {
    this.#researchBody('', () => undefined);
    return this.#researchState!.set;
  }

  /** Paid `/catalog`: the dataset's coverage and freshness, and the caller's plan limits. */
  #catalogBody(plan: PlanId): Buffer {
    const coverage = this.#parts.archive.coverage();
    const limits = this.#parts.limits.plans[plan];
    return jsonBytes({
      datasets: [
        {
          id: MARKET_EVENTS_DATASET,
          version: PRODUCT_VERSION,
          symbols: coverage.symbols,
          first_day: coverage.first_day,
          last_day: coverage.last_day,
          days: coverage.days,
          freshness: {
            latest_generated_at: coverage.latest_generated_at,
            rechecked_days: coverage.rechecked_days,
            recheck_interval_seconds: RECHECK_INTERVAL_SECONDS,
          },
          limitations: [...MARKET_EVENTS_LIMITATIONS],
        },
      ],
      limits: { keys: limits.keys, rpm: limits.rpm, daily_bytes: limits.daily_bytes },
    });
  }

  /**
   * A published release by ID. The archive knows only releases it generated; on a miss, current releases
   * are generated newest day first until the ID turns up (locks and listings mostly name recent days; a day
   * may also publish it as a superseded revision), at most once per data-clock value, so an ID known from an
   * earlier run of the same seed and clock is found without listing first. One build, so a slow one is said
   * once with one clock (growing batches each restarted it: "after 1 s" three times).
   */
  #release(id: string): Release | undefined {
    const archive = this.#parts.archive;
    const known = archive.release(id);
    if (known || this.#listedAt === archive.now) return known;
    // The ID may be a day's current release or a revision it superseded: both are known once that day is built.
    if (archive.buildCurrentReleasesUntil(() => archive.release(id) !== undefined)) return archive.release(id);
    this.#listedAt = archive.now;
    return undefined;
  }

  #releaseFor(route: RouteMatch): Release | ApiFailure {
    const id = route.params.RELEASE_ID!;
    // A release ID is checked for shape before any lookup; a malformed one is simply not found.
    if (!isReleaseId(id)) return apiFailure('not_found', messages.malformedReleaseId());
    return this.#release(id) ?? apiFailure('not_found', messages.unknownRelease(id));
  }

  /** `/rows/<RELEASE_ID>`: filtered, paged; 413 above `rowQueryMaxRows`; a `rows` fault answers 503. */
  #rows(route: RouteMatch, params: Map<string, string>, response: ServerResponse, exchange: Exchange): ApiFailure | undefined {
    const query = rowQuery(params);
    if (isApiFailure(query)) return query;
    const release = this.#releaseFor(route);
    if (isApiFailure(release)) return release;
    if (this.#parts.faults.take(release.id, 'rows')) return apiFailure('unavailable', messages.unavailableRows());
    const rows = this.#parts.archive.rows(release.id);
    const json = this.#rowJson.getOrCreate(release.id, () => rows.map((row) => Buffer.from(JSON.stringify(row))));
    const all = query.symbol === undefined && query.sample_type === undefined;
    const matching = all
      ? undefined
      : this.#filtered.getOrCreate(`${release.id}/${query.symbol ?? ''}/${query.sample_type ?? ''}`, () => filterRows(rows, query.symbol, query.sample_type));
    const total = matching ? matching.length : rows.length;
    if (total > this.#parts.limits.rowQueryMaxRows) {
      return apiFailure('query_too_large', messages.queryTooLarge(total, this.#parts.limits.rowQueryMaxRows, release.id));
    }
    // Each row is serialized once per release; a page is a concatenation of cached bytes.
    const end = Math.min(total, query.offset + query.limit);
    const hasMore = end < total;
    const parts: Buffer[] = [PAGE_START];
    for (let index = query.offset; index < end; index += 1) {
      if (index > query.offset) parts.push(COMMA);
      parts.push(json[matching ? matching[index]! : index]!);
    }
    parts.push(Buffer.from(`],"total":${total},"has_more":${hasMore},"next_offset":${hasMore ? end : null}}`));
    const body = Buffer.concat(parts);
    return this.#send(response, exchange, 200, JSON_TYPE, body);
  }

  /** `/download/<RELEASE_ID>/<FORMAT>`: immutable bytes with ETag, Range and the daily byte budget. */
  #download(route: RouteMatch, request: IncomingMessage, response: ServerResponse, account: Account, exchange: Exchange): ApiFailure | undefined {
    const format = route.params.FORMAT!;
    if (!(DOWNLOAD_FORMATS as readonly string[]).includes(format)) return apiFailure('not_found', messages.unknownFormat(format));
    const release = this.#releaseFor(route);
    if (isApiFailure(release)) return release;
    const { archive, accounts, faults } = this.#parts;
    const bytes = archive.file(release.id, format as DownloadFormat);
    if (!bytes) return apiFailure('not_found', messages.noBundledSchema(release.id));
    const etag = `"${this.#etags.getOrCreate(`${release.id}/${format}`, () => digestOf(release, format as DownloadFormat, bytes))}"`;
    const plan = planFile(request, etag, bytes.length);
    const type = FILE_TYPES[format as DownloadFormat];
    const headers: Record<string, string> = {
      ETag: etag,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Accept-Ranges': 'bytes',
    };
    if (plan.kind === 'not-modified') {
      response.writeHead(304, headers).end();
      return undefined;
    }
    if (plan.kind === 'unsatisfiable') {
      return apiFailure('range_not_satisfiable', messages.rangeNotSatisfiable(bytes.length), { headers: { 'Content-Range': `bytes */${bytes.length}` } });
    }
    // The budget is checked before any byte is sent, and charged with the bytes of this response.
    const length = plan.end - plan.start + 1;
    const limits = this.#parts.limits.plans[account.plan];
    const remaining = Math.max(0, limits.daily_bytes - accounts.bytesToday(account));
    if (length > remaining) {
      const now = archive.now;
      const nextDay = (Math.floor(now / DAY_SECONDS) + 1) * DAY_SECONDS;
      return apiFailure('daily_byte_limit', messages.dailyByteLimit(length, remaining, dayOf(nextDay)), {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(nextDay - now))) },
      });
    }
    const fault = faults.take(release.id, format as DownloadFormat);
    if (fault?.kind === 'status503') return apiFailure('unavailable', messages.unavailable());
    accounts.spendBytes(account, length);
    headers['Content-Type'] = type.type;
    headers['Content-Length'] = String(length);
    headers['Content-Disposition'] = `attachment; filename="${release.id}.${type.extension}"`;
    if (plan.partial) headers['Content-Range'] = `bytes ${plan.start}-${plan.end}/${bytes.length}`;
    response.writeHead(plan.partial ? 206 : 200, headers);
    exchange.bytes = writeBody(response, plan.partial ? bytes.subarray(plan.start, plan.end + 1) : bytes, fault, this.timers);
    return undefined;
  }

  #json(response: ServerResponse, exchange: Exchange, body: Buffer): undefined {
    return this.#send(response, exchange, 200, JSON_TYPE, body);
  }

  #send(response: ServerResponse, exchange: Exchange, status: number, type: string, body: Buffer, headers: Record<string, string> = {}): undefined {
    response.writeHead(status, { 'Content-Type': type, 'Content-Length': String(body.length), 'Cache-Control': 'no-cache', ...headers });
    response.end(body);
    exchange.bytes = body.length;
    return undefined;
  }

  #fail(response: ServerResponse, failure: ApiFailure, exchange: Exchange): void {
    const headers: Record<string, string> = { ...failure.headers };
    if (failure.status === 401) headers['WWW-Authenticate'] = 'Bearer';
    this.#send(response, exchange, failure.status, JSON_TYPE, errorBodyBytes(failure), headers);
  }
}

function unauthorized(message: string): ApiFailure {
  return apiFailure('unauthorized', message);
}

function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** Indices of the rows matching the filters, in file order. */
function filterRows(rows: readonly MarketEventRow[], symbol: string | undefined, sampleType: string | undefined): number[] {
  const indices: number[] = [];
  rows.forEach((row, index) => {
    if ((symbol === undefined || row.symbol === symbol) && (sampleType === undefined || row.sample_type === sampleType)) indices.push(index);
  });
  return indices;
}

/** The SHA-256 of a file: from the release's `files` when listed there, else hashed once. */
function digestOf(release: Release, format: DownloadFormat, bytes: Uint8Array): string {
  const listed = format === 'manifest' ? undefined : release.files[format];
  if (listed) return listed.sha256;
  return sha256Hex(bytes);
}
