// The floors of issue 30 as a rule the code keeps, read from the source's import lines (type imports count):
// src/analysis never imports src/modelling, modelling reaches analysis only through its index, and no files of
// analysis, modelling or locks import each other in a circle (docs/modelling.md "Where it sits").

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const FLOORS = ['analysis', 'modelling', 'locks'];

/** Every .ts file below `folder`, as paths relative to src/. */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

/** The relative imports and re-exports of a file (`import type` too), resolved to paths relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms)) {
    targets.push(path.join(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')));
  }
  return targets;
}

/** The circles of a graph (strongly connected components of more than one node, or a node importing itself). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const graph = new Map(FLOORS.flatMap(sourceFiles).map((file) => [file, importsOf(file)] as const));

describe('the floors of analysis, modelling and locks', () => {
  it('reads the import lines it checks (a planted circle and the known edges are found)', () => {
    const planted = new Map([
      ['a', ['b']],
      ['b', ['c', 'a']],
      ['c', []],
      ['d', ['d']],
    ]);
    expect(circles(planted)).toEqual([['a', 'b'], ['d']]);
    // A type-only import is an edge: leakage-guard.ts imports the DerivedFeature type.
    expect(graph.get(path.join('analysis', 'leakage-guard.ts'))).toContain(path.join('analysis', 'derived-feature.ts'));
    expect(graph.get(path.join('modelling', 'model.ts'))).toContain(path.join('analysis', 'index.ts'));
    expect(graph.size).toBeGreaterThan(60);
  });

  it('has no circle of files', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('analysis never imports modelling', () => {
    const upward = [...graph].filter(([file]) => file.startsWith(`analysis${path.sep}`)).flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(`modelling${path.sep}`)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('modelling reaches analysis only through its index', () => {
    const inside = [...graph].filter(([file]) => file.startsWith(`modelling${path.sep}`)).flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith(`analysis${path.sep}`) && target !== path.join('analysis', 'index.ts'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(inside).toEqual([]);
  });
});
