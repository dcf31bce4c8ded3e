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
  withCode,
} from '../../src/base/index.js';
import { CatalogBusyError, CatalogOptionError } from '../../src/catalog/index.js';

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
    const copy = await import('../../src/base/rdw-error.js');
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

describe('withCode', () => {
  class SampleOptionError extends withCode(UsageError, 'RDW_SAMPLE_OPTION') {}

  it('sets the code; the family keeps its exit code, constructor and fields; the name is the named class', () => {
    const error = new SampleOptionError('bad --days', { option: 'days' });
    expect(error.code).toBe('RDW_SAMPLE_OPTION');
    expect(error.exitCode).toBe(EXIT_CODES.usage);
    expect(error.option).toBe('days');
    expect(error.name).toBe('SampleOptionError');
    expect(error).toBeInstanceOf(SampleOptionError);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).not.toBeInstanceOf(IntegrityError);
    expect(new UsageError('x').code).toBe('RDW_USAGE');
  });

  it('keeps instanceof across a second copy of the modules (a notebook kernel re-loading them)', async () => {
    vi.resetModules();
    const copy = await import('../../src/catalog/index.js');
    expect(copy.CatalogBusyError).not.toBe(CatalogBusyError);
    const foreign = new copy.CatalogBusyError('held by PID 4242');
    expect(foreign).toBeInstanceOf(CatalogBusyError);
    expect(foreign).toBeInstanceOf(RdwError);
    expect(foreign).not.toBeInstanceOf(CatalogOptionError);
    expect(foreign.code).toBe('RDW_CATALOG_BUSY');
  });
});
