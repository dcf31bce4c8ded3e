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
  /** Releases finished: imported, present or failed. */
  readonly #settled = new Set<string>();
  #drawn = false;
  #line = '';

  constructor(out: CliOutput, total: number) {
    this.#out = out;
    this.#total = total;
  }

  /**
   * Draws the bar: releases finished (imported, present or failed) of all; those downloaded and waiting for their
   * import (`(+N downloaded, waiting to import)`: imports go in batches, so downloads run ahead, and a first Ctrl-C
   * still imports them; a new user read a bare "+N downloaded" as done);
   * the bytes downloaded so far. No byte total: a file's size is known only once its download starts.
   */
  update(event: PullProgress): void {
    if (event.kind === 'bytes') this.#bytes.set(event.releaseId, { done: event.done, total: event.total });
    else this.#settled.add(event.releaseId);
    this.draw();
  }

  /**
   * Draws the bar as it stands (`0/N releases` before any progress): a command draws it once its releases are
   * planned, so the seconds before the first one settles (reproduce's re-hash, a slow first download) show it.
   */
  draw(): void {
    let done = 0;
    let waiting = 0;
    for (const [id, file] of this.#bytes) {
      done += file.done;
      if (file.total > 0 && file.done >= file.total && !this.#settled.has(id)) waiting += 1;
    }
    const finished = this.#settled.size;
    const width = 24;
    const filled = Math.round((finished / Math.max(1, this.#total)) * width);
    const ahead = waiting > 0 ? ` (+${waiting} downloaded, waiting to import)` : '';
    this.#line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished}/${this.#total} releases${ahead}  ${(done / MIB).toFixed(1)} MiB`;
    // Erase what a longer line before it left (the "(+N downloaded, …)" part comes and goes).
    this.#out.write(`\r${this.#line}${CLEAR_LINE}`);
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
