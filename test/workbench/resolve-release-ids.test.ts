// resolveReleaseIds: what rdw's tables show (the first 12+ characters of an ID) is taken back as input when exactly
// one release this catalog knows (imported or listed) starts with it; whole IDs pass unchanged, known or not.
// A real catalog file; the listing recorded as rdw releases records it.

import { describe, expect, it } from 'vitest';
import { CatalogOptionError, openCatalog, recordListings } from '../../src/catalog/index.js';
import type { ListedRelease } from '../../src/contract/index.js';
import { checkReleaseIdsOrPrefixes, resolveReleaseIds } from '../../src/workbench/resolve-release-ids.js';
import { withTempHome } from '../support/temp-home.js';

const id = (head: string) => head.padEnd(64, '0');
const listed = (ids: string[]): ListedRelease[] => ids.map((releaseId, index) => ({ id: releaseId, day: `2026-10-${String(10 + index).padStart(2, '0')}` }) as ListedRelease);

describe('resolveReleaseIds', () => {
  it('resolves a unique prefix, keeps whole IDs, and refuses unknown, shared and malformed ones with exit 2', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home);
      try {
        const a = id('aaaaaaaaaaaa1');
        const b = id('aaaaaaaaaaaa2');
        const c = id('cccccccccccc');
        await recordListings(catalog, listed([a, b, c]));
        const unknownWhole = id('ffffffffffff');
        expect(await resolveReleaseIds(catalog, ['cccccccccccc', a, 'aaaaaaaaaaaa2', unknownWhole])).toEqual([c, a, b, unknownWhole]);

        const refusal = async (input: string) => resolveReleaseIds(catalog, [input]).then(() => undefined, (error: unknown) => error);
        const shared = await refusal('aaaaaaaaaaaa');
        expect(shared).toBeInstanceOf(CatalogOptionError);
        expect((shared as CatalogOptionError).exitCode).toBe(2);
        expect((shared as Error).message).toContain('starts two release IDs');
        expect((await refusal('dddddddddddd')) as Error).toMatchObject({ code: 'RDW_CATALOG_OPTION', message: expect.stringContaining('No release this catalog knows starts with "dddddddddddd"') });
        // Case is never folded: the prefix of c in upper case is no prefix of a known ID.
        // It is only named: "… one starts with "cccccccccccc": give that".
        expect(((await refusal('CCCCCCCCCCCC')) as Error).message).toBe(
          'No release this catalog knows starts with "CCCCCCCCCCCC"; release IDs are exact, letter case too, and one starts with "cccccccccccc": give that.',
        );
        // Two IDs that another case would match: no guess, the plain sentence.
        expect(((await refusal('AAAAAAAAAAAA')) as Error).message).toBe(
          'No release this catalog knows starts with "AAAAAAAAAAAA": run rdw releases (it records what the API lists) and copy an ID from it, or give the whole ID.',
        );
        for (const bad of ['ccccccccccc', 'cccccccccccc/', '']) {
          expect(((await refusal(bad)) as Error).message).toContain('is not a release ID');
          expect(() => checkReleaseIdsOrPrefixes([bad])).toThrow(CatalogOptionError);
        }
      } finally {
        await catalog.close();
      }
    });
  });
});
