// A one-line progress bar for pulls (bytes and releases), redrawn with `\r`; commands create it only when
// stderr is a terminal and --json is off, so logs and pipes stay line-oriented.

import type { PullProgress } from '../workbench/index.js';
import type { CliOutput } from './cli-context.js';

const MIB = 1024 * 1024;
/** ANSI "erase to end of line" (terminals only: the bar exists only on one). */
const CLEAR_LINE = '\x1b[K';

/** A one-line progress bar (bytes and releases), redrawn with `\r` on a terminal only. */
export class ProgressBar {
  readonly #out: CliOutput;
  readonly #total: number;
  readonly #bytes = new Map<string, { done: number; total: number }>();
  #finished = 0;
  #drawn = false;
  #line = '';

  constructor(out: CliOutput, total: number) {
    this.#out = out;
    this.#total = total;
  }

  update(event: PullProgress): void {
    if (event.kind === 'bytes') this.#bytes.set(event.releaseId, { done: event.done, total: event.total });
    else this.#finished += 1;
    let done = 0;
    let total = 0;
    for (const file of this.#bytes.values()) {
      done += file.done;
      total += file.total;
    }
    const width = 24;
    const filled = Math.round((this.#finished / Math.max(1, this.#total)) * width);
    this.#line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.#finished}/${this.#total} releases  ${(done / MIB).toFixed(1)}/${(total / MIB).toFixed(1)} MiB`;
    this.#out.write(`\r${this.#line}`);
    this.#drawn = true;
  }

  /**
   * Writes whole lines of `text` (a notice, ending in a newline) above the bar: the bar's line is cleared
   * first and drawn again below, so a notice never runs on after the bar's text.
   */
  note(text: string): void {
    if (!this.#drawn) return void this.#out.write(text);
    // Three writes: the notice alone is a plain line, so a wrapping stderr (a terminal) wraps it between words.
    this.#out.write(`\r${CLEAR_LINE}`);
    this.#out.write(text);
    this.#out.write(this.#line);
  }

  end(): void {
    if (this.#drawn) this.#out.write('\n');
  }
}
