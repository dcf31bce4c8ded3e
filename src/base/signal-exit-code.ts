// The exit code of a command stopped by a signal, as shells report it: 128 + the signal's number
// (SIGINT 130, SIGTERM 143), so a script sees the same code whether rdw handled the signal or not.

import { constants } from 'node:os';

/** 128 + the number of `signal` (`SIGINT` → 130, `SIGTERM` → 143); 130 for a name this system does not know. */
export function signalExitCode(signal: string): number {
  const number = (constants.signals as Record<string, number | undefined>)[signal];
  return 128 + (number ?? 2);
}
