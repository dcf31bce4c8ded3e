// The type words a bundled schema may use for a field, read as the spec's field types. The spec names only
// string, number, integer and boolean; a real service may write utf8, float64, int64, bool and the like.

import type { FieldType } from './fields.js';

/** Type words (lower case) and the spec field type each one means. The spec's own four words are included. */
export const FIELD_TYPE_WORDS: Readonly<Record<string, FieldType>> = {
  string: 'string',
  utf8: 'string',
  'utf-8': 'string',
  large_utf8: 'string',
  large_string: 'string',
  str: 'string',
  text: 'string',
  varchar: 'string',
  number: 'number',
  float64: 'number',
  float32: 'number',
  float16: 'number',
  float: 'number',
  double: 'number',
  real: 'number',
  decimal: 'number',
  numeric: 'number',
  integer: 'integer',
  int: 'integer',
  int8: 'integer',
  int16: 'integer',
  int32: 'integer',
  int64: 'integer',
  uint8: 'integer',
  uint16: 'integer',
  uint32: 'integer',
  uint64: 'integer',
  tinyint: 'integer',
  smallint: 'integer',
  bigint: 'integer',
  short: 'integer',
  long: 'integer',
  bool: 'boolean',
  boolean: 'boolean',
};

/**
 * The spec field type a bundled schema's `type` means, or undefined for a word rdw does not know. Case and
 * surrounding spaces are ignored; parameters are dropped (`decimal(18,6)` is `decimal`). A JSON-Schema style
 * list such as `["number", "null"]` is read as its one non-null word.
 */
export function fieldTypeOfWord(word: unknown): FieldType | undefined {
  if (Array.isArray(word)) {
    const named = word.filter((entry) => typeof entry !== 'string' || entry.trim().toLowerCase() !== 'null');
    return named.length === 1 ? fieldTypeOfWord(named[0]) : undefined;
  }
  if (typeof word !== 'string') return undefined;
  const key = word.trim().toLowerCase().replace(/\s*\(.*\)$/, '');
  return Object.hasOwn(FIELD_TYPE_WORDS, key) ? FIELD_TYPE_WORDS[key] : undefined;
}

/**
 * True when values of type `given` fit a field the spec types `expected`: the same type, or an integer where
 * the spec says number (an integer is a number without a fraction).
 */
export function fieldTypeFits(given: FieldType, expected: FieldType): boolean {
  return given === expected || (given === 'integer' && expected === 'number');
}
