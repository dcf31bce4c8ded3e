// The import graph of the repository's TypeScript, read with TypeScript's own parser, for the tests that keep the
// architecture: no circle of files (test/import-circles.test.ts), the floors of analysis and modelling
// (test/modelling/floors.test.ts), the CLI's import rule (test/architecture/cli-imports.test.ts).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Every .ts file under `folder` (relative to the repository), as repository-relative paths with forward slashes, sorted. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Every module specifier of `text` (the source of `file`): import and export declarations (type-only too), and
 * with `dynamic` also `import()` calls and `import('…')` types. A computed `import()` is reported as
 * `<computed import() …>`, so a rule cannot be slipped past with one.
 */
export function moduleSpecifiers(file: string, text: string, options: { dynamic?: boolean } = {}): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (options.dynamic === true && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      found.push(argument !== undefined && ts.isStringLiteralLike(argument) ? argument.text : `<computed import() ${argument?.getText(source)}>`);
    } else if (options.dynamic === true && ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The files of `files` that `file` (repository-relative) imports or re-exports from, static declarations only. */
export function importsOf(file: string, text: string, files: ReadonlySet<string>): string[] {
  const targets = moduleSpecifiers(file, text)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts')))
    .filter((target) => files.has(target));
  return [...new Set(targets)];
}

/** The static import graph of `folder`: file → the files of that folder it imports from (repository-relative). */
export function importGraph(folder: string): Map<string, string[]> {
  const files = sourceFiles(folder);
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'), known)]));
}

/**
 * The circles of the import graph: each strongly connected set of more than one file (or a file importing
 * itself), as one closed path through it (`a.ts → b.ts → a.ts`). Tarjan's algorithm, then a path in the set.
 */
export function circlesIn(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const set: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      set.push(member);
    } while (member !== file);
    if (set.length > 1 || (graph.get(file) ?? []).includes(file)) sets.push(set.sort());
  }
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return sets.map((set) => closedPath(graph, set));
}

/** A closed path from the set's first file back to it through files of the set only (breadth first: a shortest one). */
function closedPath(graph: ReadonlyMap<string, readonly string[]>, set: readonly string[]): string[] {
  const start = set[0]!;
  const inSet = new Set(set);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!inSet.has(next)) continue;
      if (next === start) {
        const back = [start];
        for (let at: string | undefined = file; at !== undefined && at !== start; at = cameFrom.get(at)) back.unshift(at);
        return [start, ...back];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [...set, start];
}
