// Which derived features the guard has read: those whose SQL DuckDB parsed and bound (checkFeatureSet), and
// those rdw built itself (the trailing point-in-time helpers), whose SQL no user wrote. Kept by object identity
// with what was read (name, SQL, inputs): derivedFeature's objects are frozen, but the type admits any object, and
// one changed after its reading (its SQL swapped for a label) is not trusted.

import type { DerivedFeature, FeatureInput } from './derived-feature.js';

/** What an rdw-built trailing feature computes. */
export interface TrailingSpec {
  readonly statistic: 'mean' | 'change' | 'rank';
  /** The predictor field it summarises. */
  readonly field: string;
  readonly hours: number;
}

const checked = new WeakMap<DerivedFeature, string>();
const built = new WeakMap<DerivedFeature, TrailingSpec>();

export function markChecked(feature: DerivedFeature): void {
  checked.set(feature, readingOf(feature));
}

/** True when checkFeatureSet read this feature's SQL as it is now, or rdw built it. */
export function isChecked(feature: DerivedFeature): boolean {
  return built.has(feature) || (checked.has(feature) && checked.get(feature) === readingOf(feature));
}

/**
 * What a reading of a feature depends on, as text: its name (errors name it), SQL and inputs, derived inputs by
 * the same, rdw-built ones by name (a field: its name). Also checkFeatureSet's key of the readings that passed.
 */
export function readingOf(feature: FeatureInput): string {
  const of = (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input;
    const derived = input as DerivedFeature;
    if (built.has(derived)) return { built: derived.name };
    return { name: derived.name, sql: derived.sql, inputs: Array.from(derived.inputs ?? [], of) };
  };
  return JSON.stringify(of(feature));
}

export function markBuiltByRdw(feature: DerivedFeature, spec: TrailingSpec): void {
  built.set(feature, spec);
}

/** The spec of an rdw-built trailing feature, or undefined for any other feature. */
export function trailingSpecOf(feature: DerivedFeature): TrailingSpec | undefined {
  return built.get(feature);
}
