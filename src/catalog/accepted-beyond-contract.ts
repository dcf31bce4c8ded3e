// What a release carried beyond the contract rdw was written for, and was accepted: a new product version,
// other numeric types, extra fields, absent nullable fields, Null-typed columns, other type words. Recorded in
// `releases.accepted`, returned with each pull result, and reported once per pull.

import { PRODUCT_VERSION, type FieldType, type Release } from '../contract/index.js';
import type { BundledSchemaFields } from './check-release-schema.js';
import type { ColumnPlan } from './check-data-columns.js';
import { catalogMessages } from './messages.js';

/** What one release carried beyond the contract (only the kinds that occurred are present). */
export interface AcceptedBeyondContract {
  /** The release's product version, when it is not PRODUCT_VERSION (the version this rdw was written for). */
  version?: string;
  /** Spec number fields the data file holds in another numeric type (field, file type); imported as DOUBLE. */
  widened?: { field: string; type: string }[];
  /** Fields beyond the spec (field, type); each row's values are kept in `market_event_extras`. */
  extraFields?: { field: string; type: string }[];
  /** Nullable spec fields the release does not carry; imported as NULL. */
  absentFields?: string[];
  /** Nullable spec fields whose parquet column is of Parquet's Null type (no values); imported as NULL. */
  nullTypedFields?: string[];
  /** Bundled-schema type words other than the spec's own (field, word, the spec type it was read as). */
  typeWords?: { field: string; word: string; type: FieldType }[];
  /** Spec number fields that held NaN or ±Infinity on some rows (field, rows); imported as NULL. Found by the import. */
  nonFinite?: { field: string; rows: number }[];
  /** Values of a closed value set the spec does not list (field, value, rows); imported as they are. Found by the import. */
  otherValues?: { field: string; value: string; rows: number }[];
}

/** The accepted differences of a release from its manifest, bundled schema and column plan; undefined when none. */
export function acceptedBeyondContract(
  release: Pick<Release, 'version'>,
  bundled: BundledSchemaFields | undefined,
  plan: ColumnPlan,
): AcceptedBeyondContract | undefined {
  const accepted: AcceptedBeyondContract = {};
  if (release.version !== PRODUCT_VERSION) accepted.version = release.version;
  if (plan.widened.length > 0) accepted.widened = plan.widened;
  if (plan.extras.length > 0) accepted.extraFields = plan.extras;
  if (plan.absent.length > 0) accepted.absentFields = plan.absent;
  if (plan.nullTyped.length > 0) accepted.nullTypedFields = plan.nullTyped;
  if (bundled !== undefined && bundled.typeWords.length > 0) accepted.typeWords = bundled.typeWords;
  return Object.keys(accepted).length > 0 ? accepted : undefined;
}

/** Kinds of accepted differences, in report order. */
export type AcceptedKind = 'product_version' | 'widened' | 'extra_fields' | 'absent_fields' | 'null_typed_fields' | 'type_words' | 'non_finite' | 'other_values';

/** One line of a pull's report: one kind, over every release of the pull that had it. */
export interface AcceptedNotice {
  kind: AcceptedKind;
  /** One sentence for a person. */
  message: string;
  /** IDs of the releases concerned, in pull order. */
  releases: string[];
}

/**
 * One notice per kind over the results of a pull (releases with `accepted`), in a fixed kind order; empty
 * when every release matched the contract. Names are listed once each, in first-seen order.
 */
export function acceptedNotices(results: readonly { id: string; accepted?: AcceptedBeyondContract | undefined }[]): AcceptedNotice[] {
  const notices: AcceptedNotice[] = [];
  const collect = <T>(kind: AcceptedKind, pick: (accepted: AcceptedBeyondContract) => T[] | undefined, label: (item: T) => string,
    message: (labels: string[], releases: number) => string) => {
    const releases: string[] = [];
    const labels = new Set<string>();
    for (const result of results) {
      const items = result.accepted === undefined ? undefined : pick(result.accepted);
      if (items === undefined || items.length === 0) continue;
      releases.push(result.id);
      for (const item of items) labels.add(label(item));
    }
    if (releases.length > 0) notices.push({ kind, message: message([...labels], releases.length), releases });
  };
  collect('product_version', (a) => (a.version === undefined ? undefined : [a.version]), (v) => v,
    (versions, n) => catalogMessages.acceptedVersion(versions, PRODUCT_VERSION, n));
  collect('widened', (a) => a.widened, (w) => `${w.field} ${w.type}`, catalogMessages.acceptedWidened);
  collect('extra_fields', (a) => a.extraFields, (e) => `${e.field} ${e.type}`, catalogMessages.acceptedExtraFields);
  collect('absent_fields', (a) => a.absentFields, (name) => name, catalogMessages.acceptedAbsentFields);
  collect('null_typed_fields', (a) => a.nullTypedFields, (name) => name, catalogMessages.acceptedNullTypedFields);
  collect('type_words', (a) => a.typeWords, (t) => `${t.word} as ${t.type}`, catalogMessages.acceptedTypeWords);
  collect('non_finite', (a) => a.nonFinite, (n) => n.field, catalogMessages.acceptedNonFinite);
  collect('other_values', (a) => a.otherValues, (v) => `${v.field} ${JSON.stringify(v.value)}`, catalogMessages.acceptedOtherValues);
  return notices;
}
