// Which derived features the guard has read: those whose SQL DuckDB parsed and bound (checkFeatureSet), and
// those rdw built itself (the trailing point-in-time helpers), whose SQL no user wrote. Kept by object identity
// (features are frozen), so a copy with other SQL is not trusted.

import type { DerivedFeature } from './derived-feature.js';

/** What an rdw-built trailing feature computes. */
export interface TrailingSpec {
  readonly statistic: 'mean' | 'change' | 'rank';
  /** The predictor field it summarises. */
  readonly field: string;
  readonly hours: number;
}

const checked = new WeakSet<DerivedFeature>();
const built = new WeakMap<DerivedFeature, TrailingSpec>();

export function markChecked(feature: DerivedFeature): void {
  checked.add(feature);
}

/** True when checkFeatureSet read this feature's SQL, or rdw built it. */
export function isChecked(feature: DerivedFeature): boolean {
  return checked.has(feature) || built.has(feature);
}

export function markBuiltByRdw(feature: DerivedFeature, spec: TrailingSpec): void {
  built.set(feature, spec);
}

/** The spec of an rdw-built trailing feature, or undefined for any other feature. */
export function trailingSpecOf(feature: DerivedFeature): TrailingSpec | undefined {
  return built.get(feature);
}
