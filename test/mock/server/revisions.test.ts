// Time and revisions: advance() runs the hourly re-checks; new IDs are listed, old IDs stay served byte-identical.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PagedRows, Release } from '../../../src/contract/index.js';
import { withMockServer } from '../../support/with-mock-server.js';
import { get } from './http.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('revisions', () => {
  it('publishes revisions with new IDs; /releases lists them; superseded IDs keep their exact bytes and rows', async () => {
    await withMockServer({ days: 3 }, async (server) => {
      const list = async () => ((await get(`${server.baseUrl}/releases?limit=100`, server.keys.desk)).json as { items: Release[] }).items;
      const before = await list();
      const oldFiles = new Map<string, string>();
      for (const release of before.slice(0, 3)) oldFiles.set(release.id, sha256((await get(`${server.baseUrl}/download/${release.id}/parquet`, server.keys.desk)).bytes));

      let published: Release[] = [];
      for (let hour = 0; hour < 48 && published.length === 0; hour += 1) published = server.advance(3600);
      expect(published.length).toBeGreaterThan(0);

      const after = await list();
      // releaseIds (what a consumer's test reads from rdw/mock) is the listing, newest day first, revisions included.
      expect(server.releaseIds()).toEqual(after.map((release) => release.id));
      expect(server.releaseIds(1)).toEqual([after[0]!.id]);
      for (const revision of published.filter((r) => after.some((a) => a.day === r.day && a.id === r.id))) {
        const previous = before.find((r) => r.day === revision.day);
        if (!previous) continue; // a day first published by advance
        expect(revision.id).not.toBe(previous.id);
        expect(after.map((r) => r.id)).not.toContain(previous.id);
        expect(server.archive.isSuperseded(previous.id)).toBe(true);
        // the old ID is still served, byte-identical, rows included
        const oldParquet = await get(`${server.baseUrl}/download/${previous.id}/parquet`, server.keys.desk);
        expect(oldParquet.status).toBe(200);
        expect(sha256(oldParquet.bytes)).toBe(previous.files.parquet.sha256);
        if (oldFiles.has(previous.id)) expect(sha256(oldParquet.bytes)).toBe(oldFiles.get(previous.id));
        const oldRows = (await get(`${server.baseUrl}/rows/${previous.id}?limit=1`, server.keys.desk)).json as PagedRows;
        expect(oldRows.total).toBe(previous.rows);
        const newManifest = (await get(`${server.baseUrl}/download/${revision.id}/manifest`, server.keys.desk)).json as Release;
        expect(newManifest).toEqual(revision);
      }
      expect(after.some((r) => published.some((p) => p.id === r.id))).toBe(true);
    });
  });

  it('a new day is published at midnight of the data clock; /catalog moves with it', async () => {
    await withMockServer({ days: 2 }, async (server) => {
      const catalog = async () => ((await get(`${server.baseUrl}/catalog`, server.keys.desk)).json as { datasets: [{ last_day: string; days: number }] }).datasets[0];
      expect(await catalog()).toMatchObject({ last_day: '2026-10-31', days: 2 });
      server.advance(86_400);
      expect(await catalog()).toMatchObject({ last_day: '2026-11-01', days: 3 });
      const [newest] = ((await get(`${server.baseUrl}/releases?limit=1`, server.keys.desk)).json as { items: [Release] }).items;
      expect(newest.day).toBe('2026-11-01');
    });
  });

  it('finds a release ID known from another process of the same seed without listing first', async () => {
    const id = await withMockServer({ days: 2 }, async (server) => ((await get(`${server.baseUrl}/releases?limit=100`, server.keys.desk)).json as { items: Release[] }).items.at(-1)!.id);
    await withMockServer({ days: 2 }, async (server) => {
      expect((await get(`${server.baseUrl}/download/${id}/manifest`, server.keys.desk)).status).toBe(200);
    });
  });
});
