// src/base: small shared primitives that know nothing of the API (the RdwError base, seeded random, SHA-256, SQL
// quoting, text patterns, a bounded cache, text-table/CSV/HTML writers, makeFolder, removeTree, signal exit codes).
// Imports nothing of ours; every layer may import it.

export { EXIT_CODES, RdwError, UsageError, IntegrityError, AuthError, LimitError, NotFoundError, isRdwError, withCode } from './rdw-error.js';
export type { ExitCode, RdwErrorOptions } from './rdw-error.js';

export { seededRandom } from './seeded-random.js';
export { RandomStream, randomStream } from './random-stream.js';
export { sha256Hex, sha256Digest, hashFile, hashFileInto } from './sha256.js';
export type { Sha256Digest } from './sha256.js';
export { quoteIdentifier, quoteLiteral } from './sql-text.js';
export { DAY_PATTERN, SHA256_HEX_PATTERN } from './patterns.js';
export { BoundedCache } from './bounded-cache.js';
export type { BoundedCacheOptions, EvictionOrder } from './bounded-cache.js';
export { textTableLines } from './text-table.js';
export type { TextTableOptions } from './text-table.js';
export { csvField, formatCsv } from './csv-text.js';
export type { CsvOptions } from './csv-text.js';
export { escapeHtml } from './html-text.js';
export { makeFolder } from './make-folder.js';
export { replaceFile } from './replace-file.js';
export { makeTemporaryFolder, ownFolder, removeTree, resolveRemovableTree, MIN_REMOVABLE_SEGMENTS } from './remove-tree.js';
export type { RemoveTreeOptions } from './remove-tree.js';
export { UnsafeDeleteError } from './unsafe-delete-error.js';
export type { UnsafeDeleteReason, UnsafeDeleteErrorOptions } from './unsafe-delete-error.js';
export { baseMessages } from './messages.js';
export { signalExitCode } from './signal-exit-code.js';
export { controlCharactersEscaped, printableText } from './printable-text.js';
export { shownUrl } from './shown-url.js';
export { STAGING_FOLDER_PREFIX, writeFolderStaged } from './staged-folder.js';
export { isFolder } from './is-folder.js';
export { utcSecondsText } from './utc-seconds-text.js';
export { parseJsonText } from './json-text.js';
