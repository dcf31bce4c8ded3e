// An ETag is never taken as a checksum (the spec gives it no meaning): a manifest whose ETag is the SHA-256
// of something else is accepted, and its checksum is the SHA-256 of the manifest bytes received.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_etag0123456789abcdef0123456789ab';
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('ETag is not a checksum', () => {
  let server: ScriptedServer;
  let client: RdwClient;
  let dir: string;
  const id = 'f'.repeat(64);
  const manifest = Buffer.from(JSON.stringify({ id, files: { csv: { sha256: sha256('rows'), bytes: 4 } } }));
  let etag: string;

  beforeEach(async () => {
    server = await startScriptedServer((_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 10_000_000 } });
      if (url.pathname === `/v1/download/${id}/manifest`) {
        res.writeHead(200, { etag, 'content-length': String(manifest.length) });
        return res.end(manifest);
      }
      return sendJson(res, 404, {});
    });
    dir = await mkdtemp(join(tmpdir(), 'rdw-etag-'));
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, home: dir, clock: fakeClock() });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it.each([
    ['the SHA-256 of another file', `"${sha256('the parquet file')}"`],
    ['a weak ETag of another digest', `W/"${sha256('v2')}"`],
    ['an unquoted upper-case digest', sha256('x').toUpperCase()],
    ['an opaque ETag', '"abc-123"'],
  ])('accepts a manifest whose ETag is %s, and pins the hash of the bytes received', async (_name, value) => {
    etag = value;
    const result = await client.manifest(id);
    expect(result.sha256).toBe(sha256(manifest));
    expect(Buffer.from(result.bytes).equals(manifest)).toBe(true);
    expect(result.release.id).toBe(id);
  });

  it('downloads the manifest file without a known digest: verified by its own bytes, not the ETag', async () => {
    etag = `"${sha256('something else')}"`;
    const dest = join(dir, 'manifest.json');
    expect(await client.download(id, 'manifest', dest)).toEqual({ sha256: sha256(manifest), bytes: manifest.length });
    expect((await readFile(dest)).equals(manifest)).toBe(true);
  });
});
