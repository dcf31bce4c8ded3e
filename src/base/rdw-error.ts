// The error base of rdw: every expected failure is an RdwError with a stable `code` and the CLI exit
// code of DESIGN.md 2.3. Layers subclass the families below; the CLI maps any RdwError to its exit code.
// It lives in base (every layer's floor) so that base's own primitives (removeTree) throw typed errors too.

/** CLI exit codes (DESIGN.md 2.3). */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  integrity: 3,
  auth: 4,
  limit: 5,
  notFound: 6,
} as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

const RDW_ERROR_BRAND = Symbol.for('rdw.error');

export interface RdwErrorOptions {
  cause?: unknown;
}

/**
 * Base of rdw's typed errors. Branded with Symbol.for so `instanceof` still holds when a notebook
 * kernel loads the library twice.
 */
export class RdwError extends Error {
  readonly code: string = 'RDW_ERROR';
  readonly exitCode: ExitCode = EXIT_CODES.failure;

  constructor(message: string, options: RdwErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null || !(RDW_ERROR_BRAND in value)) return false;
    // Subclasses: compare the prototype chain by class name, which survives module reloads.
    if (this === RdwError) return true;
    for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
      if (proto.constructor?.name === this.name) return true;
    }
    return false;
  }
}
Object.defineProperty(RdwError.prototype, RDW_ERROR_BRAND, { value: true });

/** Bad input from the caller: a malformed ID, option or flag (exit 2). */
export class UsageError extends RdwError {
  override readonly code: string = 'RDW_USAGE';
  override readonly exitCode: ExitCode = EXIT_CODES.usage;
  /** The option, flag or parameter at fault, when there is one. */
  readonly option: string | undefined;
  constructor(message: string, options: RdwErrorOptions & { option?: string } = {}) {
    super(message, options);
    this.option = options.option;
  }
}

/** Bytes, schema or lock that do not match what they must (exit 3). */
export class IntegrityError extends RdwError {
  override readonly code: string = 'RDW_INTEGRITY_MISMATCH';
  override readonly exitCode: ExitCode = EXIT_CODES.integrity;
}

/** The key was refused or lacks the entitlement (exit 4). */
export class AuthError extends RdwError {
  override readonly code: string = 'RDW_AUTH';
  override readonly exitCode: ExitCode = EXIT_CODES.auth;
}

/** A request or byte limit was reached (exit 5). */
export class LimitError extends RdwError {
  override readonly code: string = 'RDW_LIMIT';
  override readonly exitCode: ExitCode = EXIT_CODES.limit;
}

/** A release, file, dataset or page that does not exist (exit 6). */
export class NotFoundError extends RdwError {
  override readonly code: string = 'RDW_NOT_FOUND';
  override readonly exitCode: ExitCode = EXIT_CODES.notFound;
}

export function isRdwError(value: unknown): value is RdwError {
  return value instanceof RdwError;
}

/** An error class whose constructor takes the message first: a family above, or a class built on one. */
type ErrorClass = new (message: string, ...rest: any[]) => RdwError;

/**
 * The base of one failure: `family` (its exit code, constructor and fields such as `option` or `path`) with the
 * literal `code` set. A failure that needs nothing more is one line, `class CatalogBusyError extends
 * withCode(RdwError, 'RDW_CATALOG_BUSY') {}`; one with fields of its own declares them in its body. The class
 * returned is an unnamed step between the two, so `name` and `instanceof` are the named class's.
 */
export function withCode<Family extends ErrorClass, Code extends string>(family: Family, code: Code) {
  return class extends (family as ErrorClass) {
    override readonly code: Code = code;
  } as unknown as new (...args: ConstructorParameters<Family>) => InstanceType<Family> & { readonly code: Code };
}
