// Text bound for a terminal that a service or a catalog row supplied (CSV rows): on a terminal its control
// characters are shown as `\uXXXX` (controlCharactersEscaped: an ESC starts a sequence that can retitle the window,
// move the cursor or hide lines; C1 and bidi controls reorder what is shown), tab and line breaks kept; piped, the
// bytes go out as they are.

import { controlCharactersEscaped } from '../base/index.js';
import type { CliOutput } from './cli-context.js';

/** `text` as it should reach `out`: made terminal-safe when `out` is a terminal, else unchanged. */
export function forOutput(out: Pick<CliOutput, 'isTTY'>, text: string): string {
  return out.isTTY ? controlCharactersEscaped(text) : text;
}
