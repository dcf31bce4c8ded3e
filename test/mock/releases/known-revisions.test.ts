// Known revisions: what an earlier run of the same mock code and options published is listed without simulating
// or building its day again, and its files, when asked for, are the same bytes.

import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnownRevisionsFile, ReleaseArchive, mockCodeFingerprint } from '../../../src/mock/releases/index.js';
import { makeTemporaryFolder, removeTree } from '../../../src/base/index.js';
import { DOWNLOAD_FORMATS, type Release } from '../../../src/contract/index.js';
import { recordingSimulator, smallSimulator } from './small-simulator.js';

const HOUR = 3600;
const digest = (bytes: Uint8Array | undefined) => (bytes ? createHash('sha256').update(bytes).digest('hex') : 'absent');
const DAYS = 12;

describe('known revisions file', () => {
  let dir: string;
  let file: string;
  let first: Release[];
  let firstFiles: Map<string, string[]>;
  let firstAdvanced: Release[];

  beforeAll(async () => {
    dir = await makeTemporaryFolder('rdw-known-revisions-');
    file = path.join(dir, 'state', 'known.json');
    const simulator = smallSimulator({ days: DAYS });
    const known = new KnownRevisionsFile(file, simulator.options);
    const archive = new ReleaseArchive(simulator, { knownRevisions: known });
    first = archive.currentReleases();
    firstFiles = new Map(first.map((r) => [r.id, DOWNLOAD_FORMATS.map((format) => digest(archive.file(r.id, format)))]));
    expect(await known.save()).toBe(true);
    // Nothing added since: nothing written.
    expect(await known.save()).toBe(false);
    firstAdvanced = new ReleaseArchive(smallSimulator({ days: DAYS })).advance(3 * HOUR);
  });

  afterAll(async () => {
    await removeTree(dir);
  });

  it('lists what the earlier run published without simulating a day, and builds the same bytes when asked', () => {
    const simulator = recordingSimulator(smallSimulator({ days: DAYS }));
    const archive = new ReleaseArchive(simulator, { knownRevisions: new KnownRevisionsFile(file, simulator.options) });
    expect(archive.currentReleases()).toEqual(first);
    expect(archive.coverage().days).toBe(DAYS);
    expect(simulator.calls).toEqual([]);
    const newest = first[0]!;
    expect(DOWNLOAD_FORMATS.map((format) => digest(archive.file(newest.id, format)))).toEqual(firstFiles.get(newest.id));
    // Only the day whose files were asked for was simulated, as of the check that published it.
    expect(simulator.calls).toEqual([`${newest.day}@${newest.generated_at}`]);
    expect(archive.rows(newest.id).length).toBe(newest.rows);
  });

  it('moves the clock from known revisions as from built ones: the same revisions are published', () => {
    const simulator = smallSimulator({ days: DAYS });
    const archive = new ReleaseArchive(simulator, { knownRevisions: new KnownRevisionsFile(file, simulator.options) });
    archive.currentReleases();
    expect(archive.advance(3 * HOUR)).toEqual(firstAdvanced);
  });

  it('is not used for other simulator options (another seed lists its own releases)', () => {
    const simulator = recordingSimulator(smallSimulator({ days: DAYS, seed: 2 }));
    const listed = new ReleaseArchive(simulator, { knownRevisions: new KnownRevisionsFile(file, simulator.options) }).currentReleases();
    expect(simulator.calls).toHaveLength(DAYS);
    expect(listed.map((r) => r.id)).toEqual(new ReleaseArchive(smallSimulator({ days: DAYS, seed: 2 })).currentReleases().map((r) => r.id));
    const seedOne = new Set(first.map((r) => r.id));
    expect(listed.filter((r) => seedOne.has(r.id))).toEqual([]);
  });

  it('does not use an entry whose ID is not its digests\' ID (a damaged or edited entry): that day is built', async () => {
    const edited = path.join(dir, 'edited.json');
    const document = JSON.parse(await readFile(file, 'utf8')) as { made_by: string; revisions: Record<string, { release: Release }> };
    const [key, entry] = Object.entries(document.revisions).find(([, revision]) => revision.release.id === first[1]!.id)!;
    entry.release.files.csv.sha256 = '0'.repeat(64);
    await writeFile(edited, JSON.stringify(document));
    const simulator = recordingSimulator(smallSimulator({ days: DAYS }));
    const listed = new ReleaseArchive(simulator, { knownRevisions: new KnownRevisionsFile(edited, simulator.options) }).currentReleases();
    expect(listed).toEqual(first);
    expect(simulator.calls).toEqual([key]);
  });

  it('ignores a file that is not its JSON, or made by other code, and replaces it when it saves', async () => {
    const document = JSON.parse(await readFile(file, 'utf8')) as { made_by: string };
    expect(document.made_by).toMatch(/^[0-9a-f]{64}$/);
    expect(mockCodeFingerprint()).toMatch(/^[0-9a-f]{64}$/);
    for (const [name, text] of [
      ['broken.json', '{"made_by": '],
      ['other-code.json', JSON.stringify({ ...document, made_by: 'f'.repeat(64) })],
    ] as const) {
      const other = path.join(dir, name);
      await writeFile(other, text);
      const simulator = recordingSimulator(smallSimulator({ days: DAYS }));
      const known = new KnownRevisionsFile(other, simulator.options);
      expect(new ReleaseArchive(simulator, { knownRevisions: known }).currentReleases(3)).toEqual(first.slice(0, 3));
      expect(simulator.calls).toHaveLength(3);
      expect(await known.save()).toBe(true);
      const saved = JSON.parse(await readFile(other, 'utf8')) as { made_by: string; revisions: object };
      expect(saved.made_by).toBe(document.made_by);
      expect(Object.keys(saved.revisions)).toHaveLength(3);
    }
  });

  it('keeps nothing, and says nothing, where the file cannot be written', async () => {
    const blocked = path.join(dir, 'a-file');
    await writeFile(blocked, 'not a folder');
    const simulator = smallSimulator({ days: 2 });
    const known = new KnownRevisionsFile(path.join(blocked, 'known.json'), simulator.options);
    new ReleaseArchive(simulator, { knownRevisions: known }).currentReleases();
    expect(await known.save()).toBe(false);
  });
});
