// The spec leaves open which download carries the release document shape: a manifest that is the document
// (release object under `release`) is read as its release object, and the lock still pins the bytes' hash.

import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_shape0123456789abcdef0123456789a';
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const id = 'A'.repeat(32) + 'b'.repeat(32);
const files = { csv: { sha256: sha256('rows'), bytes: 4 } };

describe('manifest shapes', () => {
  let server: ScriptedServer;
  let client: RdwClient;
  let body: Buffer;

  beforeEach(async () => {
    server = await startScriptedServer((_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 10_000_000 } });
      if (url.pathname === `/v1/download/${id}/manifest`) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        return res.end(body);
      }
      return sendJson(res, 404, {});
    });
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, home: await mkdtemp(join(tmpdir(), 'rdw-shape-')), clock: fakeClock() });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('reads a release-document-shaped manifest as its release object, outer dataset and version filling gaps', async () => {
    body = Buffer.from(JSON.stringify({ dataset: 'market-events-v1', version: 'mev-calc-7', status: 'ready', fields: {}, release: { id, day: '2026-10-01', files }, items: [] }));
    const result = await client.manifest(id);
    expect(result.release).toMatchObject({ id, day: '2026-10-01', dataset: 'market-events-v1', version: 'mev-calc-7', files });
    expect(result.sha256).toBe(sha256(body));
  });

  it('keeps the release object as given when it carries its own version', async () => {
    body = Buffer.from(JSON.stringify({ version: 'outer-1', release: { id, version: 'inner-2', files } }));
    expect((await client.manifest(id)).release.version).toBe('inner-2');
  });

  it('reads upper-case hex digests as the same digests (the spec says only "hex digest")', async () => {
    const upper = { csv: { sha256: files.csv.sha256.toUpperCase(), bytes: 4 }, note: 'kept' };
    body = Buffer.from(JSON.stringify({ id, day: '2026-10-01', files: upper }));
    const result = await client.manifest(id);
    expect(result.release.files).toEqual({ csv: files.csv, note: 'kept' });
    expect(result.sha256).toBe(sha256(body));
  });

  it.each([
    ['an array', '[1,2]'],
    ['a document whose release has no files', JSON.stringify({ release: { id } })],
    ['a string', '"manifest"'],
  ])('refuses %s as an unexpected response', async (_name, text) => {
    body = Buffer.from(text);
    await expect(client.manifest(id)).rejects.toMatchObject({ code: 'RDW_UNEXPECTED_RESPONSE' });
  });
});
