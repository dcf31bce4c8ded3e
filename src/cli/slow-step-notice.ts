// A step that may take seconds without drawing anything (a model fitted over folds, every stored file re-hashed):
// on a terminal, one stderr line once it has taken a second, then the time so far every five, so no wait over a
// second goes unsaid (a new user's trial: `rdw study model` sat 3.5–8 s on a blank screen). Pipes, files and
// --json get nothing: their readers see the result, and tests compare stderr exactly.

import type { CliContext } from './cli-context.js';
import { commandMessages } from './messages.js';

export interface SlowStepOptions {
  /** Milliseconds before the first line. Default 1000. */
  readonly afterMs?: number;
  /** Milliseconds between the lines after it. Default 5000. */
  readonly everyMs?: number;
}

/** Runs `work`; on an interactive stderr says `rdw: <what> (N s so far)` while it is slow. */
export async function sayWhileSlow<T>(context: CliContext, what: string, work: () => Promise<T>, options: SlowStepOptions = {}): Promise<T> {
  if (context.json || !context.stderr.isTTY) return work();
  const started = performance.now();
  const say = () => context.stderr.write(`rdw: ${commandMessages.slowStep(what, (performance.now() - started) / 1000)}\n`);
  let repeat: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    say();
    repeat = setInterval(say, options.everyMs ?? 5000);
    repeat.unref();
  }, options.afterMs ?? 1000);
  first.unref();
  try {
    return await work();
  } finally {
    clearTimeout(first);
    if (repeat !== undefined) clearInterval(repeat);
  }
}
