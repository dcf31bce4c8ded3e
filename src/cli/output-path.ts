// `-` as an output path: other tools read it as standard output, but every rdw output operand or flag names
// a file or folder to write (reports, locks, Parquet), so `-` is refused before anything is written, never
// made into a file or folder named `-`.

import { CliUsageError } from './cli-errors.js';
import { commandMessages } from './messages.js';

/** What refuses `-`: the operand or flag as typed, what it writes, and an example of a good value. */
export interface OutputPathUse {
  /** `rdw export`, `--out`: how the user typed it. */
  readonly what: string;
  /** What it writes, as the refusal says it ("it writes a folder of Parquet files"). */
  readonly writes: string;
  /** A good command line or flag, e.g. `rdw export ./export`. */
  readonly example: string;
  /** The flag or operand name for CliUsageError's `option` (without `--`). */
  readonly option: string;
}

/** Throws CliUsageError (exit 2) when `value` is `-`; any other value (or none) passes. */
export function refuseDashOutput(value: string | undefined, use: OutputPathUse): void {
  if (value === '-') throw new CliUsageError(commandMessages.dashOutput(use.what, use.writes, use.example), { option: use.option });
}
