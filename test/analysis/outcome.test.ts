import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { AnalysisOptionError, MISSING_STATUSES, outcome } from '../../src/analysis/index.js';
import { OUTCOME_STATUSES, WINDOWS } from '../../src/contract/index.js';

describe('outcome(window)', () => {
  it('reads a number only when the status is complete, for every window and status', () => {
    for (const window of WINDOWS) {
      for (const status of OUTCOME_STATUSES) {
        for (const stored of [1.25, 0, null]) {
          const row = { [`status_${window}`]: status, [`direction_adjusted_return_pct_${window}`]: stored };
          const expected = status === 'complete' ? stored : null;
          expect(outcome(window).read(row), `${window} ${status} ${stored}`).toBe(expected);
        }
      }
    }
  });

  it('gives the same answer in SQL, with no coalescing to 0', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const values = OUTCOME_STATUSES.map((status) => `('${status}', 2.5)`).join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT status_1h, ${outcome('1h', 'return_pct').sql} AS value FROM (VALUES ${values}) t(status_1h, return_pct_1h) ORDER BY status_1h`,
    );
    const rows = reader.getRowObjectsJS();
    expect(rows).toHaveLength(OUTCOME_STATUSES.length);
    for (const row of rows) expect(row.value).toBe(row.status_1h === 'complete' ? 2.5 : null);
    expect(outcome('4h', 'mfe_pct').sql).not.toMatch(/coalesce|ifnull/i);
    connection.closeSync();
    instance.closeSync();
  });

  it('lists every status but complete as missing', () => {
    expect([...MISSING_STATUSES].sort()).toEqual(OUTCOME_STATUSES.filter((s) => s !== 'complete').sort());
  });

  it('refuses an unknown window or measure', () => {
    expect(() => outcome('2h')).toThrow(AnalysisOptionError);
    expect(() => outcome('1h', 'status' as never)).toThrow(AnalysisOptionError);
  });
});
