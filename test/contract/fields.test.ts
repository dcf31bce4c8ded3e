import { describe, expect, it } from 'vitest';
import {
  IDENTITY_FIELD_NAMES,
  LABEL_FIELD_NAMES,
  MARKET_EVENT_FIELDS,
  MARKET_EVENT_FIELD_NAMES,
  OUTCOME_MEASURES,
  OUTCOME_STATUSES,
  PREDICTOR_FIELD_NAMES,
  SAMPLE_FIELDS,
  WINDOWS,
  fieldSpec,
  fieldsWithRole,
  outcomeFieldName,
  schemaDocument,
} from '../../src/contract/index.js';

describe('Market Events field table', () => {
  it('has the spec row fields followed by seven outcome fields per window, names unique', () => {
    expect(SAMPLE_FIELDS).toHaveLength(35);
    expect(MARKET_EVENT_FIELDS).toHaveLength(35 + WINDOWS.length * OUTCOME_MEASURES.length);
    expect(new Set(MARKET_EVENT_FIELD_NAMES).size).toBe(MARKET_EVENT_FIELD_NAMES.length);
    expect(MARKET_EVENT_FIELD_NAMES.slice(0, 4)).toEqual(['row_id', 'dataset', 'calculation_version', 'sample_type']);
    expect(MARKET_EVENT_FIELD_NAMES.at(-1)).toBe('expected_candles_7d');
  });

  it('marks every outcome field of every window as a label, and nothing else', () => {
    const expected = WINDOWS.flatMap((window) => OUTCOME_MEASURES.map((measure) => outcomeFieldName(measure, window)));
    expect([...LABEL_FIELD_NAMES].sort()).toEqual([...expected].sort());
    for (const name of expected) {
      const field = fieldSpec(name);
      expect(field?.role).toBe('label');
      expect(WINDOWS).toContain(field?.window);
    }
    expect(SAMPLE_FIELDS.some((field) => field.role === 'label')).toBe(false);
  });

  it('keeps predictors, identity and labels disjoint, and every field has exactly one role', () => {
    const all = [
      ...fieldsWithRole('identity'),
      ...fieldsWithRole('metadata'),
      ...fieldsWithRole('predictor'),
      ...fieldsWithRole('label'),
      ...fieldsWithRole('provenance'),
    ];
    expect(all.sort()).toEqual([...MARKET_EVENT_FIELD_NAMES].sort());
    expect(PREDICTOR_FIELD_NAMES.filter((name) => LABEL_FIELD_NAMES.includes(name))).toEqual([]);
    expect(IDENTITY_FIELD_NAMES).toEqual(['row_id', 'sample_type', 'symbol', 'sample_time']);
  });

  it('is nullable except where the spec says not nullable', () => {
    const notNullable = MARKET_EVENT_FIELDS.filter((field) => !field.nullable).map((field) => field.name);
    expect(notNullable).toEqual(['feature_pit_eligible', ...WINDOWS.map((window) => `status_${window}`)]);
  });

  it('gives status_W the outcome value set', () => {
    for (const window of WINDOWS) expect(fieldSpec(`status_${window}`)?.values).toEqual(OUTCOME_STATUSES);
  });

  it('derives the schema document from the table, in spec order', () => {
    const document = schemaDocument();
    expect(Object.keys(document.fields)).toEqual(MARKET_EVENT_FIELD_NAMES);
    expect(document.fields.feature_pit_eligible).toEqual({
      type: 'boolean',
      nullable: false,
      description: fieldSpec('feature_pit_eligible')?.description,
    });
    expect(document.dataset).toBe('market-events-v1');
  });
});
