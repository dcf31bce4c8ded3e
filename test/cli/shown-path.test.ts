// Paths rdw made are printed relative to the working folder only when inside it; otherwise absolute.

import { describe, expect, it } from 'vitest';
import { shownPath } from '../../src/cli/shown-path.js';

describe('shownPath', () => {
  it('is relative inside the working folder, "." for the folder itself', () => {
    expect(shownPath('/work/project', '/work/project/.rdw/catalog.duckdb')).toBe('.rdw/catalog.duckdb');
    expect(shownPath('/work/project', '/work/project')).toBe('.');
    expect(shownPath('/work/project', 'demo/study.lock.json')).toBe('demo/study.lock.json');
  });

  it('is absolute outside it, never a ../ walk', () => {
    expect(shownPath('/work/project', '/tmp/home/catalog.duckdb')).toBe('/tmp/home/catalog.duckdb');
    expect(shownPath('/work/project', '../other/study.lock.json')).toBe('/work/other/study.lock.json');
    // A sibling whose name starts like the folder's is outside it.
    expect(shownPath('/work/project', '/work/project-2/a')).toBe('/work/project-2/a');
  });
});
