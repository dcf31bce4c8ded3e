// shellCommandLines: a pasteable command within 100 columns, continued with ` \` between units (a word, or a flag
// with its value), never inside one.

import { describe, expect, it } from 'vitest';
import { shellCommandLines, shellWord } from '../../src/cli/shell-command-lines.js';

/** The command as a shell reads the lines back: each ` \` and the next line's indent are one space. */
const joined = (lines: readonly string[]) => lines.join('\n').replace(/ \\\n +/g, ' ').trim();

describe('shellCommandLines', () => {
  const home = shellWord(`/tmp/${'very-long-folder-name/'.repeat(3)}demo home`);
  const words = ['npx rdw study event', `--lock ${'a/'.repeat(20)}study.lock.json`, '--window 1h,24h', `--home ${home}`];

  it('keeps a command that fits on one line as it is', () => {
    expect(shellCommandLines(['npx rdw sql', '"SELECT 1"'])).toEqual(['  npx rdw sql "SELECT 1"']);
  });

  it('continues a long command between words: every line within the width, the words whole and in order', () => {
    const lines = shellCommandLines(words);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    for (const line of lines.slice(0, -1)) expect(line.endsWith(' \\'), line).toBe(true);
    expect(lines.at(-1)!.endsWith('\\')).toBe(false);
    for (const line of lines.slice(1)) expect(line.startsWith('      '), line).toBe(true);
    expect(joined(lines)).toBe(words.join(' '));
    // A flag and its value are one unit: never apart.
    expect(lines.some((line) => line.includes('--window 1h,24h'))).toBe(true);
    expect(lines.some((line) => line.includes(`--home ${home}`))).toBe(true);
  });

  it('puts a word longer than a line alone on its own line, whole', () => {
    const long = `/${'x'.repeat(150)}`;
    const lines = shellCommandLines(['npx rdw reproduce', long, '--home "$(mktemp -d)"']);
    expect(lines).toContain(`      ${long} \\`);
    expect(joined(lines)).toBe(`npx rdw reproduce ${long} --home "$(mktemp -d)"`);
  });

  it('quotes a word only when the shell needs it', () => {
    expect(shellWord('/tmp/a-b_c.json')).toBe('/tmp/a-b_c.json');
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
  });
});
