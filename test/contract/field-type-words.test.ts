// The bundled schema's type words read as the spec's field types (issue 14): common words, any case, a
// JSON-Schema style nullable list; unknown words are undefined; integers fit number fields.

import { describe, expect, it } from 'vitest';
import { fieldTypeFits, fieldTypeOfWord, type FieldType } from '../../src/contract/index.js';

describe('fieldTypeOfWord', () => {
  const cases: [unknown, FieldType | undefined][] = [
    ['string', 'string'], ['utf8', 'string'], ['str', 'string'], ['text', 'string'], ['VARCHAR', 'string'], ['large_utf8', 'string'],
    ['number', 'number'], ['float64', 'number'], ['Float32', 'number'], ['double', 'number'], ['float', 'number'], ['decimal(18,6)', 'number'],
    ['integer', 'integer'], ['int64', 'integer'], ['int32', 'integer'], ['int', 'integer'], ['long', 'integer'], [' BIGINT ', 'integer'],
    ['bool', 'boolean'], ['boolean', 'boolean'],
    [['number', 'null'], 'number'], [['null', 'utf8'], 'string'],
    ['timestamp', undefined], ['list<utf8>', undefined], ['', undefined], [undefined, undefined], [3, undefined],
    [['number', 'string'], undefined], ['toString', undefined], ['__proto__', undefined],
  ];
  for (const [word, type] of cases) {
    it(`reads ${JSON.stringify(word)} as ${String(type)}`, () => expect(fieldTypeOfWord(word)).toBe(type));
  }
});

describe('fieldTypeFits', () => {
  it('accepts the same type, and an integer where the spec says number, nothing else', () => {
    expect(fieldTypeFits('number', 'number')).toBe(true);
    expect(fieldTypeFits('integer', 'number')).toBe(true);
    expect(fieldTypeFits('integer', 'integer')).toBe(true);
    expect(fieldTypeFits('number', 'integer')).toBe(false);
    expect(fieldTypeFits('string', 'number')).toBe(false);
    expect(fieldTypeFits('boolean', 'string')).toBe(false);
  });
});
