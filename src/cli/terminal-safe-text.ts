// Text bound for a terminal that a service or a catalog row supplied: its control characters (an ESC starts a
// sequence that can retitle the window, move the cursor or hide lines; C1 and bidirectional controls reorder what
// is shown) are written as `\uXXXX`, so what a person sees is what the bytes say. Tab and line breaks stay (CSV
// rows and quoted multi-line cells keep their shape). Only on a terminal: piped, the bytes go out as they are.

import type { CliOutput } from './cli-context.js';

const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with its control characters but tab, LF and CR written as `\uXXXX`. */
export function terminalSafeText(text: string): string {
  return text.replace(CONTROLS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` as it should reach `out`: made terminal-safe when `out` is a terminal, else unchanged. */
export function forOutput(out: Pick<CliOutput, 'isTTY'>, text: string): string {
  return out.isTTY ? terminalSafeText(text) : text;
}
