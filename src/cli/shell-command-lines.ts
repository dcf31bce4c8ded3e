// A command a person can paste, printed within a terminal's width: its words packed greedily, a line that would
// pass the width continued with ` \` (as a shell reads it), never broken inside a word (a terminal's own wrap cut
// `--window 1h,24h` into `1h,24` and `h` when the demo ran with a long --home: a new user's trial, session 35).

/** `text` as one shell word: as is when it holds only safe characters, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface ShellCommandLayout {
  /** Widest line, in columns. Default 100. */
  width?: number;
  /** Before the first word. Default two spaces. */
  indent?: string;
  /** Before the first word of a continuation line. Default six spaces. */
  continuation?: string;
}

/**
 * The lines of one command made of `words`, each a unit kept on one line: shell words already quoted (shellWord),
 * or a flag with its value (`--window 1h,24h`), so a value never starts a line apart from its flag. As many on a
 * line as fit in `width` with room for ` \`; one longer than a line stands alone on its own.
 */
export function shellCommandLines(words: readonly string[], layout: ShellCommandLayout = {}): string[] {
  const width = layout.width ?? 100;
  const indent = layout.indent ?? '  ';
  const continuation = layout.continuation ?? '      ';
  const whole = `${indent}${words.join(' ')}`;
  if (whole.length <= width) return [whole];
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    const fresh = line === indent || line === continuation;
    const candidate = fresh ? `${line}${word}` : `${line} ${word}`;
    // Room for the ` \` that every line but the last carries.
    if (fresh || candidate.length + 2 <= width) {
      line = candidate;
      continue;
    }
    lines.push(`${line} \\`);
    line = `${continuation}${word}`;
  }
  lines.push(line);
  return lines;
}
