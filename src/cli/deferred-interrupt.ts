// A command that may only read (rdw lock of present releases, rdw reproduce of a complete catalog) keeps Node's
// default Ctrl-C until it connects to pull: the library takes the stop signal up front, the listener starts then.
// Shared by lock and reproduce, which had each written the same listener, forwarding and catch.

import { errors } from '../index.js';
import type { CliContext, CliOutput } from './cli-context.js';
import { listenForInterrupt, type InterruptListener } from './interrupt-listener.js';

export interface DeferredInterrupt {
  /** Aborted on the first SIGINT/SIGTERM heard after `start()`: give it to the library before it runs. */
  readonly signal: AbortSignal;
  /** Listens from now on (notices to the stderr given); once only, disposed when the command exits. */
  start(): void;
  /** The signal heard (`SIGINT`, `SIGTERM`), or undefined. */
  readonly received: string | undefined;
  /** 130 for SIGINT, 143 for SIGTERM; undefined before a signal. */
  readonly exitCode: number | undefined;
  /** For a `.catch`: undefined for the AbortedError a heard signal caused; anything else is thrown again. */
  stopped(error: unknown): undefined;
}

/** A listener for `context`'s command, started by `start()`, its notices on `stderr` (above a progress bar). */
export function deferredInterrupt(context: Pick<CliContext, 'onExit'>, stderr: CliOutput): DeferredInterrupt {
  const stop = new AbortController();
  let listener: InterruptListener | undefined;
  return {
    signal: stop.signal,
    start() {
      if (listener !== undefined) return;
      const started = listenForInterrupt(stderr);
      listener = started;
      context.onExit(() => started.dispose());
      started.signal.addEventListener('abort', () => stop.abort(started.signal.reason), { once: true });
    },
    get received() {
      return listener?.received;
    },
    get exitCode() {
      return listener?.exitCode;
    },
    stopped(error) {
      if (listener?.received === undefined || !(error instanceof errors.AbortedError)) throw error;
      return undefined;
    },
  };
}
