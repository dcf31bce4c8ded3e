// A small HTTP server for releases rdw's mock never writes (other column types, type words, extra or absent
// fields, another product version): it serves given manifests and files as a service would, and nothing else.
// It does not import src/mock.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Release } from '../../src/contract/index.js';

/** Files a served release offers, by download format. */
export type ServedFiles = Partial<Record<'parquet' | 'csv' | 'schema', Buffer>>;

/** One release as served: its manifest body (the release object) and its files. */
export interface ServedRelease {
  release: Release;
  files: ServedFiles;
  /** Fields of its `/releases` item that differ from the manifest's (merged over id, day, version, files). Default: none. */
  listed?: Record<string, unknown>;
  /** The manifest's bytes as served. Default: `JSON.stringify(release)`. */
  manifest?: Buffer;
}

export interface ReleaseVariantServer {
  /** `{base_url}`, with `/v1`. */
  baseUrl: string;
  /** Request paths, in order. */
  log: string[];
  /** Adds (or replaces) a release; its manifest is served as `JSON.stringify(release)`. */
  add(served: ServedRelease): void;
  close(): Promise<void>;
}

/** The API key the server accepts (any key with the spec's prefix would do; none is checked). */
export const VARIANT_SERVER_KEY = 'rdw_sk_variant_server_test_key';

/** SHA-256 hex and size of some bytes, as a manifest's `files` entry. */
export function digestOf(bytes: Buffer): { sha256: string; bytes: number } {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

export async function startReleaseVariantServer(): Promise<ReleaseVariantServer> {
  const releases = new Map<string, ServedRelease>();
  const log: string[] = [];
  const send = (res: ServerResponse, status: number, body: Buffer, type: string) => {
    res.statusCode = status;
    res.setHeader('content-type', type);
    res.setHeader('content-length', String(body.length));
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, Buffer.from(JSON.stringify(value)), 'application/json');
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    log.push(url.pathname);
    if (url.pathname === '/v1/catalog') return json(res, 200, { datasets: [], limits: { keys: 5, rpm: 6000, daily_bytes: 50 * 2 ** 30 } });
    if (url.pathname === '/v1/releases') {
      const items = [...releases.values()].map(({ release, listed }) => ({ id: release.id, day: release.day, version: release.version, files: release.files, ...listed }));
      return json(res, 200, { items });
    }
    const download = /^\/v1\/download\/([^/]+)\/([a-z]+)$/.exec(url.pathname);
    const served = download === null ? undefined : releases.get(decodeURIComponent(download[1]!));
    if (download !== null && served !== undefined) {
      const format = download[2]!;
      if (format === 'manifest') return send(res, 200, served.manifest ?? Buffer.from(JSON.stringify(served.release)), 'application/json');
      const file = served.files[format as keyof ServedFiles];
      if (file !== undefined) return send(res, 200, file, format === 'schema' ? 'application/json' : 'application/octet-stream');
    }
    return json(res, 404, { error: { status: 404, code: 'not_found', message: 'not found' } });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    log,
    add: (release) => void releases.set(release.release.id, release),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
