import { describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  EXIT_CODES,
  IntegrityError,
  LimitError,
  NotFoundError,
  RdwError,
  UsageError,
  isRdwError,
} from '../../src/contract/index.js';

describe('RdwError families', () => {
  it.each([
    [UsageError, 'RDW_USAGE', EXIT_CODES.usage],
    [IntegrityError, 'RDW_INTEGRITY_MISMATCH', EXIT_CODES.integrity],
    [AuthError, 'RDW_AUTH', EXIT_CODES.auth],
    [LimitError, 'RDW_LIMIT', EXIT_CODES.limit],
    [NotFoundError, 'RDW_NOT_FOUND', EXIT_CODES.notFound],
  ])('%o carries its code and exit code', (ErrorClass, code, exitCode) => {
    const error = new ErrorClass('what failed; what to do');
    expect(error).toBeInstanceOf(RdwError);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.code).toBe(code);
    expect(error.exitCode).toBe(exitCode);
    expect(error.name).toBe(ErrorClass.name);
    expect(isRdwError(error)).toBe(true);
  });

  it('does not confuse sibling families', () => {
    expect(new UsageError('x')).not.toBeInstanceOf(IntegrityError);
    expect(new Error('plain')).not.toBeInstanceOf(RdwError);
    expect(isRdwError({ code: 'RDW_USAGE' })).toBe(false);
  });

  it('recognizes an error built by a second copy of the class (a notebook kernel re-loading modules)', async () => {
    vi.resetModules();
    const copy = await import('../../src/contract/rdw-error.js');
    const foreign = new copy.IntegrityError('from another module instance');
    expect(copy.IntegrityError).not.toBe(IntegrityError);
    expect(foreign).toBeInstanceOf(IntegrityError);
    expect(foreign).toBeInstanceOf(RdwError);
    expect(foreign).not.toBeInstanceOf(UsageError);
  });

  it('keeps the cause', () => {
    const cause = new Error('socket hang up');
    expect(new LimitError('budget', { cause }).cause).toBe(cause);
  });
});
