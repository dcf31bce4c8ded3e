import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisOptionError, EmptyStudyError, ReleaseNotInCatalogError, eventStudy } from '../../src/analysis/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays } from '../support/synthetic-rows.js';

// Release selection and option checks need exact control over revisions: synthetic rows in a real catalog.
const base = syntheticDays({ days: 3, seed: 3 });
const revised = { ...base[1]!, releaseId: 'f'.repeat(64), rows: base[1]!.rows.filter((r) => r.sample_type === 'control') };
let built: FixtureCatalog;

beforeAll(async () => {
  built = await buildFixtureCatalog([
    ...base.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })),
    { releaseId: revised.releaseId, day: revised.day, rows: revised.rows, generatedAt: 99 },
  ]);
});
afterAll(async () => built?.close());

describe('eventStudy: release selection', () => {
  it('reads exact release IDs, and the current view keeps only the newest revision of a day', async () => {
    const current = await eventStudy(built.connection, { bootstrap: { samples: 20 } });
    expect(current.metadata.releaseIds).toContain(revised.releaseId);
    expect(current.metadata.releaseIds).not.toContain(base[1]!.releaseId);
    const pinned = await eventStudy(built.connection, { releases: [base[0]!.releaseId], bootstrap: { samples: 20 } });
    expect(pinned.metadata.releaseIds).toEqual([base[0]!.releaseId]);
    expect(pinned.metadata.selection).toBe('releases');
    expect(pinned.metadata.rows).toBe(base[0]!.rows.length);
    await expect(eventStudy(built.connection, { releases: ['0'.repeat(64)] })).rejects.toBeInstanceOf(ReleaseNotInCatalogError);
    await expect(eventStudy(built.connection, { releases: [] })).rejects.toBeInstanceOf(EmptyStudyError);
  });

  it.each([
    [{ window: '2h' }],
    [{ windows: [] }],
    [{ by: [] }],
    [{ by: ['direction', 'venue'] }],
    [{ releases: ['not-an-id'] }],
    [{ bootstrap: { samples: 0 } }],
    [{ bootstrap: { confidence: 1 } }],
    [{ bootstrap: { seed: 1.5 } }],
    [{ bootstrap: { method: 'block' } }],
    [{ bootstrap: { blockDays: 0 } }],
    [{ bootstrap: { blockDays: 'long' } }],
    [{ interval: { method: 'day-bootstrap' } }],
    [{ interval: { blockDays: 0 } }],
    [{ interval: { confidence: 0 } }],
    [{ interval: {}, bootstrap: {} }],
  ])('refuses bad options %j with AnalysisOptionError', async (options) => {
    await expect(eventStudy(built.connection, options as never)).rejects.toMatchObject({ code: 'RDW_ANALYSIS_OPTION' });
    await expect(eventStudy(built.connection, options as never)).rejects.toBeInstanceOf(AnalysisOptionError);
  });
});
