// readListedReleases: a `/releases` listing read liberally (spec: item fields beyond id, day, version and
// files "not shown"): sparse items kept as given, unusable items skipped and named, never fatal; and a listing's
// abort ends its wait for the account limits too.

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AbortedError, createClient } from '../../src/client/index.js';
import { readListedReleases } from '../../src/client/listed-releases.js';

const id = (char: string) => char.repeat(64);
const files = { parquet: { sha256: id('1'), bytes: 10 } };

describe('readListedReleases', () => {
  it('keeps sparse items exactly as listed, unknown fields included, absent fields absent', () => {
    const items = [
      { id: id('A'), day: '2026-10-31', version: 'mev-calc-7', files },
      { id: `${id('b').slice(0, 60)}-_.~`, day: '2026-10-30', version: 'mev-calc-7', files, region: 'eu', rows: 12 },
    ];
    const { releases, skipped } = readListedReleases(items);
    expect(skipped).toEqual([]);
    expect(releases).toEqual(items);
    expect(releases[0]).not.toHaveProperty('generated_at');
    expect(releases[0]).not.toHaveProperty('rows');
    expect(releases[1]!.region).toBe('eu');
  });

  it('skips items without a usable id or day and says which, keeping the others in order', () => {
    const items = [
      { id: id('a'), day: '2026-10-31' },
      { day: '2026-10-30', version: 'v' },
      { id: `${id('b').slice(0, 63)}/`, day: '2026-10-29' },
      { id: id('c'), day: '2026-02-30' },
      { id: id('d') },
      'not-an-item',
      null,
      { id: id('e'), day: '2026-10-28' },
    ];
    const { releases, skipped } = readListedReleases(items);
    expect(releases.map((release) => release.id)).toEqual([id('a'), id('e')]);
    expect(skipped).toEqual([
      { index: 1, reason: 'no usable id' },
      { index: 2, reason: 'no usable id' },
      { index: 3, reason: 'no usable day' },
      { index: 4, reason: 'no usable day' },
      { index: 5, reason: 'not an object' },
      { index: 6, reason: 'not an object' },
    ]);
  });

  it('keeps the first item of an ID listed twice (another day the second time) and names the second as skipped', () => {
    // A second independent server (session 34): rdw releases showed both, the recorded listing kept the second,
    // and a pull by ID was refused where --latest imported.
    const items = [
      { id: id('a'), day: '2026-10-31', files },
      { id: id('b'), day: '2026-10-30', files },
      { id: id('a'), day: '2026-10-29', files },
    ];
    const { releases, skipped } = readListedReleases(items);
    expect(releases).toEqual([items[0], items[1]]);
    expect(skipped).toEqual([{ index: 2, reason: 'repeats the ID of item 1' }]);
  });

  it('cuts a listing longer than the count asked for to its first usable items', () => {
    const items = ['a', 'b', 'c', 'd'].map((char, index) => ({ id: id(char), day: `2026-10-${31 - index}` }));
    expect(readListedReleases(items, 2).releases.map((release) => release.id)).toEqual([id('a'), id('b')]);
    expect(readListedReleases(items).releases).toHaveLength(4);
  });

  it('reads a file digest written in upper-case hex as the same lower-case digest the manifest gives (the ID stays as given)', () => {
    const upper = { id: id('A'), day: '2026-10-31', files: { csv: { sha256: 'ABCDEF'.padEnd(64, 'C'), bytes: 3 }, parquet: { sha256: 'not-hex', bytes: 1 } } };
    const [release] = readListedReleases([upper]).releases;
    expect(release!.id).toBe(id('A'));
    expect(release!.files).toEqual({ csv: { sha256: 'abcdef'.padEnd(64, 'c'), bytes: 3 }, parquet: { sha256: 'not-hex', bytes: 1 } });
  });
});

describe('releases({ signal }) while the account limits are read', () => {
  it('stops at the abort, not when /catalog answers: a Ctrl-C of rdw pull --latest is heard before the limits', async () => {
    // The listing's signal had guarded /releases alone: its wait for /catalog (seconds on a new home's embedded
    // mock, or a slow service) went on after the abort, and the command stopped only once /catalog answered.
    const held: ServerResponse[] = [];
    const server = createServer((request, response) => {
      if (request.url === '/v1/catalog') return void held.push(response);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'rdw_sk_limits0123456789abcdef0123456789' });
    try {
      const controller = new AbortController();
      const listing = client.releases({ limit: 5, signal: controller.signal }).catch((caught: unknown) => caught);
      for (let i = 0; i < 500 && held.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(held.length).toBe(1);
      controller.abort('SIGINT');
      const outcome = await Promise.race([listing, new Promise((resolve) => setTimeout(() => resolve('still waiting for /catalog'), 2_000))]);
      expect(outcome).toBeInstanceOf(AbortedError);
      expect((outcome as AbortedError).message).toBe('The request for /v1/catalog was aborted by the caller.');
    } finally {
      for (const response of held) response.destroy();
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
