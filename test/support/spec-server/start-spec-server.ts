// A deliberately minimal Research Data API server from the spec alone (never src/mock or src/contract), with a
// "CDN" second origin; a SpecVariation picks its choices wherever the spec leaves them open.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { DATASET_ID, PAIRS } from './contract-fields.js';
import { buildReleases, schemaDocument, sha256Hex, type BuiltFile, type BuiltRelease, type FileFormat } from './build-releases.js';
import { RESEARCH_DATASET, breadthCsv, livePage, researchCatalog, researchSnapshot } from './research-documents.js';
import { resolveVariation, type ResolvedVariation, type SpecVariation } from './spec-variation.js';

/** One request as the server saw it. */
export interface LoggedRequest {
  /** `api` (this server) or `cdn` (the second origin). */
  origin: 'api' | 'cdn';
  path: string;
  query: string;
  /** Whether an Authorization header arrived (its value is never kept). */
  authorization: boolean;
  acceptEncoding: string;
  status: number;
  /** Content-Encoding of the answer, if compressed. */
  encoding: string | undefined;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface SpecServer {
  /** `{base_url}` to hand to rdw (ends in `/v1`; under `/old/v1` when the variation moves the API). */
  baseUrl: string;
  /** `{site_url}`: the public live endpoints. */
  siteUrl: string;
  /** The one key this server accepts: the variation's prefix (`rdw_sk_`) and 32 characters. */
  apiKey: string;
  /** Published releases, oldest day first, with the exact bytes served. */
  releases: BuiltRelease[];
  /** Every request, both origins, in arrival order. */
  requests: LoggedRequest[];
  variation: ResolvedVariation;
  /** The exact bytes served for a release file (differs from the manifest's only when tampered), or undefined. */
  servedBytes(id: string, format: FileFormat): Buffer | undefined;
  close(): Promise<void>;
}

export interface SpecServerOptions {
  /** The server's clock in Unix seconds (days end the day before). Default 2026-11-01T00:00:00Z. */
  now?: number;
}

const DEFAULT_NOW = Date.parse('2026-11-01T00:00:00Z') / 1000;
const FORMATS: readonly FileFormat[] = ['json', 'csv', 'parquet', 'schema', 'manifest'];
const PARAMETERS: Record<string, readonly string[]> = { releases: ['limit'], rows: ['symbol', 'sample_type', 'limit', 'offset'] };

/** Thrown by a route: answered with `status` and an error body in the variation's shape. */
class HttpFailure {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Starts the server (and its CDN origin) with `variation`. */
export async function startSpecServer(variation: SpecVariation = {}, options: SpecServerOptions = {}): Promise<SpecServer> {
  const resolved = resolveVariation(variation);
  const now = options.now ?? DEFAULT_NOW;
  const releases = await buildReleases(resolved, now);
  const apiKey = `${resolved.keyPrefix}${sha256Hex('spec-server key').slice(0, 32)}`;
  const requests: LoggedRequest[] = [];
  const cdnFiles = new Map<string, { file: BuiltFile; etag: string | undefined }>();
  const limited = new Set<string>();
  let cdnOrigin = '';
  let apiOrigin = '';

  const newest = releases[releases.length - 1];
  const served = (release: BuiltRelease, format: FileFormat): BuiltFile | undefined => {
    const file = release.files[format];
    if (file === undefined || !(resolved.tamperParquet && format === 'parquet' && release === newest)) return file;
    const bytes = Buffer.from(file.bytes);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    return { ...file, bytes };
  };

  const errorBody = (status: number, message: string): { body: Buffer; type: string } =>
    resolved.errorBody === 'text'
      ? { body: Buffer.from(`${status} ${message}\n`), type: 'text/plain; charset=utf-8' }
      : { body: Buffer.from(JSON.stringify({ error: { status, message } })), type: 'application/json' };

  const api = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: LoggedRequest = {
      origin: 'api',
      path: url.pathname,
      query: url.search,
      authorization: req.headers.authorization !== undefined,
      acceptEncoding: String(req.headers['accept-encoding'] ?? ''),
      status: 0,
      encoding: undefined,
      at: Date.now(),
    };
    requests.push(entry);
    const send = (status: number, body: Buffer | string, type: string, headers: Record<string, string> = {}): void => {
      let bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const all: Record<string, string> = { 'content-type': type, ...headers };
      if (resolved.compress !== undefined && type.startsWith('application/json') && acceptsEncoding(entry.acceptEncoding, resolved.compress)) {
        bytes = resolved.compress === 'gzip' ? zlib.gzipSync(bytes) : zlib.brotliCompressSync(bytes);
        all['content-encoding'] = resolved.compress;
        all.vary = 'Accept-Encoding';
        entry.encoding = resolved.compress;
      }
      entry.status = status;
      if (!resolved.chunked) {
        all['content-length'] = String(bytes.length);
        res.writeHead(status, all);
        res.end(bytes);
        return;
      }
      // Transfer-Encoding: chunked, no Content-Length: the body in three writes.
      res.writeHead(status, all);
      const third = Math.ceil(bytes.length / 3);
      for (let start = 0; start < bytes.length; start += third) res.write(bytes.subarray(start, start + third));
      res.end();
    };
    const json = (value: unknown): void => send(200, `${JSON.stringify(value)}\n`, 'application/json');
    try {
      route(url, req.headers.authorization, send, json);
    } catch (error) {
      if (!(error instanceof HttpFailure)) throw error;
      const echoed = resolved.echoKey && req.headers.authorization !== undefined ? `${error.message} (received: ${req.headers.authorization})` : error.message;
      const { body, type } = errorBody(error.status, echoed);
      send(error.status, body, type, error.headers);
    }
  });

  function route(
    url: URL,
    authorization: string | undefined,
    send: (status: number, body: Buffer | string, type: string, headers?: Record<string, string>) => void,
    json: (value: unknown) => void,
  ): void {
    const pathname = url.pathname;
    // Public live scope: no key.
    const live = /^\/api\/research\/live\/([A-Za-z0-9._-]+?)(\.csv)?$/.exec(pathname);
    if (live !== null) {
      if (live[1] !== RESEARCH_DATASET) throw new HttpFailure(404, 'Unknown live research page.');
      if (live[2] === '.csv') return send(200, breadthCsv(now), 'text/csv; charset=utf-8');
      return json(livePage(now, resolved));
    }
    // The API moved: every old path answers a redirect to the same path under /v1.
    if (resolved.moved !== undefined && pathname.startsWith('/old/v1/')) {
      const target = `${pathname.slice('/old'.length)}${url.search}`;
      return send(resolved.moved, '', 'text/plain', { location: resolved.moved === 302 ? target : `${apiOrigin}${target}` });
    }
    if (!pathname.startsWith('/v1/')) throw new HttpFailure(404, 'Not found.');
    const rest = pathname.slice('/v1'.length);

    // Every {base_url} endpoint needs the Bearer key.
    if (authorization !== `Bearer ${apiKey}` || resolved.keyRefused === 401) throw new HttpFailure(401, 'Missing, incorrect or revoked API key.');
    if (resolved.rateLimitFirst !== undefined && rest.endsWith(resolved.rateLimitFirst) && !limited.has(rest)) {
      limited.add(rest);
      const headers: Record<string, string> = resolved.rateLimitRetryAfter === 'http-date' ? { 'retry-after': new Date(Date.now() + 3000).toUTCString() } : {};
      throw new HttpFailure(429, 'Too many requests.', headers);
    }

    // Free Research scope.
    if (rest === '/research/catalog') return json(researchCatalog('/v1'));
    const research = /^\/research\/([A-Za-z0-9._-]+)(\/csv)?$/.exec(rest);
    if (research !== null) {
      if (research[1] !== RESEARCH_DATASET) throw new HttpFailure(404, 'Unknown research dataset.');
      if (research[2] === '/csv') return send(200, breadthCsv(now), 'text/csv; charset=utf-8');
      return json(researchSnapshot(now, resolved));
    }

    // Paid Market Events scope.
    if (resolved.keyRefused === 403) throw new HttpFailure(403, 'No active data plan for this key.');
    if (rest === '/catalog') {
      if (resolved.catalogStatus === 404) throw new HttpFailure(404, 'Not found.');
      return json(paidCatalog());
    }
    if (rest === '/schema') return json(schemaDocument(resolved, String(newest?.release.version ?? resolved.productVersion)));
    if (rest === '/releases') {
      checkParameters(url, 'releases');
      const limit = integerParameter(url, 'limit', 1, 100, 30);
      return json({ items: [...releases].reverse().slice(0, limit).map(listItem) });
    }
    const rows = /^\/rows\/([^/]+)$/.exec(rest);
    if (rows !== null) return json(rowPage(url, findRelease(rows[1]!)));
    const download = /^\/download\/([^/]+)\/([^/]+)$/.exec(rest);
    if (download !== null) {
      const release = findRelease(download[1]!);
      const format = download[2] as FileFormat;
      if (!FORMATS.includes(format)) throw new HttpFailure(404, 'Unknown file format.');
      const file = served(release, format);
      if (file === undefined) throw new HttpFailure(404, 'This file is unavailable.');
      if (resolved.parquetUnavailable && format === 'parquet') throw new HttpFailure(resolved.parquetUnavailableStatus, 'This file is unavailable.');
      if (resolved.dailyByteLimit !== undefined && (format === 'parquet' || format === 'csv' || format === 'json')) {
        const retryAfter = String(secondsToNextUtcDay());
        if (resolved.dailyByteLimit === 'text') return send(429, 'quota\n', 'text/plain', { 'retry-after': retryAfter });
        return send(429, JSON.stringify({ message: 'quota' }), 'application/json', { 'retry-after': retryAfter });
      }
      const etag = resolved.etag === 'other-sha256' ? `"${sha256Hex(`revision-etag:${release.id}:${format}`)}"` : undefined;
      if (resolved.cdn !== undefined) {
        const token = sha256Hex(`cdn:${release.id}:${format}`).slice(0, 24);
        cdnFiles.set(`/cdn/${token}/${format}`, { file, etag });
        return send(resolved.cdn, '', 'text/plain', { location: `${cdnOrigin}/cdn/${token}/${format}` });
      }
      return send(200, file.bytes, file.contentType, etag === undefined ? {} : { etag });
    }
    throw new HttpFailure(404, 'Not found.');
  }

  function paidCatalog(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      datasets: [
        {
          id: DATASET_ID,
          symbols: [...PAIRS],
          first_day: releases[0]?.day ?? null,
          last_day: newest?.day ?? null,
          freshness: 'Recent days are re-checked hourly.',
        },
      ],
    };
    if (resolved.unknownFields) body.account = { plan: 'research-desk', renews: '2026-12-01' };
    if (resolved.limits === 'full') body.limits = { keys: 5, rpm: 300, daily_bytes: 5 * 2 ** 30 };
    if (resolved.limits === 'null-daily') body.limits = { keys: 5, rpm: 300, daily_bytes: null };
    if (resolved.limits === 'other-shape') body.limits = [{ name: 'requests', per: 'minute', value: 300 }, { name: 'bytes', per: 'day', value: '5 GiB' }];
    return body;
  }

  /** The /releases item of a release: the whole release object, or only the fields the spec names. */
  function listItem(release: BuiltRelease): Record<string, unknown> {
    if (resolved.listing === 'full') {
      const { coverage: _coverage, limitations: _limitations, ...item } = release.release;
      return resolved.unknownFields ? { ...item, status: 'ready', links: { manifest: `/v1/download/${release.id}/manifest` } } : item;
    }
    return { id: release.id, day: release.day, version: release.release.version, files: release.release.files };
  }

  function findRelease(id: string): BuiltRelease {
    const release = releases.find((candidate) => candidate.id === id);
    if (release === undefined) throw new HttpFailure(404, 'Unknown release ID.');
    return release;
  }

  function checkParameters(url: URL, endpoint: string): void {
    if (!resolved.strictParameters) return;
    for (const name of url.searchParams.keys()) {
      if (!PARAMETERS[endpoint]!.includes(name)) throw new HttpFailure(422, `Unknown parameter ${name}.`);
    }
  }

  function rowPage(url: URL, release: BuiltRelease): Record<string, unknown> {
    checkParameters(url, 'rows');
    const symbol = url.searchParams.get('symbol');
    const sampleType = url.searchParams.get('sample_type');
    if (symbol !== null && !(PAIRS as readonly string[]).includes(symbol)) throw new HttpFailure(422, 'symbol must be an uppercase allowed pair.');
    if (sampleType !== null && sampleType !== 'event' && sampleType !== 'control') throw new HttpFailure(422, 'sample_type must be event or control.');
    const limit = integerParameter(url, 'limit', 1, 500, 100);
    const offset = integerParameter(url, 'offset', 0, 100_000, 0);
    const matching = release.rows.filter((row) => (symbol === null || row.symbol === symbol) && (sampleType === null || row.sample_type === sampleType));
    const items = matching.slice(offset, offset + limit);
    const hasMore = offset + items.length < matching.length;
    const page: Record<string, unknown> = { items, has_more: hasMore };
    if (resolved.pageTotal) page.total = matching.length;
    if (hasMore) page.next_offset = offset + items.length;
    else if (resolved.lastPageNextOffset === 'null') page.next_offset = null;
    return page;
  }

  const cdn = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: LoggedRequest = {
      origin: 'cdn',
      path: url.pathname,
      query: url.search,
      authorization: req.headers.authorization !== undefined,
      acceptEncoding: String(req.headers['accept-encoding'] ?? ''),
      status: 200,
      encoding: undefined,
      at: Date.now(),
    };
    requests.push(entry);
    const found = cdnFiles.get(url.pathname);
    if (found === undefined) {
      entry.status = 404;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': found.file.contentType,
      'content-length': String(found.file.bytes.length),
      ...(found.etag === undefined ? {} : { etag: found.etag }),
    });
    res.end(found.file.bytes);
  });

  const apiPort = await listen(api);
  const cdnPort = await listen(cdn);
  apiOrigin = `http://127.0.0.1:${apiPort}`;
  cdnOrigin = `http://127.0.0.1:${cdnPort}`;
  return {
    baseUrl: `${apiOrigin}${resolved.moved === undefined ? '' : '/old'}/v1`,
    siteUrl: apiOrigin,
    apiKey,
    releases,
    requests,
    variation: resolved,
    servedBytes(id, format) {
      const release = releases.find((candidate) => candidate.id === id);
      return release === undefined ? undefined : served(release, format)?.bytes;
    },
    async close() {
      await Promise.all([closeServer(api), closeServer(cdn)]);
    },
  };
}

function acceptsEncoding(header: string, encoding: string): boolean {
  return header
    .split(',')
    .map((part) => part.trim().split(';'))
    .some(([name, ...params]) => (name === encoding || name === '*') && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)));
}

function integerParameter(url: URL, name: string, min: number, max: number, fallback: number): number {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new HttpFailure(422, `${name} must be an integer ${min}-${max}.`);
  return value;
}

/** Seconds until the next UTC day on the real clock (a daily byte limit clears then); at least an hour. */
function secondsToNextUtcDay(): number {
  const seconds = 86_400 - (Math.floor(Date.now() / 1000) % 86_400);
  return seconds < 3600 ? seconds + 86_400 : seconds;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
