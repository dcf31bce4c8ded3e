// The progress a pulling command shows (rdw pull, lock, reproduce): on a terminal, not under --json, a bar
// drawn once the releases are planned and notices written above it; in a pipe or under --json no bar (the
// client then says a slow download's wait itself), so logs stay line-oriented.

import type { PullProgress } from '../workbench/index.js';
import type { CliContext, CliOutput } from './cli-context.js';
import { ProgressBar } from './progress-bar.js';

export interface PullProgressView {
  /** stderr for notices while the command pulls: written above the bar when one is drawn. */
  readonly stderr: CliOutput;
  /** Draws the bar for these releases at once, at 0 of them (a terminal only; each ID counted once). */
  planned(ids: readonly string[]): void;
  /** The bar's update, on a terminal only (undefined otherwise: no progress is taken). */
  readonly onProgress: ((event: PullProgress) => void) | undefined;
  /** Ends the bar's line; later writes go straight to stderr. */
  end(): void;
}

/** The progress view of `context` (a bar only when stderr is a terminal and --json is off). */
export function pullProgressView(context: CliContext): PullProgressView {
  const drawn = !context.json && context.stderr.isTTY;
  let bar: ProgressBar | undefined;
  const stderr: CliOutput = {
    isTTY: context.stderr.isTTY,
    columns: context.stderr.columns,
    write: (text) => (bar === undefined ? context.stderr.write(text) : bar.note(text)),
  };
  return {
    stderr,
    planned(ids) {
      bar = drawn ? new ProgressBar(context.stderr, new Set(ids).size) : undefined;
      // Drawn at once: rdw reproduce of 100 present releases had shown nothing for 2-5 s until the first re-hash ended.
      bar?.draw();
    },
    onProgress: drawn ? (event) => bar?.update(event) : undefined,
    end() {
      bar?.end();
      bar = undefined;
    },
  };
}
