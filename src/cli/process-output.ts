// A process stream as the CLI's output. `rdw openapi | head` must not end in an EPIPE stack trace: once the
// reader has gone, further writes are dropped and the command finishes (and cleans up) as usual. Standard output
// sent to a file or device (`rdw sql --csv … > events.csv`) is written whole or fails in one sentence: Node's
// stream for a file writes once per chunk and keeps no count, so a full disk cut the file short with exit 0.

import { fstatSync, writeSync } from 'node:fs';
import { DiskFullError, EnvironmentError, FileTooLargeError, environmentMessages } from '../contract/index.js';
import type { CliOutput } from './cli-context.js';

/** What this module needs of `process.stdout` / `process.stderr`. */
export interface ProcessStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  /** The file descriptor, when the stream has one (process.stdout and process.stderr do). */
  readonly fd?: number;
}

/** Options of closedPipeTolerantOutput. */
export interface ProcessOutputOptions {
  /**
   * A failed write (other than a closed pipe) throws its typed error from `write`, so the command stops and says
   * it (standard output). Default false: dropped, as nothing can say it (standard error itself).
   */
  readonly throwOnWriteError?: boolean;
}


/**
 * A CliOutput over `stream`: writes pass through until the reader closes the pipe (EPIPE), after which they
 * are dropped silently. To a regular file or a device, each write is whole (partial writes continued) or fails
 * with DiskFullError, FileTooLargeError or EnvironmentError. `columns` is the terminal width, only on a TTY.
 */
export function closedPipeTolerantOutput(stream: ProcessStream, options: ProcessOutputOptions = {}): CliOutput {
  let closed = false;
  let failure: EnvironmentError | undefined;
  const fail = (error: NodeJS.ErrnoException) => {
    failure ??= outputErrorOf(error);
    closed = true;
    if (options.throwOnWriteError === true) throw failure;
  };
  stream.on('error', (error) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true;
    // Asynchronous (a pipe): recorded, and said by the next write or by runCli (writeFailure); never an uncaught throw.
    else {
      failure ??= outputErrorOf(error);
      closed = true;
    }
  });
  const isTTY = Boolean(stream.isTTY);
  const fd = !isTTY && typeof stream.fd === 'number' && isFileOrDevice(stream.fd) ? stream.fd : undefined;
  return {
    write: (text) => {
      if (failure !== undefined && options.throwOnWriteError === true) throw failure;
      if (closed) return;
      if (fd === undefined) {
        stream.write(text);
        return;
      }
      try {
        writeWhole(fd, text);
      } catch (error) {
        fail(error as NodeJS.ErrnoException);
      }
    },
    isTTY,
    get columns() {
      return isTTY && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
    },
    writeFailure: () => failure,
  };
}

function isFileOrDevice(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFile() || stats.isCharacterDevice();
  } catch {
    return false;
  }
}

/** Writes all of `text`: a write to a nearly full disk may take only part of it, then the rest fails. */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** The typed error of a failed write to standard output (no path to name: the shell chose where it goes). */
function outputErrorOf(error: NodeJS.ErrnoException): EnvironmentError {
  const code = error.code ?? 'unknown error';
  if (code === 'ENOSPC' || code === 'EDQUOT') return new DiskFullError(environmentMessages.outputDiskFull(), { cause: error });
  if (code === 'EFBIG') return new FileTooLargeError(environmentMessages.outputFileTooLarge(), { cause: error });
  return new EnvironmentError(environmentMessages.outputFailed(code), { cause: error });
}
