// The use cases the commands call (issue 30), against the real mock over HTTP and a real DuckDB catalog:
// pulling the latest N or exact IDs (listings remembered, IDs checked before any request), locking releases
// (only missing IDs pulled, read-only while nothing is missing), and studying a locked catalog (verified first).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedReleaseIds, openCatalog, type Catalog } from '../../src/catalog/index.js';
import { AbortedError } from '../../src/client/index.js';
import { eventStudyOfLock, lockReleases, modelStudyOfLock, pullWanted } from '../../src/workbench/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';

describe('pullWanted', () => {
  it('lists the latest N, remembers the listing, pulls exactly those IDs; exact IDs are pulled as given', async () => {
    await withMockServer({ days: 6, seed: 5 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const planned: string[][] = [];
        const latest = await pullWanted(catalog, client, { latest: 3 }, { onPlanned: (ids) => void planned.push([...ids]) });
        const listing = await client.releases({ limit: 3 });
        expect(latest.ids).toEqual(listing.map((release) => release.id));
        expect(latest.listed?.map((release) => release.id)).toEqual(latest.ids);
        expect(planned).toEqual([latest.ids]);
        expect(latest.result.pulled.map((pulled) => [pulled.id, pulled.status])).toEqual(latest.ids.map((id) => [id, 'imported']));
        // The listing is in listed_releases (plain SQL, not the catalog's readers).
        const listed = await catalog.query<{ id: string }>('SELECT id FROM listed_releases ORDER BY id');
        expect(listed.map((row) => row.id)).toEqual([...latest.ids].sort());

        const older = (await client.releases({ limit: 6 })).at(-1)!.id;
        const exact = await pullWanted(catalog, client, { ids: [older, latest.ids[0]!] });
        expect(exact.listed).toBeUndefined();
        expect(exact.result.pulled.map((pulled) => [pulled.id, pulled.status])).toEqual([
          [older, 'imported'],
          [latest.ids[0], 'present'],
        ]);
      });
    });
  });

  it('refuses a malformed exact ID (exit 2) before any request', async () => {
    await withMockServer({ days: 2, seed: 5 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        await expect(pullWanted(catalog, client, { ids: ['not-an-id'] })).rejects.toMatchObject({ exitCode: 2 });
        expect(mock.requestLog).toHaveLength(0);
      });
    });
  });
});

describe('lockReleases and the locked studies', () => {
  it('pins the latest N (pulling only what is missing), reads a lock of present IDs without writing or connecting, and studies exactly the locked IDs', async () => {
    await withMockServer({ days: 8, seed: 7 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        await pullWanted(catalog, client, { latest: 2 });
        await catalog.close();
        const opened: string[] = [];
        const catalogs: Catalog[] = [];
        const open = async (access: 'read' | 'write') => {
          opened.push(access);
          const next = await openCatalog(home, { readOnly: access === 'read' });
          catalogs.push(next);
          return next;
        };
        let connects = 0;
        const connect = async () => ((connects += 1), client);
        const pulledIds: string[][] = [];
        try {
          const lockPath = path.join(home, 'latest.lock.json');
          const { lock, catalog: written } = await lockReleases(lockPath, { latest: 4 }, { openCatalog: open, connect, onPulled: (ids) => void pulledIds.push([...ids]) });
          const listing = (await client.releases({ limit: 4 })).map((release) => release.id);
          expect(lock.releases.map((release) => release.id).sort()).toEqual([...listing].sort());
          // Two of the four were present: only the other two were pulled.
          expect(pulledIds).toEqual([listing.slice(2)]);
          expect([...(await importedReleaseIds(written, listing))].sort()).toEqual([...listing].sort());
          expect(JSON.parse(await readFile(lockPath, 'utf8')).releases.map((release: { id: string }) => release.id)).toEqual(lock.releases.map((release) => release.id));
          await written.close();

          // A lock of present IDs: the catalog read-only, no connection. Its recording (rows checked, file written)
          // runs inside whileRecording, so a command can say a slow one (session 43: 100 releases, 4-6 s blank).
          opened.length = 0;
          const twoPath = path.join(home, 'two.lock.json');
          const recorded: boolean[] = [];
          const whileRecording = async <T>(work: () => Promise<T>): Promise<T> => {
            recorded.push(await readFile(twoPath).then(() => true, () => false));
            const done = await work();
            recorded.push(await readFile(twoPath).then(() => true, () => false));
            return done;
          };
          const again = await lockReleases(twoPath, { ids: listing.slice(0, 2) }, { openCatalog: open, connect, whileRecording });
          expect(opened).toEqual(['read']);
          expect(connects).toBe(1);
          expect(again.lock.releases).toHaveLength(2);
          expect(recorded).toEqual([false, true]);
          await again.catalog.close();

          // Both studies read exactly the locked IDs, after verifying them.
          const read = () => open('read');
          const event = await eventStudyOfLock({ windows: ['1h'] }, { lockPath: path.join(home, 'two.lock.json'), openCatalog: read });
          expect(event.releases?.sort()).toEqual(listing.slice(0, 2).sort());
          expect(event.result.metadata.releaseIds.sort()).toEqual(listing.slice(0, 2).sort());
          await catalogs.at(-1)!.close(); // the opener's catalog is the caller's to close (one handle per home)
          const model = await modelStudyOfLock({ window: '1h', split: { method: 'walk-forward', folds: 1, testDays: 1 } }, { lockPath, openCatalog: read });
          expect(model.releases?.sort()).toEqual([...listing].sort());
        } finally {
          for (const each of catalogs) await each.close().catch(() => undefined);
        }
      });
    });
  });

  it('a signal heard while the pinned rows are checked writes no lock (AbortedError, onInterrupted told)', async () => {
    // A new user's trial (session 43): Ctrl-C during rdw lock --latest 100's check of present rows said "stopping",
    // then wrote the lock and exited 0.
    await withMockServer({ days: 4, seed: 7 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        await pullWanted(catalog, client, { latest: 2 });
        const stop = new AbortController();
        const told: unknown[] = [];
        const lockPath = path.join(home, 'stopped.lock.json');
        const locking = lockReleases(lockPath, { latest: 2 }, {
          openCatalog: async () => catalog,
          connect: async () => client,
          signal: stop.signal,
          onInterrupted: (pulled) => void told.push(pulled),
          whileRecording: (work) => {
            stop.abort(new Error('SIGINT'));
            return work();
          },
        });
        await expect(locking).rejects.toBeInstanceOf(AbortedError);
        expect(told).toHaveLength(1);
        await expect(readFile(lockPath)).rejects.toMatchObject({ code: 'ENOENT' });
      });
    });
  });

  it('an event study with bad options fails (exit 2) before the lock is read or the catalog opened', async () => {
    let opened = 0;
    const openCatalogNever = async (): Promise<Catalog> => {
      opened += 1;
      throw new Error('opened');
    };
    await expect(eventStudyOfLock({ windows: ['2h' as '1h'] }, { lockPath: '/nonexistent/lock.json', openCatalog: openCatalogNever })).rejects.toMatchObject({ exitCode: 2, code: 'RDW_ANALYSIS_OPTION' });
    expect(opened).toBe(0);
  });
});
