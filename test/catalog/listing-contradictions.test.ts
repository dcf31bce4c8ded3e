// listingContradictions: a manifest compared with its `/releases` item. Hex digests differ only in case when an
// older rdw recorded a server's upper-case listing: that is the same digest, not a contradiction (exit 3).

import { describe, expect, it } from 'vitest';
import { listingContradictions } from '../../src/catalog/check-manifest-statements.js';
import type { ListedRelease, Release } from '../../src/contract/index.js';

const sha = 'abcdef'.padEnd(64, '0');
const release = { id: 'r'.repeat(64), day: '2026-10-01', version: 'mev-calc-7', files: { csv: { sha256: sha, bytes: 4 } } } as unknown as Release;

describe('listingContradictions', () => {
  it('reads an upper-case recorded digest as the same digest', () => {
    const listed = { id: release.id, day: '2026-10-01', files: { csv: { sha256: sha.toUpperCase(), bytes: 4 } } } as unknown as ListedRelease;
    expect(listingContradictions(release, listed)).toEqual([]);
  });

  it('still names a digest that differs in more than case, and a size that differs', () => {
    const listed = { id: release.id, day: '2026-10-01', files: { csv: { sha256: 'F'.repeat(64), bytes: 5 } } } as unknown as ListedRelease;
    expect(listingContradictions(release, listed).map((found) => found.field)).toEqual(['files.csv', 'files.csv']);
  });
});
