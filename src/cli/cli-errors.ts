// The CLI's own typed errors: a usage error for every flag or argument problem the CLI itself finds
// (modelled on observablehq/framework's CliError: one message and an exit code), and the few failures of
// CLI-only commands. Errors found by lower layers (a bad release ID, a malformed lock) keep their own class.

import { RdwError, UsageError, withCode } from '../contract/index.js';

/**
 * A flag, operand or command line the CLI refuses before (or instead of) calling a lower layer: a missing
 * operand, an integer flag out of range, an unknown flag or command. Exit 2; `option` names the flag or
 * operand at fault when there is one (without `--`).
 */
export class CliUsageError extends withCode(UsageError, 'RDW_CLI_USAGE') {}

/** A statement that is not a query: `rdw sql` only reads (exit 2). */
export class SqlNotReadOnlyError extends withCode(UsageError, 'RDW_SQL_NOT_READ_ONLY') {}

/** A command that only reads found no catalog in the home (exit 1); nothing was created there. */
export class NoCatalogError extends withCode(RdwError, 'RDW_NO_CATALOG') {}

/** `rdw kernel install` could not register the tslab kernel (exit 1). */
export class KernelInstallError extends withCode(RdwError, 'RDW_KERNEL_INSTALL') {}
