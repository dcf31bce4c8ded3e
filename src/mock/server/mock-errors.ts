// Typed errors of the mock server: bad options (usage) and refused admin operations (with their HTTP status).

import { EXIT_CODES, RdwError, UsageError, withCode, type ApiErrorCode, type ExitCode } from '../../contract/index.js';

/** A mock server option, limits override or fault rule is invalid (exit 2). */
export class MockServerOptionError extends withCode(UsageError, 'RDW_MOCK_OPTION') {}

/** An admin operation the real service would refuse; `status` and `apiCode` are what the API would answer. */
export class MockError extends RdwError {
  override readonly code: string = 'RDW_MOCK';
  /** HTTP status the real service answers for this refusal. */
  readonly status: number;
  readonly apiCode: ApiErrorCode;
  constructor(message: string, status: number, apiCode: ApiErrorCode) {
    super(message);
    this.status = status;
    this.apiCode = apiCode;
  }
}

/** Creating a key when every key slot of the plan is used (spec: Authentication 6; 409). */
export class KeySlotsFullError extends withCode(MockError, 'RDW_MOCK_KEY_SLOTS_FULL') {
  constructor(message: string) {
    super(message, 409, 'key_slots_full');
  }
}

/** An admin call named an account that does not exist (404). */
export class UnknownAccountError extends withCode(MockError, 'RDW_MOCK_UNKNOWN_ACCOUNT') {
  override readonly exitCode: ExitCode = EXIT_CODES.notFound;
  constructor(message: string) {
    super(message, 404, 'not_found');
  }
}
