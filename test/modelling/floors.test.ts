// The floors of issue 30 as a rule the code keeps, read from the source's import lines (type imports count):
// src/analysis never imports src/modelling, and modelling reaches analysis only through its index
// (docs/modelling.md "Where it sits"). No circle of files anywhere in src/ is test/import-circles.test.ts's.

import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/import-graph.js';

const graph = importGraph('src');

/** Each import from a file under `from` into `into` that `allowed` does not let through, as "file -> target". */
const edges = (from: string, into: string, allowed: (target: string) => boolean = () => false) =>
  [...graph]
    .filter(([file]) => file.startsWith(from))
    .flatMap(([file, targets]) => targets.filter((target) => target.startsWith(into) && !allowed(target)).map((target) => `${file} -> ${target}`));

describe('the floors of analysis, modelling and locks', () => {
  it('reads the import lines it checks (known edges are found, a type-only import among them)', () => {
    expect(graph.get('src/analysis/leakage-guard.ts')).toContain('src/analysis/derived-feature.ts');
    expect(graph.get('src/modelling/model.ts')).toContain('src/analysis/index.ts');
    expect(edges('src/modelling/', 'src/analysis/').length).toBeGreaterThan(0);
  });

  it('analysis never imports modelling', () => {
    expect(edges('src/analysis/', 'src/modelling/')).toEqual([]);
  });

  it('modelling reaches analysis only through its index', () => {
    expect(edges('src/modelling/', 'src/analysis/', (target) => target === 'src/analysis/index.ts')).toEqual([]);
  });
});
