// A process stream as the CLI's output: `rdw openapi | head` must not end in an EPIPE stack trace, so once
// the reader has gone, further writes are dropped and the command finishes (and cleans up) as usual.

import type { CliOutput } from './cli-context.js';

/** What this module needs of `process.stdout` / `process.stderr`. */
export interface ProcessStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * A CliOutput over `stream`: writes pass through until the reader closes the pipe (EPIPE), after which they
 * are dropped silently; any other stream error is re-thrown. `columns` is the terminal width, only on a TTY.
 */
export function closedPipeTolerantOutput(stream: ProcessStream): CliOutput {
  let closed = false;
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    closed = true;
  });
  const isTTY = Boolean(stream.isTTY);
  return {
    write: (text) => {
      if (!closed) stream.write(text);
    },
    isTTY,
    get columns() {
      return isTTY && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
    },
  };
}
