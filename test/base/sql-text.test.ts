import { describe, expect, it } from 'vitest';
import { quoteIdentifier, quoteLiteral } from '../../src/base/index.js';

describe('SQL text quoting', () => {
  it.each([
    ['releases', '"releases"'],
    ['market events', '"market events"'],
    ['say "hi"', '"say ""hi"""'],
    ["it's", '"it\'s"'],
    ['', '""'],
  ])('quotes the identifier %j', (name, expected) => {
    expect(quoteIdentifier(name)).toBe(expected);
  });

  it.each([
    ['/tmp/out.parquet', "'/tmp/out.parquet'"],
    ["O'Brien's file", "'O''Brien''s file'"],
    ['say "hi"', `'say "hi"'`],
    ['', "''"],
  ])('quotes the literal %j', (text, expected) => {
    expect(quoteLiteral(text)).toBe(expected);
  });
});
