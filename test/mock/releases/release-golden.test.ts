import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReleaseArchive } from '../../../src/mock/releases/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { DOWNLOAD_FORMATS } from '../../../src/contract/index.js';

// Golden values of seed 1, the default clock (2026-11-01T00:00:00Z), 3 days. A change here means every
// pinned study lock breaks: change the simulator or the file writers only on purpose, then re-pin.
const GOLDEN = [
  {
    day: '2026-10-31',
    id: '88f57f34e1629c6def82ff8b40428e0eb136b7ae797830adc0b981756c01774e',
    generated_at: 1793491200,
    rows: 476,
    files: {
      csv: '3d7933dd2307dd5789eb492f0b8650fe2012636e366f798ccd44b185fa7c2995',
      parquet: 'a2d8290624b1836ea7cbfc6dd9d68fdc19823cc88e0f535225f231736d307c2a',
      json: 'f4e20dfa7e6176726436c0ccc8d205f89184d4167540b29b1b890abcfa593283',
      manifest: '5d95eaa5b75418658f2dab6cce18d1183b08c49ee7f5f41d05e83d2a9eea27b4',
      schema: '9be95252b1edaa8227cecf1ff252ddcc9b8127a6dbf2444f39678f468168386a',
    },
  },
  {
    day: '2026-10-30',
    id: '06a98fcde047b90ab0a0f8c00ae0b65c56bfac65960b761978def64c41c5bd23',
    generated_at: 1793491200,
    rows: 459,
    files: {
      csv: 'c484f1bc937e0a11e1249eb8a1d098c0df3bced0414a9be95a12030f89461bc6',
      parquet: '711ed62c7415f273fd0d8e24aec3dee189d9c4edd8e9b079c432f7e5e9f0b12d',
      json: 'c4e61c55d83290a7dd93fe74f0ec1cc961bbff79f13422edd326b53c0ba9a59a',
      manifest: '76377e93629f2ed67bf6b5d29d9cfe485e728112d714364913ca4676be74eca6',
      schema: '9be95252b1edaa8227cecf1ff252ddcc9b8127a6dbf2444f39678f468168386a',
    },
  },
  {
    day: '2026-10-29',
    id: '99f60e4abb6154e2244ab21b1cbc3e15369dc7b2753a3ad05a573a6db7c21be2',
    generated_at: 1793412000,
    rows: 517,
    files: {
      csv: '1fe6052c534d54528cdb18db53abfe97dfc228dab6faee711e0f04aae640e09a',
      parquet: '70dda323d3d91d208bf2141108e903d3542a4dfb3677d5df072888b7ad119ad2',
      json: '10ac694025d8248bc6295145f13e7b457304fce8cc9402889874ff5fb5543658',
      manifest: '70085933c813d5ccf5281549a7088df46fd954c798a26330decca9c28775bcd1',
      schema: '9be95252b1edaa8227cecf1ff252ddcc9b8127a6dbf2444f39678f468168386a',
    },
  },
];

describe('golden releases (seed 1, default clock, 3 days)', () => {
  it('pins the release IDs, generated_at, row counts and the sha256 of every file', () => {
    const archive = new ReleaseArchive(new MarketSimulator({ seed: 1, days: 3 }));
    const actual = archive.currentReleases().map((release) => ({
      day: release.day,
      id: release.id,
      generated_at: release.generated_at,
      rows: release.rows,
      files: Object.fromEntries(
        DOWNLOAD_FORMATS.map((format) => [format, createHash('sha256').update(archive.file(release.id, format)!).digest('hex')]),
      ),
    }));
    expect(actual).toEqual(GOLDEN);
  });
});
