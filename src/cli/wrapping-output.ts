// stderr on a terminal: a line wider than the terminal (a failure per release, a client notice, a warning)
// wraps between words instead of at the terminal's edge, `rdw: ` lines under their message. Pipes, files
// and --json get every line whole.

import type { CliOutput } from './cli-context.js';
import { wrapText } from './wrap-text.js';

/** Column where the message of an `rdw: ` line starts, and its continuation lines. */
const RDW_PREFIX = 'rdw: ';

/** `output` wrapping each written line wider than its `columns`; unchanged when it is not a terminal. */
export function wrappingOutput(output: CliOutput): CliOutput {
  const columns = output.columns;
  if (columns === undefined) return output;
  return {
    isTTY: output.isTTY,
    columns,
    write(text: string) {
      // A line redrawn in place (a progress bar's `\r`) is sized by its writer: left as it is.
      const lines = text.split('\n').map((line) => {
        if (line.includes('\r') || [...line].length <= columns) return line;
        const indent = line.startsWith(RDW_PREFIX) ? RDW_PREFIX.length : 0;
        return `${line.slice(0, indent)}${wrapText(line.slice(indent), columns, indent)}`;
      });
      output.write(lines.join('\n'));
    },
  };
}
