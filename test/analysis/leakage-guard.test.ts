import { describe, expect, it } from 'vitest';
import {
  LeakageError,
  UnknownColumnError,
  assertPredictors,
  checkFeatureSet,
  defineFeatureSet,
  defineModelSpec,
  derivedFeature,
  labelBehind,
  predictorSelectSql,
} from '../../src/analysis/index.js';
import { LABEL_FIELD_NAMES, MARKET_EVENT_FIELDS, PREDICTOR_FIELD_NAMES, UsageError, WINDOWS } from '../../src/contract/index.js';

const labels = MARKET_EVENT_FIELDS.filter((field) => field.role === 'label');

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('leakage guard', () => {
  it('covers every label field of every window (7 measures x 5 windows)', () => {
    expect(labels.length).toBe(LABEL_FIELD_NAMES.length);
    expect(new Set(labels.map((field) => field.window))).toEqual(new Set(WINDOWS));
    expect(labels.length).toBe(35);
  });

  const helpers: [string, (column: string) => unknown][] = [
    ['defineFeatureSet', (column) => defineFeatureSet(['price', column])],
    ['defineModelSpec', (column) => defineModelSpec({ target: 'direction_adjusted_return_pct_1h', predictors: [column, 'oi_usd'] })],
    ['predictorSelectSql', (column) => predictorSelectSql([column])],
    ['assertPredictors', (column) => assertPredictors([column])],
    ['derived feature', (column) => defineFeatureSet([derivedFeature('signal', ['price', column], `price * ${column}`)])],
    [
      'feature derived twice',
      (column) => defineFeatureSet([derivedFeature('outer', [derivedFeature('inner', [column], `abs(${column})`)], 'inner + 1')]),
    ],
    ['upper-case name', (column) => defineFeatureSet([column.toUpperCase()])],
  ];

  for (const [helper, use] of helpers) {
    it(`${helper} throws LeakageError naming the column and window for every label field`, () => {
      for (const field of labels) {
        const error = caught(() => use(field.name));
        expect(error, field.name).toBeInstanceOf(LeakageError);
        expect(error).toBeInstanceOf(UsageError);
        const leakage = error as LeakageError;
        expect(leakage.code).toBe('RDW_LABEL_LEAKAGE');
        expect(leakage.exitCode).toBe(2);
        expect(leakage.window).toBe(field.window);
        expect(leakage.label).toBe(field.name);
        expect(leakage.message).toContain(field.window!);
      }
    });
  }

  it('names the derived feature as the column when a label is among its inputs', () => {
    const error = caught(() => defineFeatureSet([derivedFeature('ret_x_vol', ['quote_volume_5m', 'return_pct_4h'], 'x')])) as LeakageError;
    expect(error.column).toBe('ret_x_vol');
    expect(error.label).toBe('return_pct_4h');
    expect(error.window).toBe('4h');
  });

  it('accepts every predictor field and features derived from them', async () => {
    const features = defineFeatureSet([...PREDICTOR_FIELD_NAMES, derivedFeature('log_volume', ['quote_volume_5m'], 'ln(quote_volume_5m)')]);
    expect(features.names).toContain('log_volume');
    // predictorSelectSql splices a derived feature's SQL only once checkFeatureSet has read it.
    const checked = await checkFeatureSet(['price', derivedFeature('log_volume', ['quote_volume_5m'], 'ln(quote_volume_5m)')]);
    expect(predictorSelectSql(checked.predictors)).toBe(
      '"price", (ln(quote_volume_5m)) AS "log_volume"',
    );
    const model = defineModelSpec({ target: derivedFeature('up_1h', ['return_pct_1h'], 'return_pct_1h > 0'), predictors: ['price'] });
    expect(labelBehind(model.target)).toEqual({ label: 'return_pct_1h', window: '1h' });
  });

  it('refuses unknown columns and a target that is no label', () => {
    expect(caught(() => defineFeatureSet(['not_a_field']))).toBeInstanceOf(UnknownColumnError);
    const error = caught(() => defineModelSpec({ target: 'price', predictors: ['oi_usd'] })) as UnknownColumnError;
    expect(error.code).toBe('RDW_UNKNOWN_COLUMN');
  });
});
