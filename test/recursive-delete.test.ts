// One way to delete recursively (issue 27): a lint over the source text of src/, test/, .ci/ and package.json's
// scripts that fails on any recursive delete outside src/base/remove-tree.ts (removeTree), naming file:line.
// Node's rm/rmdir with `recursive`, a shell's recursive rm, rimraf, fs-extra's remove and Python's rmtree all count.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The one file allowed to delete recursively. */
const HELPER = 'src/base/remove-tree.ts';
/** This file names the patterns it looks for. */
const SELF = 'test/recursive-delete.test.ts';
const SCANNED_FOLDERS = ['src', 'test', '.ci'];
const SCANNED_FILE = /\.(ts|mts|cts|js|mjs|cjs|sh|py)$/;

/** Node's delete calls, by name; their arguments are read up to the closing parenthesis, across lines. */
const NODE_DELETE_CALL = new RegExp(`\\b(?:${['rm', 'rmSync', 'rmdir', 'rmdirSync'].join('|')})\\s*\\(`, 'g');
/** Deletes that are recursive by themselves: a shell's `-r`/`-R`/`--recursive` rm, or argv ['rm', '-r…'], rimraf, fs-extra, rmtree. */
const RECURSIVE_BY_NAME = [
  new RegExp(`\\b${'rm'}\\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\\b`),
  new RegExp(`['"]${'rm'}['"]\\s*,\\s*\\[\\s*['"]-[a-zA-Z]*[rR]`),
  /\brimraf\b/,
  /from ['"]fs-extra['"]/,
  /\brmtree\b/,
];

/** The text from `open` (an opening parenthesis) to its closing one. */
function argumentsFrom(text: string, open: number): string {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === '(') depth += 1;
    else if (text[index] === ')' && (depth -= 1) === 0) return text.slice(open, index + 1);
  }
  return text.slice(open);
}

/** `line: what` for each recursive delete in `text`. */
export function recursiveDeletes(text: string): { line: number; what: string }[] {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const found: { line: number; what: string }[] = [];
  for (const match of text.matchAll(NODE_DELETE_CALL)) {
    const args = argumentsFrom(text, match.index + match[0].length - 1);
    if (/\brecursive\b/.test(args)) found.push({ line: lineOf(match.index), what: `${match[0]}${args.slice(1, 60).replace(/\s+/g, ' ')}` });
  }
  text.split('\n').forEach((line, index) => {
    if (RECURSIVE_BY_NAME.some((pattern) => pattern.test(line))) found.push({ line: index + 1, what: line.trim().slice(0, 80) });
  });
  return found;
}

function scannedFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...scannedFiles(relative));
    else if (SCANNED_FILE.test(entry.name) || (folder === '.ci' && statSync(path.join(ROOT, relative)).isFile())) files.push(relative);
  }
  return files;
}

describe('recursive deletes', () => {
  it('happen only in src/base/remove-tree.ts: none in src/, test/ or .ci/ (file:line)', () => {
    const files = SCANNED_FOLDERS.flatMap(scannedFiles);
    expect(files).toEqual(expect.arrayContaining([HELPER, SELF, '.ci/run']));
    expect(files.length).toBeGreaterThan(300);
    const outside = files
      .filter((file) => file !== HELPER && file !== SELF)
      .flatMap((file) => recursiveDeletes(readFileSync(path.join(ROOT, file), 'utf8')).map(({ line, what }) => `${file}:${line}: ${what}`));
    expect(outside).toEqual([]);
    // The helper is the one place: it does delete recursively.
    expect(recursiveDeletes(readFileSync(path.join(ROOT, HELPER), 'utf8')).length).toBe(1);
  });

  it("happen in none of package.json's scripts", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const found = Object.entries(scripts).flatMap(([name, script]) => recursiveDeletes(script).map(({ what }) => `scripts.${name}: ${what}`));
    expect(found).toEqual([]);
  });

  // The lint itself: what it must catch, and what it must let be.
  const R = 'r' + 'm';
  it.each([
    [`await ${R}(dir, { recursive: true, force: true });`, 1],
    [`await ${R}(\n  path.join(a, b),\n  { force: true, recursive: true },\n);`, 1],
    [`${R}Sync(temp, { recursive: true, maxRetries: 3 })`, 1],
    [`fs.promises.${R}dir(x, { recursive: true })`, 1],
    [`node -e "require('node:fs').${R}Sync('dist', { recursive: true, force: true })"`, 1],
    [`${R} -rf "$TMP"`, 1],
    [`${R} -fr build`, 1],
    [`execFile('${R}', ['-rf', dir])`, 1],
    [`import ${'rim'}raf from 'rimraf';`, 1],
    [`shutil.${R}tree(path)`, 1],
    [`await ${R}(file, { force: true });`, 0],
    [`await mkdir(dir, { recursive: true });`, 0],
    [`readdirSync(root, { recursive: true })`, 0],
    [`await removeTree(dir);`, 0],
    [`${R} -f file.lock`, 0],
  ])('the lint flags %j %i time(s)', (snippet, count) => {
    expect(recursiveDeletes(snippet).length).toBe(count);
  });
});
