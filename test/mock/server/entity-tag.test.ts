// The one ETag parser: weak and strong tags, quotes, lists, and the two comparisons (RFC 9110 §8.8.3).

import { describe, expect, it } from 'vitest';
import { parseEntityTag, parseEntityTagList, strongMatch, weakMatch, type EntityTag } from '../../../src/mock/server/entity-tag.js';

const strong = (opaque: string): EntityTag => ({ weak: false, opaque });
const weak = (opaque: string): EntityTag => ({ weak: true, opaque });

describe('parseEntityTag', () => {
  it.each<[string, EntityTag | undefined]>([
    ['"abc"', strong('abc')],
    ['W/"abc"', weak('abc')],
    ['  "abc"  ', strong('abc')],
    ['""', strong('')],
    ['"a,b"', strong('a,b')],
    [`"${'0f'.repeat(32)}"`, strong('0f'.repeat(32))],
    ['abc', undefined], // unquoted
    ['"abc', undefined], // unterminated
    ['w/"abc"', undefined], // W is case-sensitive
    ['W/ "abc"', undefined], // nothing between W/ and the quote
    ['W/W/"abc"', undefined],
    ['"a"b"', undefined], // a quote inside
    ['"a b"', undefined], // a space is not an etagc
    ['"abc"junk', undefined],
    ['Wed, 21 Oct 2015 07:28:00 GMT', undefined], // an If-Range date
    ['*', undefined],
    ['', undefined],
  ])('%j ⇒ %j', (text, expected) => {
    expect(parseEntityTag(text)).toEqual(expected);
  });
});

describe('parseEntityTagList', () => {
  it.each<[string, '*' | EntityTag[]]>([
    ['*', '*'],
    [' * ', '*'],
    ['"a"', [strong('a')]],
    ['"a", W/"b" ,"c"', [strong('a'), weak('b'), strong('c')]],
    ['"a,b", "c"', [strong('a,b'), strong('c')]],
    ['"a", junk, W/"b"', [strong('a'), weak('b')]],
    ['"a"junk, "b"', [strong('b')]],
    ['"a",,"b"', [strong('a'), strong('b')]],
    ['"a", *', [strong('a')]], // `*` only stands alone
    ['', []],
    ['abc', []],
  ])('%j ⇒ %j', (header, expected) => {
    expect(parseEntityTagList(header)).toEqual(expected);
  });
});

describe('comparisons', () => {
  it.each<[EntityTag, EntityTag, boolean, boolean]>([
    // a, b, weak match, strong match
    [strong('1'), strong('1'), true, true],
    [weak('1'), strong('1'), true, false],
    [strong('1'), weak('1'), true, false],
    [weak('1'), weak('1'), true, false],
    [strong('1'), strong('2'), false, false],
    [weak('1'), weak('2'), false, false],
  ])('%j ~ %j: weak %s, strong %s', (a, b, weakly, strongly) => {
    expect(weakMatch(a, b)).toBe(weakly);
    expect(strongMatch(a, b)).toBe(strongly);
  });
});
