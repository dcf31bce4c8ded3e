// A one-line progress bar for pulls (bytes and releases), redrawn with `\r`; commands create it only when
// stderr is a terminal and --json is off, so logs and pipes stay line-oriented.

import type { PullProgress } from '../catalog/index.js';
import type { CliOutput } from './cli-context.js';

const MIB = 1024 * 1024;

/** A one-line progress bar (bytes and releases), redrawn with `\r` on a terminal only. */
export class ProgressBar {
  readonly #out: CliOutput;
  readonly #total: number;
  readonly #bytes = new Map<string, { done: number; total: number }>();
  #finished = 0;
  #drawn = false;

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
    this.#out.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.#finished}/${this.#total} releases  ${(done / MIB).toFixed(1)}/${(total / MIB).toFixed(1)} MiB`,
    );
    this.#drawn = true;
  }

  end(): void {
    if (this.#drawn) this.#out.write('\n');
  }
}
