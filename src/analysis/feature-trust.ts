// Which derived features the guard has read: those whose SQL DuckDB parsed and bound (checkFeatureSet), and
// those rdw built itself (the trailing point-in-time helpers), whose SQL no user wrote. The guard reads a frozen
// copy of the feature (each property read once) and rdw splices that copy's SQL, never the object's again: the
// type admits any object, and one whose SQL changes after its reading (a later assignment, or a getter that
// answers the guard with `price` and the query with a label, as an adversary's trial did) is not trusted.

import { derivedFeature, type DerivedFeature, type FeatureInput } from './derived-feature.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';

/** What an rdw-built trailing feature computes. */
export interface TrailingSpec {
  readonly statistic: 'mean' | 'change' | 'rank';
  /** The predictor field it summarises. */
  readonly field: string;
  readonly hours: number;
}

/** Each feature the guard read → the frozen copy it read (a copy maps to itself). */
const checked = new WeakMap<DerivedFeature, DerivedFeature>();
const built = new WeakMap<DerivedFeature, TrailingSpec>();

/**
 * A frozen copy of a feature, each property read once, derived inputs copied the same way (rdw-built ones and
 * field names kept): what the guard reads and what rdw's SQL splices.
 */
export function snapshotOf(feature: DerivedFeature): DerivedFeature {
  if (built.has(feature)) return feature;
  const { name, sql } = feature;
  // Primitive strings only: a String object's toString() could answer the guard and the query differently.
  if (typeof name !== 'string' || typeof sql !== 'string') {
    throw new AnalysisOptionError(analysisMessages.featureNotText(typeof name === 'string' ? name : '?', typeof name !== 'string' ? 'name' : 'sql'), { option: 'features' });
  }
  const inputs = Array.from(feature.inputs ?? [], (input: FeatureInput) => (typeof input === 'string' ? input : snapshotOf(input)));
  return derivedFeature(name, inputs, sql);
}

/** Records that the guard read `snapshot`, the copy of `feature` (snapshotOf) it was given. */
export function markChecked(feature: DerivedFeature, snapshot: DerivedFeature): void {
  checked.set(snapshot, snapshot);
  checked.set(feature, snapshot);
}

/**
 * The copy of `feature` the guard read, while the feature still reads as that copy (rdw-built ones: themselves);
 * undefined when it was not read or has changed since. Splice this copy's SQL, not the feature's.
 */
export function checkedFeature(feature: DerivedFeature): DerivedFeature | undefined {
  if (built.has(feature)) return feature;
  const snapshot = checked.get(feature);
  if (snapshot === undefined || snapshot === feature) return snapshot;
  return readingOf(snapshotOf(feature)) === readingOf(snapshot) ? snapshot : undefined;
}

/** True when checkFeatureSet read this feature's SQL as it is now, or rdw built it. */
export function isChecked(feature: DerivedFeature): boolean {
  return checkedFeature(feature) !== undefined;
}

/**
 * What a reading of a feature depends on, as text: its name (errors name it), SQL and inputs, derived inputs by
 * the same, rdw-built ones by name (a field: its name). Also checkFeatureSet's key of the readings that passed.
 */
export function readingOf(feature: FeatureInput): string {
  const of = (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input;
    const derived = input as DerivedFeature;
    if (built.has(derived)) return { built: derived.name, ...built.get(derived) };
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
