import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/base/index.js';

describe('escapeHtml', () => {
  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&#39;'],
    ['plain text', 'plain text'],
    ['<a href="x">Tom & Jerry\'s</a>', '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;'],
    ['&amp;', '&amp;amp;'],
  ])('escapes %j', (text, expected) => {
    expect(escapeHtml(text)).toBe(expected);
  });
});
