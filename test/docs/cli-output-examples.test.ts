// The CLI output docs/cli.md (and docs/analysis.md) shows as an example is what the CLI prints on the home `npm start` makes (`rdw demo`
// on the embedded mock, its fixed clock and seed): the block's lines up to its `…` line, exactly. A shown block
// is not executed by the doc test, so without this it can drift from the code (it did: a pooled interval that
// excluded 0 in the docs did not in the output).

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { readDocBlocks } from '../support/doc-blocks.js';
import { captureOutput } from '../support/capture-output.js';
import { createTempHome } from '../support/temp-home.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let temp: { home: string; remove(): Promise<void> };

/** `rdw <argv>` on the temporary home, embedded mock (no RDW_* variable), stdout and stderr as one text. */
async function rdw(...argv: string[]): Promise<{ code: number; text: string }> {
  const out = captureOutput();
  const code = await runCli([...argv, '--home', temp.home], { env: {}, stdout: out.output, stderr: out.output, cwd: temp.home });
  return { code, text: out.text() };
}

/** The lines of the docs/cli.md text block that starts with `start`, up to (not with) its `…` line. */
function shownLines(file: string, start: string): string[] {
  const block = readDocBlocks(ROOT, file).find((one) => one.language === 'text' && one.text.startsWith(start));
  if (block === undefined) throw new Error(`${file} has no text block starting with ${start}`);
  const lines = block.text.split('\n');
  const end = lines.indexOf('…');
  return end < 0 ? lines : lines.slice(0, end);
}

beforeAll(async () => {
  temp = await createTempHome('rdw-doc-output-');
  const demo = await rdw('demo');
  expect(demo.code, demo.text).toBe(0);
}, 180_000);
afterAll(async () => temp?.remove());

describe('docs/cli.md output examples, on the demo home', () => {
  it('rdw study model: the header, the table and the no-interval sentence', async () => {
    const expected = shownLines('docs/cli.md', 'Model study: target up_1h');
    const run = await rdw('study', 'model');
    expect(run.code).toBe(0);
    expect(run.text.split('\n').slice(0, expected.length)).toEqual(expected);
  }, 120_000);
});

describe('docs/analysis.md output examples, on the demo home', () => {
  // A new user's trial: the example table showed intervals not centred on their diff (0.367 [0.238, 0.480],
  // -1.096 [-1.555, -0.261]: the former bootstrap's percentiles) and 7d intervals, which the 100 days the API
  // lists cannot give (an interval at 7d needs 112 days); the block jackknife's are diff ± t · SE.
  it('rdw study event by symbol: every line of the example table is a line the CLI prints, in order', async () => {
    const expected = shownLines('docs/analysis.md', 'window  event_kind    direction  symbol');
    const run = await rdw('study', 'event', '--window', '1h,24h,7d', '--by', 'event_kind,direction,symbol');
    expect(run.code).toBe(0);
    const printed = run.text.split('\n');
    const at = expected.map((line) => printed.indexOf(line));
    expect(expected.filter((_line, index) => at[index]! < 0)).toEqual([]);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const sentence = '7d: no interval: 23 UTC days make 2 blocks of 14 days; an interval needs 8 blocks, so 89 more days (112 in all).';
    expect(run.text.replace(/\s+/g, ' ')).toContain(sentence);
  }, 120_000);
});
