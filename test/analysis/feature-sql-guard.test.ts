// Issue 28 item 3: the leakage guard reads a derived feature's SQL with DuckDB, not its declared inputs. A label
// named anywhere in the expression (plain, quoted, upper case, in a CTE or a subquery) is a LeakageError naming
// the label, whatever was declared; constructs that can see other rows are a CrossRowFeatureError; an honest
// expression is accepted and gives the values plain SQL gives. The two leaks are refused by modelStudy.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  CrossRowFeatureError,
  LeakageError,
  UnknownColumnError,
  checkFeatureSet,
  checkModelSpec,
  defineModelSpec,
  derivedFeature,
  predictorSelectSql,
  trailingFeaturesSql,
  trailingMean,
  trailingChange,
} from '../../src/analysis/index.js';
import { defaultModelSpec, modelCatalog, modelStudy } from '../../src/modelling/index.js';
import { MARKET_EVENT_FIELDS, UsageError } from '../../src/contract/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { rejection, thrown } from '../support/thrown.js';

const labels = MARKET_EVENT_FIELDS.filter((field) => field.role === 'label');
const LABEL = 'direction_adjusted_return_pct_1h';

/** One catalog for the file's catalog tests: simulator seed 1, 6 days (built once). */
let fixture: FixtureCatalog;
beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: 6, label: 'feature-sql-guard' });
}, 120_000);
afterAll(async () => fixture?.close());

/** The feature's SQL through checkFeatureSet, declared as reading only `price`. */
const check = (sql: string, name = 'hidden') => rejection(() => checkFeatureSet([derivedFeature(name, ['price'], sql)]));

function expectLeak(error: unknown, label: string, window: string, column = 'hidden'): void {
  expect(error, String(error)).toBeInstanceOf(LeakageError);
  const leak = error as LeakageError;
  expect(leak.code).toBe('RDW_LABEL_LEAKAGE');
  expect(leak.exitCode).toBe(2);
  expect(leak.label).toBe(label);
  expect(leak.window).toBe(window);
  expect(leak.column).toBe(column);
  expect(leak.message).toContain(label);
}

describe('the guard reads the SQL: a label named in it is a LeakageError whatever the declared inputs', () => {
  it('every label field of every window, named plainly in an expression declared as reading price', async () => {
    for (const field of labels) expectLeak(await check(`price + ${field.name}`), field.name, field.window!);
  });

  const forms: [string, string][] = [
    ['plain', `CASE WHEN ${LABEL} > 0 THEN 1 ELSE 0 END`],
    ['double-quoted', `CASE WHEN "${LABEL}" > 0 THEN 1 ELSE 0 END`],
    ['upper case', `CASE WHEN ${LABEL.toUpperCase()} > 0 THEN 1 ELSE 0 END`],
    ['quoted upper case', `CASE WHEN "${LABEL.toUpperCase()}" > 0 THEN 1 ELSE 0 END`],
    ['qualified by a table', `market_events.${LABEL}`],
    ['inside a CTE', `(WITH future AS (SELECT ${LABEL} AS x FROM market_events) SELECT max(x) FROM future)`],
    ['inside a scalar subquery', `(SELECT max(${LABEL}) FROM market_events)`],
    ['inside an EXISTS subquery', `EXISTS (SELECT 1 FROM market_events WHERE "${LABEL.toUpperCase()}" > 0)`],
    ['inside a lambda', `list_sum(list_transform([1, 2], lambda v: v * ${LABEL}))`],
  ];
  for (const [form, sql] of forms) {
    it(`${form}: ${sql}`, async () => expectLeak(await check(sql), LABEL, '1h'));
  }

  it('a label in a derived input is named by the input, even when the outer feature declares only that input', async () => {
    const inner = derivedFeature('inner', ['price'], `price * return_pct_4h`);
    expectLeak(await rejection(() => checkFeatureSet([derivedFeature('outer', [inner], 'inner + 1')])), 'return_pct_4h', '4h', 'inner');
  });
});

describe('constructs that can see other rows are refused (CrossRowFeatureError)', () => {
  const constructs: [string, string, string][] = [
    ['lead', 'lead(price, 6) OVER (PARTITION BY symbol ORDER BY sample_time)', 'lead()'],
    ['lag', 'price - lag(price) OVER (PARTITION BY symbol ORDER BY sample_time)', 'lag()'],
    ['first_value', 'first_value(price) OVER (PARTITION BY symbol ORDER BY sample_time DESC)', 'first_value()'],
    ['a FOLLOWING frame', 'avg(price) OVER (PARTITION BY symbol ORDER BY sample_time ROWS BETWEEN CURRENT ROW AND 6 FOLLOWING)', 'avg()'],
    ['an aggregate', 'price / max(price)', 'the aggregate max()'],
    ['count(*)', 'count(*)', 'the aggregate count'],
    ['a scalar subquery', '(SELECT max(price) FROM market_events)', 'a scalar subquery'],
    ['an EXISTS subquery', 'EXISTS (SELECT 1 FROM market_events)', 'an EXISTS subquery'],
    ['an IN subquery', 'price IN (SELECT price FROM market_events)', 'an IN (SELECT …) subquery'],
    ['a CTE', '(WITH later AS (SELECT 1 AS x) SELECT x FROM later)', 'a WITH (CTE) subquery'],
    ['a table function', '(SELECT count(*) FROM read_csv(\'x.csv\'))', 'subquery'],
    ['COLUMNS(…)', "COLUMNS('.*_1h')", 'COLUMNS'],
    ['a positional reference', '#3', 'positional'],
    ['a variable', "getvariable('labels')", 'getvariable()'],
  ];
  for (const [name, sql, construct] of constructs) {
    it(`${name}: ${sql}`, async () => {
      const error = await check(sql, 'peek');
      expect(error, String(error)).toBeInstanceOf(CrossRowFeatureError);
      expect(error).toBeInstanceOf(UsageError);
      const refused = error as CrossRowFeatureError;
      expect(refused.code).toBe('RDW_CROSS_ROW_FEATURE');
      expect(refused.exitCode).toBe(2);
      expect(refused.column).toBe('peek');
      expect(refused.construct).toContain(construct);
      expect(refused.message).toContain('trailingMean');
    });
  }

  it('a derived target may read labels but not other rows', async () => {
    const target = derivedFeature('up_later', ['return_pct_1h'], 'lead(return_pct_1h) OVER (ORDER BY sample_time) > 0');
    const spec = defineModelSpec({ target, predictors: ['price'] });
    expect(await rejection(() => checkModelSpec(spec))).toBeInstanceOf(CrossRowFeatureError);
    expect(await checkModelSpec(defaultModelSpec('4h'))).toBeDefined();
  });
});

describe('SQL that is not one expression of the row is refused', () => {
  const cases: [string, string, new (...args: never[]) => Error][] = [
    ['a second column spliced in', `1) AS x, (${LABEL}`, AnalysisOptionError],
    ['a FROM spliced in', 'price) FROM market_events --', AnalysisOptionError],
    ['a second statement', 'price); SELECT (1', AnalysisOptionError],
    ['a syntax error', 'ln(price', AnalysisOptionError],
    ['an unknown column', 'ln(prize)', UnknownColumnError],
    ['a catalog column that is no row field', 'release_id', UnknownColumnError],
  ];
  for (const [name, sql, kind] of cases) {
    it(name, async () => {
      const error = await check(sql);
      expect(error, String(error)).toBeInstanceOf(kind);
      expect(error).not.toBeInstanceOf(LeakageError);
    });
  }
});

describe('expressions of the row itself are accepted', () => {
  const honest = [
    `event_kind IN ('breakout', 'momentum')`,
    "(event_kind = 'breakout')::INTEGER",
    "CASE event_kind WHEN 'breakout' THEN 1 END",
    'NOT (price > 1) AND oi_usd IS NOT NULL',
    'coalesce(oi_usd, 0) / nullif(price, 0)',
    'price BETWEEN 1 AND 2',
    'greatest(price, oi_usd)',
    'round(log10(quote_volume_5m + 1), 3)',
    "date_part('hour', to_timestamp(sample_time))",
    "regexp_matches(symbol, '^BTC')",
    'list_sum(list_transform([1, 2], lambda v: v * price))',
    'sample_time - feature_available_at',
  ];
  it(honest.join(' | '), async () => {
    const features = await checkFeatureSet(honest.map((sql, index) => derivedFeature(`honest_${index}`, ['price'], sql)));
    expect(features.names).toHaveLength(honest.length);
  });
});

describe('on a catalog (simulator seed 1, 6 days)', () => {

  it('an honest expression over predictor fields is accepted and gives the values plain arithmetic gives', async () => {
    const logRatio = derivedFeature('ln_volume_ratio_20', ['volume_ratio_20'], 'CASE WHEN volume_ratio_20 > 0 THEN ln(volume_ratio_20) END');
    const flow = derivedFeature('flow', ['net_taker_quote_5m', 'quote_volume_5m'], 'net_taker_quote_5m / nullif(quote_volume_5m, 0)');
    const features = await checkFeatureSet(['price', logRatio, flow]);
    expect(predictorSelectSql(features.predictors)).toBe(
      '"price", (CASE WHEN volume_ratio_20 > 0 THEN ln(volume_ratio_20) END) AS "ln_volume_ratio_20", (net_taker_quote_5m / nullif(quote_volume_5m, 0)) AS "flow"',
    );
    const rows = (
      await fixture.connection.runAndReadAll(
        `SELECT volume_ratio_20, net_taker_quote_5m, quote_volume_5m, ${predictorSelectSql(features.predictors)} FROM market_events_current`,
      )
    ).getRowObjectsJS();
    let compared = 0;
    for (const row of rows) {
      const ratio = row.volume_ratio_20 as number | null;
      // DuckDB's ln and Math.log may differ in the last bit.
      if (ratio !== null && ratio > 0) expect(row.ln_volume_ratio_20 as number).toBeCloseTo(Math.log(ratio), 12);
      else expect(row.ln_volume_ratio_20).toBeNull();
      const volume = row.quote_volume_5m as number | null;
      const net = row.net_taker_quote_5m as number | null;
      expect(row.flow).toBe(net === null || volume === null || volume === 0 ? null : net / volume);
      if (row.ln_volume_ratio_20 !== null) compared += 1;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('predictorSelectSql refuses a derived feature whose SQL the guard has not read', () => {
    const unread = derivedFeature('unread', ['price'], 'ln(price)');
    expect(() => predictorSelectSql(['price', unread])).toThrow(AnalysisOptionError);
    expect(predictorSelectSql(['price', 'oi_usd'])).toBe('"price", "oi_usd"');
  });

  it("a macro of the user's connection is not visible to the guard (it could hide a subquery)", async () => {
    await fixture.connection.run(`CREATE OR REPLACE TEMP MACRO peek_label() AS (SELECT max(${LABEL}) FROM market_events)`);
    expect(await check('price * peek_label()')).toBeInstanceOf(AnalysisOptionError);
  });

  it("the issue's two leaks are refused through modelStudy and modelCatalog", async () => {
    const target = derivedFeature('up_1h', ['return_pct_1h'], 'CASE WHEN return_pct_1h IS NULL THEN NULL WHEN return_pct_1h > 0 THEN 1 ELSE 0 END');
    const hidden = derivedFeature('hidden', ['price'], `CASE WHEN ${LABEL} > 0 THEN 1 ELSE 0 END`);
    const future = derivedFeature('future_price', ['price', 'symbol', 'sample_time'], 'lead(price, 6) OVER (PARTITION BY symbol ORDER BY sample_time)');
    const hiddenSpec = defineModelSpec({ target, predictors: ['price', hidden] }); // the declared lineage passes
    const futureSpec = defineModelSpec({ target, predictors: [future] });
    expectLeak(await rejection(() => modelStudy(fixture.connection, { spec: hiddenSpec })), LABEL, '1h');
    expectLeak(await rejection(() => modelCatalog(fixture.catalog, { spec: hiddenSpec })), LABEL, '1h');
    for (const run of [() => modelStudy(fixture.connection, { spec: futureSpec }), () => modelCatalog(fixture.catalog, { spec: futureSpec })]) {
      const error = (await rejection(run)) as CrossRowFeatureError;
      expect(error).toBeInstanceOf(CrossRowFeatureError);
      expect(error.column).toBe('future_price');
      expect(error.construct).toContain('lead()');
    }
  });
});

// An adversarial review (session 32) found three ways past the guard; each is refused here, and the harmless
// expressions it also found broken (a derived input of a derived feature, a lambda parameter named like a label)
// now work.
describe('names DuckDB reads as a whole row, reused names, and features changed after their reading', () => {
  const target = derivedFeature('up_1h', ['return_pct_1h'], 'CASE WHEN return_pct_1h IS NULL THEN NULL WHEN return_pct_1h > 0 THEN 1 ELSE 0 END');

  it("a relation's name (the whole row as a struct, labels too) is refused, declared as an input or not", async () => {
    // Declared: a derived input named like an unaliased subquery once stood, at run time, for the whole row.
    const row = derivedFeature('unnamed_subquery', [], "{'return_pct_1h': 0.0}");
    const viaStruct = derivedFeature('leak', [row], "struct_extract(unnamed_subquery, 'return_pct_1h')");
    const taken = await rejection(() => checkFeatureSet([viaStruct]));
    expect(taken).toBeInstanceOf(AnalysisOptionError);
    expect((taken as Error).message).toMatch(/^"unnamed_subquery" cannot name a derived feature/);
    // Not declared: the name is neither a field nor a declared input.
    const honest = derivedFeature('lnp', ['price'], 'ln(price)');
    for (const sql of ["CAST(json_extract(to_json(unnamed_subquery), '$.return_pct_1h') AS DOUBLE)", 'length(to_json(feature_row))']) {
      const error = await rejection(() => checkFeatureSet([derivedFeature('leak', [honest], sql)]));
      expect(error, sql).toBeInstanceOf(UnknownColumnError);
    }
    const qualified = await rejection(() => checkFeatureSet([derivedFeature('q', ['price'], 'feature_row.price')]));
    expect(qualified).toBeInstanceOf(UnknownColumnError);
    expect((qualified as Error).message).toContain('"feature_row.price", a qualified name');
  });

  it('a derived feature named like a label (or any field, or a column of rdw\'s queries) is refused before anything runs', () => {
    const asLabel = thrown(() => defineModelSpec({ target, predictors: [derivedFeature('return_pct_1h', ['price'], 'ln(price)')] }));
    expect(asLabel).toBeInstanceOf(LeakageError);
    expect((asLabel as LeakageError).label).toBe('return_pct_1h');
    for (const name of ['price', 'reason', 'release_id', 'day', 'label_end', '__target']) {
      expect(thrown(() => defineModelSpec({ target, predictors: [derivedFeature(name, ['price'], 'ln(price)')] })), name).toBeInstanceOf(AnalysisOptionError);
    }
  });

  it('a feature object changed after its reading is read again (a swapped-in label is a LeakageError), never trusted', async () => {
    const plain = { name: 'mutable', inputs: ['price'], sql: 'price' };
    await checkFeatureSet([plain]);
    expect(predictorSelectSql([plain])).toBe('(price) AS "mutable"');
    plain.sql = 'return_pct_1h';
    expect(() => predictorSelectSql([plain])).toThrow(AnalysisOptionError);
    expectLeak(await rejection(() => modelCatalog(fixture.catalog, { spec: defineModelSpec({ target, predictors: [plain] }) })), 'return_pct_1h', '1h', 'mutable');
  });

  it('a feature whose SQL a getter changes between readings is read once: what was checked is what runs', async () => {
    // An adversary's trial (session 38): `sql` answered the guard's first readings with `price` and the query with
    // a label, and scored pooled AUC 1. Whatever reading it turns at, modelStudy refuses or models `price`.
    let honestReads = 0;
    let reads = 0;
    const sneaky = {
      name: 'sneaky',
      inputs: ['price'],
      get sql() {
        reads += 1;
        return reads <= honestReads ? 'price' : `CASE WHEN ${LABEL} > 0 THEN 1 ELSE 0 END`;
      },
    };
    const plain = await modelStudy(fixture.connection, { spec: defineModelSpec({ target, predictors: [derivedFeature('sneaky', ['price'], 'price')] }) });
    const outcomes = new Set<string>();
    for (honestReads = 1; honestReads <= 8; honestReads += 1) {
      reads = 0;
      const spec = defineModelSpec({ target, predictors: [sneaky] });
      try {
        const result = await modelStudy(fixture.connection, { spec });
        expect(result.evaluation.pooled.model.auc, `turns after ${honestReads} readings`).toBe(plain.evaluation.pooled.model.auc);
        outcomes.add('ran on price');
      } catch (error) {
        expect(error instanceof LeakageError || error instanceof AnalysisOptionError, `turns after ${honestReads}: ${String(error)}`).toBe(true);
        outcomes.add('refused');
      }
    }
    expect(outcomes.has('ran on price')).toBe(true);
    // Read once, then turned: the object is no longer what was read, so it is not trusted.
    reads = 0;
    honestReads = 2;
    await checkFeatureSet([sneaky]);
    expect(() => predictorSelectSql([sneaky])).toThrow(AnalysisOptionError);
  });

  it('two different features of one name, compared without regard to case, are refused (one would stand in for the other)', async () => {
    const cases: [string, unknown[]][] = [
      ['same name twice', [derivedFeature('a', ['price'], 'ln(price)'), derivedFeature('a', ['volume_ratio_20'], 'volume_ratio_20')]],
      ['inputs differing in case', [derivedFeature('p3', [derivedFeature('H', ['price'], 'price * 2')], 'H'), derivedFeature('p4', [derivedFeature('h', ['volume_ratio_20'], 'volume_ratio_20')], 'h')]],
      ['a derived feature named like a trailing one', [trailingMean('price', { hours: 6 }), derivedFeature('trailing_mean_price_6h', ['price'], 'price * 0')]],
      ['two trailing features of one name', [trailingMean('price', { hours: 1, name: 'tm' }), trailingChange('volume_ratio_20', { hours: 100, name: 'tm' })]],
    ];
    for (const [name, predictors] of cases) {
      const error = await rejection(() => checkFeatureSet(predictors as never));
      expect(error, name).toBeInstanceOf(AnalysisOptionError);
      expect((error as Error).message, name).toMatch(/^Two different features are named "(a|h|trailing_mean_price_6h|tm)" \(DuckDB reads names without regard to case\)/i);
    }
    // The same feature used twice (a shared input) is one column, and accepted.
    const shared = derivedFeature('lnp', ['price'], 'ln(price)');
    await expect(checkFeatureSet([derivedFeature('x1', [shared], 'lnp + 1'), derivedFeature('x2', [shared], 'lnp * 2')])).resolves.toBeDefined();
  });

  it('a function whose value is not the row\'s alone (random, now, setseed, nextval, write_log) is refused; so is one of an extension, without fetching it', async () => {
    for (const [sql, fn] of [['price * random()', 'random()'], ['epoch(now())', 'now()'], ['setseed(0.5)', 'setseed()'], ["write_log('x')", 'write_log()']] as const) {
      const error = await check(sql);
      expect(error, sql).toBeInstanceOf(AnalysisOptionError);
      expect((error as Error).message, sql).toBe(`Feature "hidden" calls ${fn}, whose value changes from run to run (or with the moment it runs), so a study would not give the same numbers twice; compute the feature from the row's fields only.`);
    }
    // stem() lives in the fts extension: the guard's database neither installs nor loads one.
    const extension = await check("length(stem('running', 'porter'))");
    expect(extension).toBeInstanceOf(AnalysisOptionError);
    expect((extension as Error).message).toMatch(/not in the catalog, but it exists in the fts extension/);
  });

  it("a feature whose name or SQL is a String object (its toString() could answer the guard and the query apart) is refused", async () => {
    // An adversary's trial (session 38, second round): a String subclass gave `price` to the guard and the label to
    // predictorSelectSql (pooled AUC 1).
    class Shifty extends String {}
    for (const [feature, part] of [
      [derivedFeature('p', ['price'], new Shifty('price') as unknown as string), 'sql'],
      [derivedFeature(new Shifty('p') as unknown as string, ['price'], 'price'), 'name'],
    ] as const) {
      const error = await rejection(() => checkFeatureSet([feature]));
      expect(error, part).toBeInstanceOf(AnalysisOptionError);
      expect((error as Error).message, part).toMatch(new RegExp(`^A derived feature's ${part} must be a string`));
    }
  });

  it("DuckDB's own macros are read through: one hiding a subquery (pg_get_viewdef) or the clock (pg_conf_load_time) is refused, a pure one accepted", async () => {
    const viewdef = await check('length(pg_get_viewdef(1))');
    expect(viewdef).toBeInstanceOf(CrossRowFeatureError);
    expect((viewdef as CrossRowFeatureError).construct).toBe('pg_get_viewdef(), a macro that uses a scalar subquery');
    for (const [sql, fn] of [['epoch(pg_conf_load_time())', 'pg_conf_load_time()'], ['epoch(current_localtimestamp())', 'current_localtimestamp()'], ['length(version())', 'version()']] as const) {
      const error = await check(sql);
      expect(error, sql).toBeInstanceOf(AnalysisOptionError);
      expect((error as Error).message, sql).toContain(`calls ${fn}, whose value changes from run to run`);
    }
    await expect(checkFeatureSet([derivedFeature('pure', ['price'], 'list_sum([price, nullif(price, 0)]) + fmod(price, 2)')])).resolves.toBeDefined();
  });

  it('unnest() (several rows out of one) is refused', async () => {
    const error = await check('unnest([price, price])');
    expect(error).toBeInstanceOf(CrossRowFeatureError);
    expect((error as CrossRowFeatureError).construct).toBe('unnest()');
  });

  it('a derived feature of a derived feature runs (its input is computed as a column) and equals plain SQL', async () => {
    const lnp = derivedFeature('lnp', ['price'], 'ln(price)');
    const twice = derivedFeature('lnp2', [lnp], 'lnp * 2');
    const result = await modelCatalog(fixture.catalog, { spec: defineModelSpec({ target, predictors: [twice, 'volume_ratio_20'] }) });
    expect(result.evaluation.pooled.rows).toBeGreaterThan(100);
    const features = await checkFeatureSet([twice]);
    const rows = (
      await fixture.connection.runAndReadAll(`SELECT price, ${predictorSelectSql(features.predictors)} FROM ${trailingFeaturesSql('market_events_current', features.predictors)} WHERE price > 0`)
    ).getRowObjectsJS();
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) expect(row.lnp2 as number).toBeCloseTo(2 * Math.log(row.price as number), 12);
  });

  it('a lambda parameter named like a label reads no label: accepted', async () => {
    expect(await check('list_transform([price], return_pct_1h -> return_pct_1h * 2)[1]')).toBeUndefined();
    // …while the label itself, outside the lambda's parameters, is still refused.
    expectLeak(await check('list_transform([price], x -> x * return_pct_1h)[1]'), 'return_pct_1h', '1h');
  });
});
