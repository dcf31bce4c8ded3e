import { describe, expect, it } from 'vitest';
import { syncReportText } from '../../src/cli/sync-report-text.js';
import type { SyncReport } from '../../src/workbench/index.js';

const report = (over: Partial<SyncReport>): SyncReport => ({
  startedAt: '2026-11-27T19:40:00.000Z',
  finishedAt: '2026-11-27T19:40:05.000Z',
  outcome: 'ok',
  exitCode: 0,
  listed: 100,
  newestListedDay: '2026-10-31',
  oldestListedDay: '2026-07-24',
  new: [],
  revised: [],
  present: 100,
  failed: [],
  snapshots: [],
  snapshotDatasets: [],
  downloadedBytes: 0,
  budget: null,
  mayHaveFallenOff: null,
  previousLastDay: '2026-10-31',
  missingDays: [],
  restated: [],
  locks: [],
  ...over,
});

describe('syncReportText', () => {
  it('says "nothing new" only when every listed release is in the catalog', () => {
    expect(syncReportText(report({}))).toContain('nothing new: all 100 listed releases are in the catalog');
  });

  it('does not say "nothing new" for a run interrupted before its first pull (the catalog holds none of them)', () => {
    const text = syncReportText(report({ outcome: 'interrupted', exitCode: 130, present: 0, previousLastDay: null, interrupted: { signal: 'SIGINT', notPulled: ['a'.repeat(64)] } }));
    expect(text).not.toContain('nothing new');
    expect(text.split('\n')[0]).toContain('0 new, 0 revised, 0 present');
  });

  it('says a recorded snapshot the service calls stale, as rdw research get does (a second server\'s adversary, session 35)', () => {
    const entry = { dataset: 'listing-calendar', fetchedAt: '2026-11-01T00:00:00.000Z', refreshSeconds: 60, nextAt: null, generatedAt: 1_793_491_200 };
    const text = syncReportText(report({ snapshots: [{ ...entry, status: 'recorded', stale: true }, { ...entry, dataset: 'market-breadth', status: 'recorded' }] }));
    expect(text).toContain('snapshot listing-calendar recorded: generated 2026-11-01T00:00:00Z — STALE: older than its freshness boundary');
    expect(text).toMatch(/snapshot market-breadth recorded: generated 2026-11-01T00:00:00Z$/m);
  });

  it('names an empty listing as such instead of "all 0 listed releases are in the catalog"', () => {
    expect(syncReportText(report({ listed: 0, present: 0 }))).toContain('nothing new: the listing named no release');
  });
});
