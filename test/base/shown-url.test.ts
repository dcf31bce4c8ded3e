// shownUrl: a URL setting as rdw may print it — no user:password@ part, query or fragment, also when the text is
// no URL (a scheme left out or mistyped), since a message names such a setting as wrong.

import { describe, expect, it } from 'vitest';
import { shownUrl } from '../../src/base/index.js';

const SECRET = 'sk-live-0123456789abcdefSECRET';

describe('shownUrl', () => {
  it.each([
    ['a plain base URL, as given', 'https://api.example.com/v1', 'https://api.example.com/v1'],
    ['a plain URL with a trailing slash, as given', 'http://127.0.0.1:1234/', 'http://127.0.0.1:1234/'],
    ['user:password@', `http://user:${SECRET}@127.0.0.1:1234/v1`, 'http://127.0.0.1:1234/v1'],
    ['the key as user@', `http://${SECRET}@127.0.0.1:1234/`, 'http://127.0.0.1:1234/'],
    ['a query', `http://127.0.0.1:1234/v1?key=${SECRET}`, 'http://127.0.0.1:1234/v1'],
    ['a fragment', `http://127.0.0.1:1234/v1#${SECRET}`, 'http://127.0.0.1:1234/v1'],
    ['all three', `https://u:${SECRET}@host/v1?token=${SECRET}#${SECRET}`, 'https://host/v1'],
    ['no scheme, user:password@', `user:${SECRET}@127.0.0.1:1234/v1`, '127.0.0.1:1234/v1'],
    ['a mistyped scheme, user:password@', `http//user:${SECRET}@127.0.0.1:1234/v1`, '127.0.0.1:1234/v1'],
    ['another scheme, user:password@', `ftp://user:${SECRET}@host/v1`, 'ftp://host/v1'],
    ['an unparsable host after userinfo', `http://[::1:${SECRET}@host/v1`, 'http://host/v1'],
    ['no scheme, a query', `127.0.0.1:1234/v1?key=${SECRET}`, '127.0.0.1:1234/v1'],
    ['an @ in the path of a URL, kept', 'https://host/@team/v1', 'https://host/@team/v1'],
    ['no URL at all, as given', 'not a url', 'not a url'],
  ])('%s', (_name, given, shown) => {
    expect(shownUrl(given)).toBe(shown);
    expect(shownUrl(given)).not.toContain('SECRET');
  });
});
