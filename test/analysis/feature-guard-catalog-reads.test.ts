// An adversarial review of the leakage guard (session 43) found three ways to put outcome labels into a model's
// predictors past it, all through modelStudy's public options; each is refused (or made harmless) here, on a real
// catalog (simulator seed 1, 4 days):
// 1. json_serialize_plan(sql, optimize := true) plans SQL text against the connection's catalog. The guard binds in
//    an empty database, where the plan is of nothing and passes; on the catalog the optimizer folds a filter on a
//    label to an empty result by the table's statistics, so a feature read the labels' statistics (their maximum
//    over every row, later rows included).
// 2. A spec built by hand whose features.names answered its third reading with one more name: modelStudy mapped the
//    read columns by that list, so the target's column was handed to the model as a predictor (AUC 1).
// 3. A lambda parameter named like a label in another case (`lambda RETURN_PCT_1H: return_pct_1h`): DuckDB gives a
//    name that matches a parameter only without regard to case to the row's column first, so in the guard's relation
//    (no label) it was the parameter and at run time the label; the guard had skipped it as the parameter. Likewise
//    the left side of DuckDB's JSON arrow (`lambda RETURN_PCT_1H: (return_pct_1h -> '$')`), once read as parameters.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CrossRowFeatureError,
  LeakageError,
  UnknownColumnError,
  checkFeatureSet,
  checkModelSpec,
  defineModelSpec,
  derivedFeature,
  predictorSelectSql,
  trailingFeaturesSql,
  type ModelSpec,
} from '../../src/analysis/index.js';
import { modelStudy } from '../../src/modelling/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { rejection } from '../support/thrown.js';

let fixture: FixtureCatalog;
beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: 4, label: 'feature-guard-catalog-reads' });
}, 120_000);
afterAll(async () => fixture?.close());

const target = derivedFeature('up_1h', ['return_pct_1h'], 'CASE WHEN return_pct_1h IS NULL THEN NULL WHEN return_pct_1h > 0 THEN 1 ELSE 0 END');

describe('a function that plans SQL against the catalog is refused', () => {
  // 1 when the catalog holds no row with return_pct_1h above the row's price / 10,000: the labels' maximum.
  const planned = `(json_serialize_plan('SELECT 1 FROM market_events WHERE return_pct_1h > ' || (price / 10000)::VARCHAR, optimize := true) LIKE '%EMPTY_RESULT%')::INTEGER`;

  it('the plan does read the labels on a catalog (what the guard had let through)', async () => {
    const [row] = (
      await fixture.connection.runAndReadAll(
        `SELECT (json_serialize_plan('SELECT 1 FROM market_events WHERE return_pct_1h > ' || (max(return_pct_1h) + 1)::VARCHAR, optimize := true) LIKE '%EMPTY_RESULT%') AS above,
          (json_serialize_plan('SELECT 1 FROM market_events WHERE return_pct_1h > ' || (max(return_pct_1h) - 1)::VARCHAR, optimize := true) LIKE '%EMPTY_RESULT%') AS below
        FROM market_events`,
      )
    ).getRowObjectsJS();
    expect(row).toEqual({ above: true, below: false });
  });

  for (const sql of [planned, `"JSON_SERIALIZE_PLAN"('SELECT 1') IS NULL`, `length(main.json_serialize_plan('SELECT 1'))`]) {
    it(`checkFeatureSet: ${sql}`, async () => {
      const error = await rejection(() => checkFeatureSet([derivedFeature('planned', ['price'], sql)]));
      expect(error, String(error)).toBeInstanceOf(CrossRowFeatureError);
      const refused = error as CrossRowFeatureError;
      expect(refused.code).toBe('RDW_CROSS_ROW_FEATURE');
      expect(refused.column).toBe('planned');
      expect(refused.construct).toContain('json_serialize_plan()');
      expect(refused.message).toContain("plans a query against the catalog's tables");
    });
  }

  it('modelStudy refuses it as a predictor and as a target, before anything runs', async () => {
    const feature = derivedFeature('planned', ['price'], planned);
    const split = { method: 'purged-k-fold', folds: 3 } as const;
    const asPredictor = await rejection(() => modelStudy(fixture.connection, { spec: defineModelSpec({ target, predictors: ['price', feature] }), split }));
    expect(asPredictor, String(asPredictor)).toBeInstanceOf(CrossRowFeatureError);
    const plannedTarget = derivedFeature('up_planned', ['return_pct_1h'], `CASE WHEN return_pct_1h > 0 THEN 1 ELSE 0 END * ${planned}`);
    const asTarget = await rejection(() => modelStudy(fixture.connection, { spec: defineModelSpec({ target: plannedTarget, predictors: ['price'] }), split }));
    expect(asTarget, String(asTarget)).toBeInstanceOf(CrossRowFeatureError);
  });
});

describe('a spec built by hand is read once: its names cannot hand the target to the model', () => {
  /** A feature set whose names answer each reading from the third on with one more name, before the last. */
  function shiftingSpec(): { spec: ModelSpec; reads: () => number } {
    const honest = derivedFeature('leak', ['price'], 'price * 0');
    let reads = 0;
    const features = {
      predictors: Object.freeze(['price', honest]),
      get names(): readonly string[] {
        reads += 1;
        return reads >= 3 ? ['price', 'spare', 'leak'] : ['price', 'leak'];
      },
    };
    return { spec: { target, features }, reads: () => reads };
  }

  it('checkModelSpec returns the predictors it read, named by themselves', async () => {
    const { spec, reads } = shiftingSpec();
    const checked = await checkModelSpec(spec);
    expect(checked.features.names).toEqual(['price', 'leak']);
    expect(Object.isFrozen(checked.features.predictors)).toBe(true);
    expect(reads()).toBe(0);
  });

  it('modelStudy scores the predictors checked, not the target (AUC 1 before)', async () => {
    const { spec } = shiftingSpec();
    const result = await modelStudy(fixture.connection, { spec, split: { method: 'purged-k-fold', folds: 3 } });
    expect(result.evaluation.pooled.model.auc).toBeLessThan(0.75);
    expect(result.evaluation.features).toEqual(['price', 'leak']);
  }, 120_000);
});

describe('a lambda parameter is one only as written, case and all', () => {
  const leaks = [
    'list_transform([price], lambda RETURN_PCT_1H: return_pct_1h)[1]',
    'list_transform([price], lambda "Return_Pct_1h": return_pct_1h)[1]',
    'list_transform([price], lambda return_pct_1h: "RETURN_PCT_1H")[1]',
    '["RETURN_PCT_1H" FOR return_pct_1h IN [price]][1]',
    'list_reduce([price, price], lambda acc, RETURN_PCT_1H: return_pct_1h)',
    'list_transform([price], lambda x: list_transform([x], lambda RETURN_PCT_1H: return_pct_1h)[1])[1]',
    // The JSON arrow's left side, once skipped as a lambda's parameters: bound to the parameter in the guard.
    "(list_transform([price], lambda RETURN_PCT_1H: (return_pct_1h -> '$'))[1])::DOUBLE",
    "(list_transform([price], lambda RETURN_PCT_1H: ((return_pct_1h + 0) -> '$'))[1])::DOUBLE",
    "((price + return_pct_1h) -> '$')::DOUBLE",
  ];

  it('DuckDB reads such a name as the row\'s label where the row holds one (what the guard had let through)', async () => {
    const rows = (
      await fixture.connection.runAndReadAll(`SELECT return_pct_1h AS label, ${leaks[0]} AS leak FROM market_events WHERE return_pct_1h IS NOT NULL LIMIT 50`)
    ).getRowObjectsJS();
    expect(rows.length).toBe(50);
    for (const row of rows) expect(row.leak).toBe(row.label);
    const arrow = (await fixture.connection.runAndReadAll(`SELECT return_pct_1h AS label, ${leaks[6]} AS leak FROM market_events WHERE return_pct_1h IS NOT NULL LIMIT 50`)).getRowObjectsJS();
    for (const row of arrow) expect(row.leak).toBe(row.label);
  });

  for (const sql of leaks) {
    it(`a LeakageError naming the label: ${sql}`, async () => {
      const error = await rejection(() => checkFeatureSet([derivedFeature('cased', ['price'], sql)]));
      expect(error, String(error)).toBeInstanceOf(LeakageError);
      expect((error as LeakageError).label).toBe('return_pct_1h');
      expect((error as LeakageError).column).toBe('cased');
    });
  }

  it('modelStudy refuses it', async () => {
    const spec = defineModelSpec({ target, predictors: ['price', derivedFeature('cased', ['price'], leaks[0]!)] });
    const error = await rejection(() => modelStudy(fixture.connection, { spec, split: { method: 'purged-k-fold', folds: 3 } }));
    expect(error, String(error)).toBeInstanceOf(LeakageError);
  });

  it('a parameter named as written is still the parameter, at run time too; another name in another case is unknown', async () => {
    const features = await checkFeatureSet([
      derivedFeature('same_case', ['price'], 'list_transform([price], lambda return_pct_1h: return_pct_1h * 2)[1]'),
      derivedFeature('quoted_same', ['price'], 'list_transform([price], lambda "RETURN_PCT_1H": "RETURN_PCT_1H" * 3)[1]'),
      derivedFeature('indexed', ['price'], 'list_transform([price], (x, i) -> x * 4 + i - 1)[1]'),
      derivedFeature('json_price', ['price'], "((price + 0) -> '$')::DOUBLE * 5"),
    ]);
    const rows = (
      await fixture.connection.runAndReadAll(`SELECT price, ${predictorSelectSql(features.predictors)} FROM ${trailingFeaturesSql('market_events_current', features.predictors)} WHERE price IS NOT NULL LIMIT 50`)
    ).getRowObjectsJS();
    expect(rows.length).toBe(50);
    for (const row of rows) {
      expect(row.same_case).toBe((row.price as number) * 2);
      expect(row.quoted_same).toBe((row.price as number) * 3);
      expect(row.indexed).toBeCloseTo((row.price as number) * 4, 9);
      expect(row.json_price).toBeCloseTo((row.price as number) * 5, 9);
    }
    expect(await rejection(() => checkFeatureSet([derivedFeature('x_case', ['price'], 'list_transform([price], lambda X: x)[1]')]))).toBeInstanceOf(UnknownColumnError);
  });
});
