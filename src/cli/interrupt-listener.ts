// Ctrl-C (SIGINT) or SIGTERM during a long command (pull, sync): the first signal asks the command to stop
// between releases through an AbortSignal, so that it still says what it did and exits 130/143; a second
// signal exits at once (what was committed stays; a rerun continues where it stopped), saying so.

import { signalExitCode } from '../base/index.js';
import type { CliOutput } from './cli-context.js';
import { cliMessages } from './messages.js';

export interface InterruptListener {
  /** Aborted (its reason: the signal's name) on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal received (`SIGINT`, `SIGTERM`), or undefined. */
  readonly received: string | undefined;
  /** 130 for SIGINT, 143 for SIGTERM (signalExitCode); undefined before a signal. */
  readonly exitCode: number | undefined;
  /** Registers a synchronous clean-up run before a second signal exits at once (e.g. removing a lock file). */
  beforeExitAtOnce(cleanup: () => void): () => void;
  /** Removes the process listeners. Idempotent. */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until `dispose()`; notices go to `stderr`. */
export function listenForInterrupt(stderr: CliOutput): InterruptListener {
  const controller = new AbortController();
  let received: string | undefined;
  const cleanups = new Set<() => void>();
  const onSignal = (signal: NodeJS.Signals) => {
    if (received !== undefined) {
      for (const cleanup of cleanups) {
        try {
          cleanup();
        } catch {
          // Exiting anyway: what was committed stays, and what a clean-up left is taken over later.
        }
      }
      stderr.write(`${cliMessages.interruptedAtOnce(signal)}\n`);
      process.exit(signalExitCode(signal));
    }
    received = signal;
    stderr.write(`${cliMessages.interruptStopping(signal)}\n`);
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return received === undefined ? undefined : signalExitCode(received);
    },
    beforeExitAtOnce(cleanup) {
      cleanups.add(cleanup);
      return () => cleanups.delete(cleanup);
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
