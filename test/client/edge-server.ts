// A tiny scripted HTTP server for download edge cases the mock does not produce (a 200 to a Range
// request, a manifest naming another release, an empty row query). Every request is logged with its Range header.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface EdgeServer {
  baseUrl: string;
  file: Buffer;
  sha256: string;
  releaseId: string;
  log: { url: string; range: string | undefined; auth: boolean }[];
  /**
   * How /download/<id>/parquet answers: 'ranges' honours Range, 'ignore-range' always sends 200,
   * 'range-416' answers every Range request with 416 (and a body) and a plain request with 200.
   */
  mode: 'ranges' | 'ignore-range' | 'range-416';
  /** Release ID written into the manifest body. */
  manifestId: string;
  /** The next this many parquet answers send half of what they declare, then drop the connection. Default 0. */
  cutBodies: number;
  close(): Promise<void>;
}

export async function startEdgeServer(): Promise<EdgeServer> {
  const file = Buffer.alloc(100_000);
  for (let i = 0; i < file.length; i += 1) file[i] = (i * 37 + 11) % 253;
  const sha256 = createHash('sha256').update(file).digest('hex');
  const releaseId = 'b'.repeat(64);
  const state: Omit<EdgeServer, 'close' | 'baseUrl'> = { file, sha256, releaseId, log: [], mode: 'ranges', manifestId: releaseId, cutBodies: 0 };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    state.log.push({ url: req.url ?? '', range: req.headers.range, auth: req.headers.authorization !== undefined });
    const json = (status: number, value: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(value));
    };
    if (req.url === '/v1/catalog') return json(200, { datasets: [], limits: { rpm: 600, daily_bytes: 10_000_000, keys: 1 } });
    // The mock has no empty filter result (every pair has events and controls every day): total 0 here.
    if (req.url?.startsWith(`/v1/rows/${releaseId}?`)) return json(200, { items: [], total: 0, has_more: false, next_offset: null });
    if (req.url === `/v1/download/${releaseId}/manifest`) {
      const body = Buffer.from(JSON.stringify({ id: state.manifestId, files: { parquet: { sha256, bytes: file.length } } }));
      res.setHeader('etag', `"${createHash('sha256').update(body).digest('hex')}"`);
      res.setHeader('content-length', String(body.length));
      return res.end(body);
    }
    if (req.url === `/v1/download/${releaseId}/parquet`) {
      const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      if (state.cutBodies > 0) {
        state.cutBodies -= 1;
        const start = match && state.mode === 'ranges' ? Number(match[1]) : 0;
        const rest = file.subarray(start);
        if (start > 0) {
          res.statusCode = 206;
          res.setHeader('content-range', `bytes ${start}-${file.length - 1}/${file.length}`);
        }
        res.setHeader('accept-ranges', 'bytes');
        res.setHeader('content-length', String(rest.length));
        res.write(rest.subarray(0, Math.floor(rest.length / 2)), () => res.destroy());
        return;
      }
      if (state.mode !== 'ignore-range') res.setHeader('accept-ranges', 'bytes');
      if (match && state.mode === 'range-416') {
        res.statusCode = 416;
        res.setHeader('content-range', `bytes */${file.length}`);
        return json(416, { error: { status: 416, code: 'range_not_satisfiable', message: 'range not satisfiable' } });
      }
      if (match && state.mode === 'ranges') {
        const start = Number(match[1]);
        res.statusCode = 206;
        res.setHeader('content-range', `bytes ${start}-${file.length - 1}/${file.length}`);
        res.setHeader('content-length', String(file.length - start));
        return res.end(file.subarray(start));
      }
      res.setHeader('content-length', String(file.length));
      return res.end(file);
    }
    return json(404, { error: { status: 404, code: 'not_found', message: 'unknown' } });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const edge = state as EdgeServer;
  edge.baseUrl = `http://127.0.0.1:${port}/v1`;
  edge.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return edge;
}
