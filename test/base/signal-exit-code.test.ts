// signalExitCode: the exit code a shell reports for a command ended by a signal (128 + its number).

import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import { signalExitCode } from '../../src/base/index.js';

describe('signalExitCode', () => {
  it('is 128 + the signal number: SIGINT 130, SIGTERM 143, SIGHUP 129', () => {
    expect([signalExitCode('SIGINT'), signalExitCode('SIGTERM'), signalExitCode('SIGHUP')]).toEqual([130, 143, 129]);
    expect(signalExitCode('SIGTERM')).toBe(128 + constants.signals.SIGTERM);
  });

  it('is 130 for a name this system does not know', () => {
    expect(signalExitCode('SIGNOPE')).toBe(130);
  });
});
