// The info-string convention of the documentation's code blocks (test/support/doc-blocks.ts): where each block
// is, what the test does with it, and the sentence for a block it cannot classify.

import { describe, expect, it } from 'vitest';
import { blockUse, docBlocks, infoStringProblem, notebookProgram } from '../support/doc-blocks.js';

const PAGE = [
  '# A page', //                              1
  '', //                                      2
  '```sh', //                                 3
  'npx rdw ls', //                            4
  '```', //                                   5
  '', //                                      6
  '```', //                                   7: no language
  'output', //                                8
  '```', //                                   9
  '', //                                      10
  '- a list item', //                         11
  '', //                                      12
  '  ```ts sketch', //                        13: nested in the list
  '  open(x?: number)', //                    14
  '  ```', //                                 15
  '', //                                      16
  'Formula:', //                              17
  '', //                                      18
  '    a = b + c', //                         19: indented
  '', //                                      20
  '~~~sh no-run', //                          21
  'export RDW_API_KEY=…', //                  22
  '~~~', //                                   23
  '', //                                      24
  '```ts vitest', //                          25
  "it('x', () => {});", //                    26
  '```', //                                   27
  '```sh nope', //                            28
  'true', //                                  29
  '```', //                                   30
  '```yaml', //                               31
  'a: 1', //                                  32
  '```', //                                   33
  '```text no-run', //                        34
  'x', //                                     35
  '```', //                                   36
].join('\n');

describe('docBlocks', () => {
  const blocks = docBlocks('docs/page.md', PAGE);

  it('finds every code block, nested and indented ones too, at the line of its opening fence', () => {
    expect(blocks.map((block) => [block.line, block.info, block.text])).toEqual([
      [3, 'sh', 'npx rdw ls'],
      [7, '', 'output'],
      [13, 'ts sketch', 'open(x?: number)'],
      [19, '', 'a = b + c'],
      [21, 'sh no-run', 'export RDW_API_KEY=…'],
      [25, 'ts vitest', "it('x', () => {});"],
      [28, 'sh nope', 'true'],
      [31, 'yaml', 'a: 1'],
      [34, 'text no-run', 'x'],
    ]);
    expect(blocks.map((block) => block.indented)).toEqual([false, false, false, true, false, false, false, false, false]);
  });

  it('says what is done with each understood block, and why the others are refused', () => {
    expect(blocks.map((block) => infoStringProblem(block) ?? blockUse(block))).toEqual([
      'shell',
      'no language: the info string starts with one (```sh, ```ts, ```text, …)',
      'sketch',
      'indented code has no info string: fence it with a language (```text for output)',
      'no-run',
      'vitest',
      'unknown marker "nope" (known: no-run, sketch, vitest, cell)',
      'unknown language "yaml" (executed: sh, ts, js; shown: text, json, sql, python, ini, crontab, properties)',
      'markers belong to executed languages (sh, ts, js), not "text"',
    ]);
  });

  it('refuses two markers, and markers that do not fit the language', () => {
    const block = (info: string) => ({ file: 'x.md', line: 1, info, language: info.split(' ')[0]!, markers: info.split(' ').slice(1), text: '', indented: false });
    expect(infoStringProblem(block('ts sketch no-run'))).toBe('one marker at most, not sketch no-run');
    expect(infoStringProblem(block('sh sketch'))).toBe('"sketch" is for ts and js blocks; a shell block runs, or is no-run');
    expect(infoStringProblem(block('js vitest'))).toBe('"vitest" is for ts blocks');
    expect(infoStringProblem(block('sh cell'))).toBe('"cell" is for ts blocks; a shell block runs, or is no-run');
    expect(blockUse(block('ts cell'))).toBe('cell');
    expect(blockUse(block('js'))).toBe('javascript');
    expect(blockUse(block('ts'))).toBe('typescript');
    expect(blockUse(block('json'))).toBe('shown');
  });
});

describe('notebookProgram', () => {
  it('joins a file\'s cells into one program, imports first and once, and knows each line\'s Markdown line', () => {
    const page = [
      '```ts cell', //                                            1
      "import { a } from 'x';", //                                2
      'const wb = a();', //                                       3
      '```', //                                                   4
      '', //                                                      5
      '```ts cell', //                                            6
      "import type { T } from 'y';", //                           7
      "import { a } from 'x';", //                                8: the same import again
      'const t: T = wb.t;   // a comment', //                     9
      '```', //                                                   10
    ].join('\n');
    const program = notebookProgram(docBlocks('n.md', page));
    expect(program.text).toBe("import { a } from 'x';\nimport type { T } from 'y';\nconst wb = a();\nconst t: T = wb.t;   // a comment\n");
    expect(program.origins).toEqual(['n.md:2', 'n.md:7', 'n.md:3', 'n.md:9']);
  });
});
